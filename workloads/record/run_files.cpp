#include "workloads/record/run_files.hpp"

#include "common/file_writer.hpp"
#include "tracer/readers/read_trace.hpp"
#include "workloads/record/free_space.hpp"

#include <algorithm>
#include <ctime>
#include <starpu.h>

namespace starscope::workloads {

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    std::tm parts{};
    ::gmtime_r(&now, &parts);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
    return text;
}

std::string linkedStarpuVersion() {
    int major = 0;
    int minor = 0;
    int release = 0;
    starpu_get_version(&major, &minor, &release);
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(release);
}

WorkloadResult<Done> writeTextFile(const std::filesystem::path& path, const std::string& text) {
    if (auto written = files::writeFile(path, text); !written) {
        return workloadError(ErrorCode::Io, written.error().message, path.string());
    }
    return Done{};
}

std::string cutTraceFiles(const std::filesystem::path& folder,
                          const std::vector<std::string>& traceFiles) {
    std::string cut;
    for (const auto& name : traceFiles) {
        if (auto whole = tracer::checkFxtWhole(folder / name); !whole) {
            cut += (cut.empty() ? "" : "; ") + whole.error().describe();
        }
    }
    return cut;
}

std::string traceCutProblem(const std::filesystem::path& folder,
                            const std::vector<std::string>& traceFiles) {
    if (traceFiles.empty()) {
        return {};
    }
    const std::string diskNote = fullDiskNote(folder);
    if (auto cut = cutTraceFiles(folder, traceFiles); !cut.empty()) {
        return cut + diskNote;
    }
    return diskNote.empty() ? std::string()
                            : "the trace in " + folder.string() + " may be cut short" + diskNote;
}

std::optional<tracer::run::FlushRecord> measureFlushes(const std::filesystem::path& folder,
                                                       const std::vector<std::string>& traceFiles) {
    std::optional<tracer::run::FlushRecord> total;
    for (const auto& name : traceFiles) {
        const auto flushes = tracer::measureFxtFlushes(folder / name);
        if (!flushes) {
            continue; // a cut or unreadable file: checkFxtWhole reports it
        }
        if (!total) {
            total.emplace();
        }
        total->count += flushes->count;
        total->totalNs += flushes->totalNs;
        total->maxNs = std::max(total->maxNs, flushes->maxNs);
    }
    return total;
}

} // namespace starscope::workloads
