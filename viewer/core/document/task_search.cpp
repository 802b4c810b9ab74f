#include "viewer/core/document/task_search.hpp"

#include "common/text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <tuple>

namespace starscope::viewer {

std::optional<std::uint64_t> parseJobQuery(std::string_view query) {
    std::string_view text = trimmed(query);
    if (text.starts_with('#')) {
        text = trimmed(text.substr(1));
    } else if (const std::string head = lowered(text.substr(0, 4)); head == "job " || head == "job#") {
        text = trimmed(text.substr(4));
        if (text.starts_with('#')) {
            text = trimmed(text.substr(1));
        }
    }
    std::uint64_t id = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return id;
}

TaskSearch::TaskSearch(const tracer::Trace& trace, std::string_view query) : m_query(trimmed(query)) {
    if (m_query.empty()) {
        return;
    }
    const auto& tasks = trace.tasks;
    if (const auto job = parseJobQuery(m_query)) {
        for (std::size_t i = 0; i < tasks.size(); ++i) {
            if (tasks[i].jobId == *job && tasks[i].start >= 0) {
                m_matches.push_back(static_cast<tracer::TaskIndex>(i));
            }
        }
    } else {
        // Names are few and tasks many: decide once per name, then test each task by its id.
        const std::string needle = lowered(m_query);
        std::vector<bool> nameMatches(trace.names.size(), false);
        for (std::size_t n = 0; n < nameMatches.size(); ++n) {
            nameMatches[n] = lowered(trace.names.name(static_cast<tracer::NameId>(n))).find(needle) != std::string::npos;
        }
        for (std::size_t i = 0; i < tasks.size(); ++i) {
            const auto codelet = trace.codeletIdOf(tasks[i]);
            if (tasks[i].start >= 0 && codelet < nameMatches.size() && nameMatches[codelet]) {
                m_matches.push_back(static_cast<tracer::TaskIndex>(i));
            }
        }
    }
    std::sort(m_matches.begin(), m_matches.end(), [&](tracer::TaskIndex a, tracer::TaskIndex b) {
        return std::tie(tasks[a].start, tasks[a].jobId) < std::tie(tasks[b].start, tasks[b].jobId);
    });
}

std::size_t TaskSearch::countBefore(const tracer::Trace& trace, tracer::TimeNs start, std::uint64_t jobId) const {
    const auto it = std::partition_point(m_matches.begin(), m_matches.end(), [&](tracer::TaskIndex m) {
        const auto& task = trace.tasks[m];
        return std::tie(task.start, task.jobId) < std::tie(start, jobId);
    });
    return static_cast<std::size_t>(it - m_matches.begin());
}

std::optional<std::size_t> TaskSearch::positionOf(const tracer::Trace& trace, tracer::TaskIndex task) const {
    if (task >= trace.tasks.size()) {
        return std::nullopt;
    }
    const auto& t = trace.tasks[task];
    const std::size_t at = countBefore(trace, t.start, t.jobId);
    if (at < m_matches.size() && m_matches[at] == task) {
        return at;
    }
    return std::nullopt;
}

std::optional<std::size_t> TaskSearch::next(const tracer::Trace& trace, std::optional<tracer::TaskIndex> current,
                                            double fromTime) const {
    if (m_matches.empty()) {
        return std::nullopt;
    }
    std::size_t at = 0;
    if (current && *current < trace.tasks.size()) {
        // The current task is not among the matches when it was selected otherwise: the
        // next match is then the first ordered after it.
        const auto& t = trace.tasks[*current];
        const auto position = positionOf(trace, *current);
        at = position ? *position + 1 : countBefore(trace, t.start, t.jobId);
    } else {
        at = countBefore(trace, static_cast<tracer::TimeNs>(std::ceil(fromTime)), 0);
    }
    return at < m_matches.size() ? at : 0;
}

std::optional<std::size_t> TaskSearch::previous(const tracer::Trace& trace, std::optional<tracer::TaskIndex> current,
                                                double fromTime) const {
    if (m_matches.empty()) {
        return std::nullopt;
    }
    std::size_t before = 0;
    if (current && *current < trace.tasks.size()) {
        const auto& t = trace.tasks[*current];
        before = countBefore(trace, t.start, t.jobId);
    } else {
        before = countBefore(trace, static_cast<tracer::TimeNs>(std::ceil(fromTime)), 0);
    }
    return before > 0 ? before - 1 : m_matches.size() - 1;
}

} // namespace starscope::viewer
