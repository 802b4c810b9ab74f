#include "workloads/record/lost_job.hpp"

#include "tracer/readers/read_trace.hpp"
#include "workloads/record/trace_rescue.hpp"

#include <sys/wait.h>

namespace starscope::workloads {

std::string describeLostJob(const std::filesystem::path& runFolder, int ranks,
                            const MpirunEnd& end) {
    std::string what = "the job ended before rank 0 wrote run.json: ";
    if (const auto killed = describeMpirunKill(end); !killed.empty()) {
        what += killed;
    } else {
        what += WIFSIGNALED(end.status)
                    ? "mpirun was killed by " + signalName(WTERMSIG(end.status))
                    : "mpirun exited with status " + std::to_string(WEXITSTATUS(end.status));
    }
    if (const auto first = rankThatEndedFirst(end)) {
        what += "; rank " + std::to_string(first->rank) + " (pid " + std::to_string(first->pid)
                + ") ended first, while the others ran";
    }
    for (int rank = 0; rank < ranks; ++rank) {
        const auto file = rankProfFile(runFolder, rank);
        std::error_code ec;
        if (!std::filesystem::exists(file, ec)) {
            what += "; rank " + std::to_string(rank) + " left no trace";
        } else if (auto whole = tracer::checkFxtWhole(file); !whole) {
            what +=
                "; rank " + std::to_string(rank) + "'s trace is cut: " + whole.error().describe();
        } else {
            what += "; rank " + std::to_string(rank) + "'s trace is kept up to where it ended ("
                    + file.string() + ")";
        }
    }
    return what;
}

} // namespace starscope::workloads
