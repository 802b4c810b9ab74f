#include "workloads/record/lost_job.hpp"

#include "tracer/readers/read_trace.hpp"
#include "tracer/run/run_folder.hpp"
#include "workloads/record/run_json.hpp"
#include "workloads/record/trace_rescue.hpp"

#include <sys/wait.h>

namespace starscope::workloads {

namespace {

// A rank that ended this much before the next one was not stopped with the others: mpirun ends
// the rest of a job 10 s after one of its ranks ended abnormally, and Open MPI ends the ranks of
// a killed mpirun within about a second, all at once.
constexpr double kEndedFirstBySeconds = 2.0;

} // namespace

std::string describeLostJob(const std::filesystem::path& runFolder, int ranks, const MpirunEnd& end) {
    std::string what = "the job ended before rank 0 wrote run.json: ";
    what += WIFSIGNALED(end.status) ? "mpirun was killed by " + signalName(WTERMSIG(end.status))
                                    : "mpirun exited with status " + std::to_string(WEXITSTATUS(end.status));
    const auto& ended = end.ranks;
    if (!ended.empty() && ended.front().rank >= 0
        && (ended.size() == 1 || ended[1].endedAfterSeconds - ended.front().endedAfterSeconds >= kEndedFirstBySeconds)) {
        what += "; rank " + std::to_string(ended.front().rank) + " (pid " + std::to_string(ended.front().pid)
                + ") ended first, while the others ran";
    }
    for (int rank = 0; rank < ranks; ++rank) {
        const auto file = rankProfFile(runFolder, rank);
        std::error_code ec;
        if (!std::filesystem::exists(file, ec)) {
            what += "; rank " + std::to_string(rank) + " left no trace";
        } else if (auto whole = tracer::checkFxtWhole(file); !whole) {
            what += "; rank " + std::to_string(rank) + "'s trace is cut: " + whole.error().describe();
        } else {
            what += "; rank " + std::to_string(rank) + "'s trace is kept up to where it ended ("
                    + file.string() + ")";
        }
    }
    return what;
}

WorkloadResult<Done> recordLostJob(const RecordPlan& plan, int ranks, const std::string& what,
                                   const std::string& startedAt, double seconds) {
    RecordedRun record;
    record.status = tracer::run::RunStatus::Failed;
    record.error = what;
    record.command = {"starscope", "record"};
    record.startedAt = startedAt;
    record.totalSeconds = seconds;
    for (const auto& file : tracer::findProfFiles(plan.outDir)) {
        record.traceFiles.push_back(file.filename().string());
    }
    for (int rank = 0; rank < ranks; ++rank) {
        RankFigures figures;
        figures.rank = rank;
        record.ranks.push_back(figures);
    }
    return writeRunJson(tracer::run::RunFolder(plan.outDir).runJson(), plan, record);
}

} // namespace starscope::workloads
