#pragma once
// Runs a planned `record -- PROGRAM`: opens the run folder, starts the program as a child with
// FxT's settings in its environment (its stdin, stdout and stderr are the user's; the folder's
// lock with them, so that the folder stays locked while the program runs even if record is
// killed), passes on the stop signal the program did not get itself (one at most), waits, and
// keeps the run with run.json when the program wrote a trace; one that wrote none is refused
// and leaves the folder as it was. A trace, even cut by a full disk, is never removed.

#include "tracer/run_folder/run_record.hpp"
#include "workloads/error.hpp"
#include "workloads/record/program_plan.hpp"

#include <filesystem>
#include <iosfwd>
#include <string>

namespace starscope::workloads {

struct ProgramOutcome {
    tracer::run::RunRecord record; // as written to runJson
    std::filesystem::path runJson;
    // What the trace holds, for the summary (0 when it could not be read: traceProblem says why).
    std::size_t workers = 0;
    std::size_t tasks = 0;
    std::string traceProblem;
    // Why the trace is cut short (a full disk), also in run.json's error; empty when whole.
    std::string traceCut;
    // record's exit status: the program's own (128 + N for a signal), 1 when its trace is
    // damaged although it succeeded.
    int exitCode = 0;
};

// Errors returned here leave no run.json: the run folder could not be opened, the program could
// not be started, or it wrote no trace (the folder is then as it was before: removed when
// record created it, an earlier run's files put back under --force), or run.json could not be
// written (the trace stays, and the message says so). Such an error's exit status is in
// exitCode (the program's own when it failed, else 1 or 2).
struct ProgramRecordError {
    WorkloadError error;
    int exitCode = 2;
};

Result<ProgramOutcome, ProgramRecordError> executeProgramRecord(const ProgramPlan& plan,
                                                                std::ostream& err);

} // namespace starscope::workloads
