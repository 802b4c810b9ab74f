// Reading version 6's columns (native_records.hpp): the codelet key table, each level's spans,
// the tasks and their dependencies, copied as the model's records and checked in the same pass,
// a step at a time while the step is in the cache: what the reader checks a record-by-record
// file for (native_reader.cpp), it checks here too, but for the task each span runs, which the
// model finds by lane and times (Trace::taskOf) and a column does not name.

#include "tracer/native/native_payload.hpp"

#include <optional>
#include <string>

namespace starscope::tracer::detail::native {

namespace {

std::string spanRecord(std::size_t lane, const Lane& l, std::size_t level, std::size_t span) {
    return "span " + std::to_string(span) + " of level " + std::to_string(level) + " of " + laneRecord(lane, l);
}

} // namespace

TraceResult<Done> PayloadReader::codeletKeys() {
    auto& trace = m_trace;
    std::vector<CodeletKey> keys;
    auto read = table(keys, 8, "codelet key table", [&](std::size_t i, std::uint64_t at) -> std::optional<TraceError> {
        const CodeletKey& key = keys[i];
        const std::string where = "codelet key " + std::to_string(i);
        if (key.codelet != kNoName && key.codelet >= trace.names.size()) {
            return inconsistent(at, where, outOfRange("codelet name id", key.codelet, trace.names.size(), "name table"));
        }
        // Ids are positions in the table: a repeated key would shift every later id.
        if (trace.codeletKeys.intern(key) != i) {
            return inconsistent(at, where, "appears twice");
        }
        return std::nullopt;
    });
    return read;
}

// The spans of one level of a lane: each of a known state, within the trace, after the one
// before it.
TraceResult<Done> PayloadReader::spanColumn(std::size_t l, std::size_t d) {
    const auto& trace = m_trace;
    const auto& lane = trace.lanes[l];
    auto& level = m_trace.lanes[l].levels[d];
    const auto states = trace.states.size();
    return column(level, "spans of lane \"" + lane.name + "\"",
                  [&](std::size_t first, std::size_t count, std::uint64_t at) -> std::optional<TraceError> {
                      TimeNs previousEnd = first > 0 ? level[first - 1].end : 0;
                      for (std::size_t i = first; i < first + count; ++i) {
                          const Span& span = level[i];
                          // One test for the spans that are right, the messages only for a wrong one.
                          const bool right = span.state < states && span.start >= previousEnd && span.end >= span.start
                                             && span.end <= trace.end;
                          previousEnd = span.end;
                          if (right) {
                              continue;
                          }
                          const auto spanAt = at + (i - first) * sizeof(Span);
                          const auto where = spanRecord(l, lane, d, i);
                          if (span.state >= states) {
                              return inconsistent(spanAt, where, outOfRange("state id", span.state, states, "state table"));
                          }
                          if (span.end < span.start) {
                              return inconsistent(spanAt, where,
                                                  "ends (" + std::to_string(span.end) + ") before it starts ("
                                                      + std::to_string(span.start) + ")");
                          }
                          // Within the trace (which ends by kMaxTraceTime), every duration the
                          // analysis takes on it fits.
                          if (span.start < 0 || span.end > trace.end) {
                              return inconsistent(spanAt, where,
                                                  "runs from " + std::to_string(span.start) + " to "
                                                      + std::to_string(span.end) + ", outside the trace (which ends at "
                                                      + std::to_string(trace.end) + ")");
                          }
                          // Analyses binary-search the levels and sum their spans: sorted and disjoint.
                          return inconsistent(spanAt, where,
                                              "starts (" + std::to_string(span.start)
                                                  + ") before the previous span ends ("
                                                  + std::to_string(level[i - 1].end)
                                                  + "): spans overlap or are unsorted");
                      }
                      return std::nullopt;
                  });
}

// The tasks (each of a known codelet key and lane, its times in order, sorted by job id), then
// the dependency table: each task's entries (dependencyStarts, none or one more than the tasks,
// from 0 up to the entries' count), the jobs outside the trace they name, and the entries.
TraceResult<Done> PayloadReader::taskColumns() {
    auto& trace = m_trace;
    const auto keys = trace.codeletKeys.size();
    const auto lanes = trace.lanes.size();
    auto read = column(trace.tasks, "task table",
                       [&](std::size_t first, std::size_t count, std::uint64_t at) -> std::optional<TraceError> {
                           std::uint64_t previousJob = first > 0 ? trace.tasks[first - 1].jobId : 0;
                           for (std::size_t i = first; i < first + count; ++i) {
                               const Task& task = trace.tasks[i];
                               const TimeNs submit = task.submit;
                               const TimeNs start = task.start;
                               const TimeNs end = task.end;
                               const bool right = (task.codeletKey < keys || task.codeletKey == kNoCodeletKey)
                                                  && task.lane >= -1 && (task.lane < 0 || static_cast<std::size_t>(task.lane) < lanes)
                                                  && submit >= -1 && start >= -1 && end >= -1
                                                  && (start < 0 || end < 0 || end >= start)
                                                  && (i == 0 || task.jobId >= previousJob);
                               previousJob = task.jobId;
                               if (right) {
                                   continue;
                               }
                               const auto taskAt = at + (i - first) * sizeof(Task);
                               const auto where = "task " + std::to_string(i) + " (job " + std::to_string(task.jobId) + ")";
                               if (task.codeletKey >= keys && task.codeletKey != kNoCodeletKey) {
                                   return inconsistent(taskAt, where,
                                                       outOfRange("codelet key id", task.codeletKey, keys, "codelet key table"));
                               }
                               if (!validLane(task.lane, lanes)) {
                                   return outOfLanes(taskAt, where, task.lane);
                               }
                               if (submit < -1 || start < -1 || end < -1) {
                                   return inconsistent(taskAt, where, "a time below -1 (unknown)");
                               }
                               if (start >= 0 && end >= 0 && end < start) {
                                   return inconsistent(taskAt, where,
                                                       "ends (" + std::to_string(end) + ") before it starts ("
                                                           + std::to_string(start) + ")");
                               }
                               // Dependencies are looked up by binary search on the job ids.
                               return inconsistent(taskAt, where,
                                                   "not sorted by job id (follows job "
                                                       + std::to_string(trace.tasks[i - 1].jobId) + ")");
                           }
                           return std::nullopt;
                       });
    if (!read) {
        return read;
    }
    const auto entriesAt = m_c.offset();
    read = column(trace.dependencyStarts, "dependency table",
                  [&](std::size_t first, std::size_t count, std::uint64_t at) -> std::optional<TraceError> {
                      for (std::size_t i = first; i < first + count; ++i) {
                          const std::uint32_t start = trace.dependencyStarts[i];
                          const std::uint32_t previous = i > 0 ? trace.dependencyStarts[i - 1] : 0;
                          if (start < previous || (i == 0 && start != 0)) {
                              return inconsistent(at + (i - first) * 4, "dependencies of task " + std::to_string(i),
                                                  "start at entry " + std::to_string(start)
                                                      + (i == 0 ? ", not 0" : ", before the previous task's ("
                                                                                    + std::to_string(previous) + ")"));
                          }
                      }
                      return std::nullopt;
                  });
    if (!read) {
        return read;
    }
    const auto starts = trace.dependencyStarts.size();
    if (starts != 0 && starts != trace.tasks.size() + 1) {
        return fail(inconsistent(entriesAt, "dependency table",
                                 std::to_string(starts) + " task starts for " + std::to_string(trace.tasks.size())
                                     + " tasks (none, or one more than the tasks)"));
    }
    read = column(trace.outsideJobs, "jobs outside the trace",
                  [](std::size_t, std::size_t, std::uint64_t) { return std::optional<TraceError>{}; });
    if (!read) {
        return read;
    }
    const auto tasks = trace.tasks.size();
    const auto outside = trace.outsideJobs.size();
    read = column(trace.dependencies, "dependency entries",
                  [&](std::size_t first, std::size_t count, std::uint64_t at) -> std::optional<TraceError> {
                      for (std::size_t i = first; i < first + count; ++i) {
                          const TaskIndex entry = trace.dependencies[i];
                          const bool elsewhere = (entry & kOutsideJob) != 0;
                          const std::size_t index = entry & ~kOutsideJob;
                          if (index >= (elsewhere ? outside : tasks)) {
                              return inconsistent(at + (i - first) * 4, "dependency entry " + std::to_string(i),
                                                  outOfRange(elsewhere ? "outside job index" : "task index", index,
                                                             elsewhere ? outside : tasks,
                                                             elsewhere ? "table of jobs outside the trace" : "task table"));
                          }
                      }
                      return std::nullopt;
                  });
    if (!read) {
        return read;
    }
    const std::size_t entries = starts == 0 ? 0 : trace.dependencyStarts.back();
    if (entries != trace.dependencies.size()) {
        return fail(inconsistent(entriesAt, "dependency table",
                                 "its task starts end at entry " + std::to_string(entries) + ", the table holds "
                                     + std::to_string(trace.dependencies.size())));
    }
    // Each lane's task index, and codelet keys in first-use order, as every reader leaves them.
    trace.indexTasks();
    return Done{};
}

} // namespace starscope::tracer::detail::native
