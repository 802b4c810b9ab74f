// Reading version 6's columns (native_records.hpp): the codelet key table, each level's spans,
// the tasks and their dependencies. The tables around them are read first, past the columns
// (PayloadReader::column records a job for each); then readColumns makes each column the mapped
// file's (the model reads it in place: no copy, no page of the process's own for it) and checks
// each step of it while it is in the cache: on one thread in file order, checksumming each step
// as it goes, or on several, one of them checksumming the payload. What the reader checks a
// record-by-record file for (native_reader.cpp) it checks here too, but for the task each span
// runs, which the model finds by lane and times (Trace::taskOf) and a column does not name.

#include "tracer/native/native_payload.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <system_error>
#include <thread>

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
    // Run by readColumns once the tables around it are read: what it refers to lives in the
    // model (the lanes and levels are all made by then).
    auto read = column(level, "spans of lane \"" + lane.name + "\"",
                  [this, &trace, &lane, &level, states, l, d](std::size_t first, std::size_t count, std::uint64_t at) -> std::optional<TraceError> {
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
    return read ? TraceResult<Done>(Done{}) : fail(read.error());
}

// The tasks (each of a known codelet key and lane, its times in order, sorted by job id), then
// the dependency table: each task's entries (dependencyStarts, none or one more than the tasks,
// from 0 up to the entries' count), the jobs outside the trace they name, and the entries.
TraceResult<Done> PayloadReader::taskColumns() {
    auto& trace = m_trace;
    const auto keys = trace.codeletKeys.size();
    const auto lanes = trace.lanes.size();
    const auto tasks = column(trace.tasks, "task table",
                       [this, &trace, keys, lanes](std::size_t first, std::size_t count, std::uint64_t at) -> std::optional<TraceError> {
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
    if (!tasks) {
        return fail(tasks.error());
    }
    m_dependenciesAt = m_c.offset();
    const auto starts = column(trace.dependencyStarts, "dependency table",
                  [this, &trace](std::size_t first, std::size_t count, std::uint64_t at) -> std::optional<TraceError> {
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
    if (!starts) {
        return fail(starts.error());
    }
    if (*starts != 0 && *starts != *tasks + 1) {
        return fail(inconsistent(m_dependenciesAt, "dependency table",
                                 std::to_string(*starts) + " task starts for " + std::to_string(*tasks)
                                     + " tasks (none, or one more than the tasks)"));
    }
    const auto outside = column(trace.outsideJobs, "jobs outside the trace",
                  [](std::size_t, std::size_t, std::uint64_t) { return std::optional<TraceError>{}; });
    if (!outside) {
        return fail(outside.error());
    }
    const auto entries = column(trace.dependencies, "dependency entries",
                  [this, &trace, tasks = *tasks, outside = *outside](std::size_t first, std::size_t count, std::uint64_t at) -> std::optional<TraceError> {
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
    return entries ? TraceResult<Done>(Done{}) : fail(entries.error());
}

TraceResult<Done> PayloadReader::columnsRead() {
    auto& trace = m_trace;
    const std::size_t entries = trace.dependencyStarts.empty() ? 0 : trace.dependencyStarts.back();
    if (entries != trace.dependencies.size()) {
        return fail(inconsistent(m_dependenciesAt, "dependency table",
                                 "its task starts end at entry " + std::to_string(entries) + ", the table holds "
                                     + std::to_string(trace.dependencies.size())));
    }
    // Each lane's task index, and codelet keys in first-use order, as every reader leaves them.
    trace.indexTasks();
    return Done{};
}

TraceResult<Done> PayloadReader::readColumns() {
    std::uint64_t bytes = 0;
    for (const auto& job : m_columns) {
        bytes += job.bytes;
    }
    // From 64 MiB of columns on, as the FxT reader from 64 MiB of a job's prof files.
    constexpr std::uint64_t kParallelFrom = std::uint64_t{64} << 20;
    unsigned threads = m_options.threads;
    if (threads == 0) {
        threads = bytes >= kParallelFrom ? std::max(1U, std::thread::hardware_concurrency()) : 1U;
    }
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, m_columns.size() + 1));
    // Trusted columns are only mapped: nothing to share between threads.
    return threads > 1 && m_checksum && m_columnsChecked ? readColumnsAtOnce(threads, bytes) : readColumnsInOrder();
}

namespace {

// Lets go of a column's pages behind its check, a few MiB at a time (the model maps them again
// as it reads them).
class ReleaseBehind {
public:
    ReleaseBehind(const PayloadReader::ReleaseBefore& release, std::uint64_t from) : m_release(release), m_from(from) {}
    void to(std::uint64_t end, bool last) {
        constexpr std::uint64_t kStep = std::uint64_t{4} << 20;
        if (m_release && (end >= m_from + kStep || (last && end > m_from))) {
            m_release(m_from, end);
            m_from = end;
        }
    }

private:
    const PayloadReader::ReleaseBefore& m_release;
    std::uint64_t m_from;
};

} // namespace

TraceResult<Done> PayloadReader::readColumnsInOrder() {
    for (const auto& job : m_columns) {
        ReleaseBehind release(m_release, job.at);
        const StepDone done = [&](std::uint64_t at, std::size_t size) -> std::optional<TraceError> {
            if (m_checksum) {
                // The payload in file order up to the step's end (the tables and padding before
                // it too), while the step is in the cache.
                m_hash.update(m_payload.substr(m_hashed - kHeaderSize, at + size - m_hashed));
                m_hashed = at + size;
            }
            release.to(at + size, at + size == job.at + job.bytes);
            if (m_options.progress && !m_options.progress(fractionAt(at + size))) {
                return TraceError{ErrorCode::Cancelled, "reading cancelled", m_file.string(), at + size};
            }
            return std::nullopt;
        };
        if (auto problem = job.run(done)) {
            return fail(std::move(*problem));
        }
    }
    return Done{};
}

TraceResult<Done> PayloadReader::readColumnsAtOnce(unsigned threads, std::uint64_t total) {
    // The jobs, the payload's checksum first (the longest: every byte of the file), then the
    // columns largest first, so that the threads end together.
    std::vector<std::size_t> order(m_columns.size() + 1);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::rotate(order.begin(), order.end() - 1, order.end());   // the checksum: m_columns.size()
    std::stable_sort(order.begin() + 1, order.end(),
                     [&](std::size_t a, std::size_t b) { return m_columns[a].bytes > m_columns[b].bytes; });
    std::vector<std::optional<TraceError>> problems(m_columns.size());
    std::exception_ptr thrown;
    std::mutex thrownLock;
    std::atomic<std::size_t> next{0};
    std::atomic<std::uint64_t> read{0};
    std::atomic<bool> cancelled{false};
    const auto reporter = std::this_thread::get_id();
    // After each step of any job: how far the read is, told (and asked whether to go on) by the
    // caller's thread only, as a reader on one thread does.
    const auto stepped = [&](std::uint64_t size, std::uint64_t at) -> std::optional<TraceError> {
        const std::uint64_t now = read.fetch_add(size) + size;
        if (m_options.progress && std::this_thread::get_id() == reporter
            && !m_options.progress(static_cast<double>(now) / static_cast<double>(total + m_payload.size()))) {
            cancelled = true;
        }
        if (cancelled) {
            return TraceError{ErrorCode::Cancelled, "reading cancelled", m_file.string(), at};
        }
        return std::nullopt;
    };
    const auto checksum = [&]() -> std::optional<TraceError> {
        XxHash64 hash;
        ReleaseBehind release(m_release, kHeaderSize);
        for (std::size_t pos = 0; pos < m_payload.size(); pos += kColumnStep) {
            const auto step = m_payload.substr(pos, kColumnStep);
            hash.update(step);
            const std::uint64_t end = kHeaderSize + pos + step.size();
            release.to(end, pos + step.size() == m_payload.size());
            if (auto stop = stepped(step.size(), end)) {
                return stop;
            }
        }
        m_digest = hash.digest();
        return std::nullopt;
    };
    const auto work = [&] {
        for (std::size_t k = next.fetch_add(1); k < order.size(); k = next.fetch_add(1)) {
            try {
                const std::size_t j = order[k];
                if (j == m_columns.size()) {
                    (void)checksum();
                    continue;
                }
                ReleaseBehind release(m_release, m_columns[j].at);
                const auto& job = m_columns[j];
                problems[j] = job.run([&](std::uint64_t at, std::size_t size) {
                    release.to(at + size, at + size == job.at + job.bytes);
                    return stepped(size, at + size);
                });
            } catch (...) {
                // Out of memory for an error's message, most likely: thrown again on the caller's thread.
                const std::lock_guard lock(thrownLock);
                thrown = thrown ? thrown : std::current_exception();
                cancelled = true;
            }
        }
    };
    // Asked before and after too: the caller's thread may find every job taken by the others.
    const auto goOn = [&](double fraction) { return !m_options.progress || m_options.progress(fraction); };
    if (!goOn(0.0)) {
        return fail(TraceError{ErrorCode::Cancelled, "reading cancelled", m_file.string(), {}});
    }
    std::atomic<std::size_t> finished{0};
    std::vector<std::thread> helpers;
    for (unsigned t = 1; t < threads; ++t) {
        try {
            helpers.emplace_back([&] {
                work();
                ++finished;
            });
        } catch (const std::system_error&) {
            break;   // no thread to be had: the others, or this one, do its share
        }
    }
    work();
    // Told while the others end their jobs (the checksum of a file whose header announces more
    // than it holds may be long), from this thread, which can cancel them.
    while (finished < helpers.size()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (!cancelled && !goOn(static_cast<double>(read) / static_cast<double>(total + m_payload.size()))) {
            cancelled = true;
        }
    }
    for (auto& helper : helpers) {
        helper.join();
    }
    if (thrown) {
        std::rethrow_exception(thrown);
    }
    if (cancelled || !goOn(1.0)) {
        return fail(TraceError{ErrorCode::Cancelled, "reading cancelled", m_file.string(), {}});
    }
    // The problem of the column first in the file, as a reader on one thread finds it.
    for (auto& problem : problems) {
        if (problem) {
            return fail(std::move(*problem));
        }
    }
    return Done{};
}

} // namespace starscope::tracer::detail::native
