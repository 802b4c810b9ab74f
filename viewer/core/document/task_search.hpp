#pragma once
// Finding tasks by codelet name or job id, and stepping through the matches in time order
// (next / previous, wrapping at either end), as the search field of the window does.

#include "tracer/model/trace.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starscope::viewer {

class TaskSearch {
public:
    TaskSearch() = default;
    // A query of digits ("1234", also "#1234" or "job 1234") matches that job id; any other
    // text matches the executed tasks whose codelet name contains it, ignoring case. Tasks
    // that never ran (StarPU's internal jobs) have no place on the chart and never match.
    TaskSearch(const tracer::Trace& trace, std::string_view query);

    const std::string& query() const { return m_query; }
    // The matching tasks, by start time (then job id).
    const std::vector<tracer::TaskIndex>& matches() const { return m_matches; }
    bool empty() const { return m_matches.empty(); }
    std::size_t size() const { return m_matches.size(); }

    // The position of a task among the matches; nullopt when it is not one.
    std::optional<std::size_t> positionOf(const tracer::Trace& trace, tracer::TaskIndex task) const;
    // The match after the current task (a match or not: the first one starting after it), or
    // with no current task the first starting at or after fromTime; wraps to the first match.
    std::optional<std::size_t> next(const tracer::Trace& trace, std::optional<tracer::TaskIndex> current,
                                    double fromTime) const;
    // The match before the current task, or with no current task the last starting before
    // fromTime; wraps to the last match.
    std::optional<std::size_t> previous(const tracer::Trace& trace, std::optional<tracer::TaskIndex> current,
                                        double fromTime) const;

private:
    // Number of matches ordered before (start, jobId).
    std::size_t countBefore(const tracer::Trace& trace, tracer::TimeNs start, std::uint64_t jobId) const;

    std::string m_query;
    std::vector<tracer::TaskIndex> m_matches;
};

// Parses "1234", "#1234" or "job 1234" (spaces around allowed); nullopt for anything else.
std::optional<std::uint64_t> parseJobQuery(std::string_view query);

} // namespace starscope::viewer
