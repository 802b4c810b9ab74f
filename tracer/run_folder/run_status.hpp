#pragma once
// How a recorded run ended: one enum and one name table, used by `record` to write run.json,
// by sweep to decide what to redo, and by compare and the viewer to decide what to pool.

#include <array>
#include <optional>
#include <string_view>

namespace starscope::tracer::run {

enum class RunStatus {
    Completed,   // every requested batch ran and the trace was flushed
    Interrupted, // stopped by a signal at a batch boundary; the trace covers what ran
    Failed,      // StarPU, the dataset or the disk failed; see RunRecord::error
    NotRun,      // a sweep's run that was never started
};

inline constexpr std::array<std::pair<RunStatus, std::string_view>, 4> kRunStatusNames{{
    {RunStatus::Completed, "completed"},
    {RunStatus::Interrupted, "interrupted"},
    {RunStatus::Failed, "failed"},
    {RunStatus::NotRun, "not run"},
}};

constexpr std::string_view statusName(RunStatus status) {
    for (const auto& [value, name] : kRunStatusNames) {
        if (value == status) {
            return name;
        }
    }
    return "unknown";
}

constexpr std::optional<RunStatus> parseStatus(std::string_view name) {
    for (const auto& [value, text] : kRunStatusNames) {
        if (text == name) {
            return value;
        }
    }
    return std::nullopt;
}

} // namespace starscope::tracer::run
