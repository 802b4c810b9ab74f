#pragma once
// The names a user is shown for what a trace holds, made in one place so that `stats`, the CSV
// and the viewer's key and details agree: a job as "job 152", or "rank 1 job 152" on a
// StarPU-MPI job (never the id readers pack a rank's jobs into), a task by its codelet or as
// "unnamed (job 608)", and a process's user threads as "main", "thread 2", ... Names read from
// a trace are bytes from outside: one that is not printable text (what a 1.3 release records for
// jobs that never ran) is no name at all.

#include "tracer/model/trace.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace starscope::tracer {

// Readers number the jobs of the k-th process (prof file) of a StarPU-MPI job from k << 48, as
// StarPU numbers each process's own from 1.
inline constexpr unsigned kJobProcessShift = 48;
inline constexpr std::uint64_t jobOfProcess(std::uint64_t process, std::uint64_t job) {
    return (process << kJobProcessShift) + job;
}

// Whether text is valid UTF-8 without control characters (a tab aside).
bool isPrintableText(std::string_view text);

// "job 152"; on a trace of several ranks "rank 1 job 152".
std::string jobName(const Trace& trace, std::uint64_t job);
// Its codelet, or "unnamed (job 152)" / "unnamed (rank 1 job 152)" when it has none.
std::string taskName(const Trace& trace, const Task& task);

// Takes the codelet away from the tasks whose codelet name is not printable text (footprint
// kept), and gives back how many tasks lost it: readers' callers (readTrace) do it once, and
// warn once (unprintableNamesWarning).
std::size_t unnameUnprintableCodelets(Trace& trace);
std::string unprintableNamesWarning(std::size_t tasks);

// The lane name readers give a process's user threads, in the order they appear: "main" for the
// first, then "thread 2", "thread 3", ... (StarPU names them by their thread id, 15 digits).
std::string userThreadName(std::size_t ordinal);

} // namespace starscope::tracer
