#include "tests/support/synthetic_job.hpp"

#include <algorithm>
#include <cassert>
#include <string>
#include <tuple>

namespace starscope::viewer {

using tracer::EmitRecords;
using tracer::Lane;
using tracer::LaneKind;
using tracer::RecordBatcher;
using tracer::Span;
using tracer::StateClass;
using tracer::StreamedColumn;
using tracer::TimeNs;

namespace {

// SplitMix64's finalizer: a counter-based draw, the same wherever and in whatever order it is
// asked for.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// A rank's options: tasks r/4 longer, a barrier shorter by as much, so that its batches keep the
// period of rank 0 without jitter.
SyntheticOptions rankOptions(const SyntheticOptions& o, int r) {
    SyntheticOptions mine = o;
    mine.taskNs = o.taskNs + o.taskNs * r / 4;
    mine.barrierNs = o.barrierNs - (mine.taskNs - o.taskNs) * o.tasksPerWorker;
    mine.seed = o.seed + static_cast<std::uint64_t>(r);
    return mine;
}

} // namespace

SyntheticJob::SyntheticJob(const SyntheticOptions& o, int ranks)
    : m_options(o), m_mpi(ranks > 0), m_workers(static_cast<std::size_t>(o.cpuWorkers)),
      m_perWorker(static_cast<std::size_t>(o.tasksPerWorker)),
      m_batches(static_cast<std::size_t>(o.epochs) * static_cast<std::size_t>(o.batchesPerEpoch)) {
    assert(o.cpuWorkers > 0 && o.tasksPerWorker > 0 && !o.codelets.empty() && ranks >= 0 && ranks <= 4);
    m_states.executing = m_tables.stateId("Executing", StateClass::Executing);
    m_states.sleeping = m_tables.stateId("Sleeping", StateClass::Sleeping);
    m_states.scheduling = m_tables.stateId("Scheduling", StateClass::Overhead);
    m_states.submitting = m_tables.stateId("Submitting", StateClass::User);
    m_states.waitingAll = m_tables.stateId("Waiting all tasks", StateClass::User);
    m_states.waitingTask = m_tables.stateId("Waiting task", StateClass::User);
    std::vector<tracer::NameId> codelets;
    for (const auto& name : o.codelets) {
        codelets.push_back(m_tables.names.intern(name));
    }
    // Interned in the order tasks first use them, as Trace::indexTasks numbers them.
    m_codeletKeys.resize(codelets.size(), tracer::kNoCodeletKey);
    for (std::size_t k = 0; k < std::min(m_perWorker, codelets.size()); ++k) {
        m_codeletKeys[k] = m_tables.codeletKeys.intern({codelets[k], 0});
    }
    m_marker = m_tables.makeMarker(0, markers::Marker{markers::Kind::BatchBegin, 0, 0, 0, -1, {}});

    const int processes = std::max(ranks, 1);
    for (int r = 0; r < processes; ++r) {
        Rank rank;
        rank.options = rankOptions(o, r);
        assert(!m_mpi || rank.options.barrierNs > kSyntheticReplyDelayNs + kSyntheticMessageNs);
        rank.period = rank.options.period();
        rank.rank = m_mpi ? r : -1;
        rank.firstLane = m_tables.lanes.size();
        rank.firstTask = static_cast<std::uint64_t>(r) * m_batches * m_workers * m_perWorker;
        for (std::size_t w = 0; w < m_workers; ++w) {
            m_tables.lanes.push_back(Lane{.name = "CPU " + std::to_string(w),
                                          .kind = LaneKind::CpuWorker,
                                          .workerId = static_cast<std::int32_t>(w),
                                          .rank = rank.rank,
                                          .levels = {},
                                          .tasks = {}});
        }
        m_tables.lanes.push_back(
            Lane{.name = "main", .kind = LaneKind::MainThread, .rank = rank.rank, .levels = {}, .tasks = {}});
        if (m_mpi) {
            m_tables.lanes.push_back(
                Lane{.name = "MPI", .kind = LaneKind::MpiThread, .rank = rank.rank, .levels = {}, .tasks = {}});
            tracer::RankInfo info;
            info.rank = r;
            info.worldSize = ranks;
            info.source = "synthetic rank " + std::to_string(r);
            m_tables.ranks.push_back(std::move(info));
        }
        rank.batchEnds.reserve(m_batches);
        rank.lastEnds.assign(m_workers, 0);
        for (std::size_t b = 0; b < m_batches; ++b) {
            TimeNs batchEnd = workStart(rank, b);
            for (std::size_t w = 0; w < m_workers; ++w) {
                TimeNs t = workStart(rank, b);
                for (std::size_t k = 0; k < m_perWorker; ++k) {
                    t += rank.options.overheadNs + taskLength(rank, b, w, k);
                }
                rank.lastEnds[w] = t;
                batchEnd = std::max(batchEnd, t);
            }
            // The period holds the longest batch and its barrier: the next batch starts at
            // (b + 1) * period, where a batch after its predecessor's barrier would start.
            assert(batchEnd + rank.options.barrierNs <= static_cast<TimeNs>(b + 1) * rank.period);
            rank.batchEnds.push_back(batchEnd);
        }
        m_tables.end = std::max(m_tables.end, rank.batchEnds.empty() ? 0 : rank.batchEnds.back());
        m_ranks.push_back(std::move(rank));
    }
    if (m_mpi) {
        // Each MPI thread progresses while a message of its rank is in flight.
        m_states.progressing = m_tables.stateId("Progressing", StateClass::Overhead);
        for (auto& rank : m_ranks) {
            mpiSpans(rank, [&rank, this](std::span<const Span> spans) {
                rank.mpiSpans += spans.size();
                m_tables.end = std::max(m_tables.end, spans.empty() ? m_tables.end : TimeNs{spans.back().end});
            });
        }
    }
    if (o.dependencies) {
        m_tables.metadata[std::string(tracer::kDependenciesMetadata)] = "recorded";
    }
    m_tables.metadata["source"] = "synthetic";
}

TimeNs SyntheticJob::taskLength(const Rank& rank, std::size_t batch, std::size_t worker, std::size_t position) const {
    const SyntheticOptions& o = rank.options;
    if (o.jitter <= 0.0) {
        return o.taskNs;
    }
    const std::uint64_t draw = mix(mix(mix(mix(o.seed) ^ batch) ^ worker) ^ position);
    // Uniform in [-1, 1) from the draw's top 53 bits: portable across standard libraries.
    const double u = static_cast<double>(draw >> 11) / 9007199254740992.0 * 2.0 - 1.0;
    return std::max<TimeNs>(1, static_cast<TimeNs>(static_cast<double>(o.taskNs) * (1.0 + o.jitter * u)));
}

TimeNs SyntheticJob::workStart(const Rank& rank, std::size_t batch) const {
    return static_cast<TimeNs>(batch) * rank.period + rank.options.submitNs;
}

void SyntheticJob::workerSpans(const Rank& rank, std::size_t w, const EmitRecords<Span>& emit) const {
    RecordBatcher<Span> out(emit);
    // Workers sleep until the submission ends, run their share, and sleep once out of work.
    TimeNs sleepingSince = 0;
    for (std::size_t b = 0; b < m_batches; ++b) {
        TimeNs t = workStart(rank, b);
        out.push({sleepingSince, t, m_states.sleeping});
        for (std::size_t k = 0; k < m_perWorker; ++k) {
            out.push({t, t + rank.options.overheadNs, m_states.scheduling});
            t += rank.options.overheadNs;
            const TimeNs length = taskLength(rank, b, w, k);
            out.push({t, t + length, m_states.executing, true});
            t += length;
        }
        sleepingSince = t;
    }
    // The process's trace closes when its last batch ends; workers sleep until then.
    if (!rank.batchEnds.empty() && sleepingSince < rank.batchEnds.back()) {
        out.push({sleepingSince, rank.batchEnds.back(), m_states.sleeping});
    }
}

void SyntheticJob::mainSpans(const Rank& rank, const EmitRecords<Span>& emit) const {
    RecordBatcher<Span> out(emit);
    for (std::size_t b = 0; b < m_batches; ++b) {
        const TimeNs batchStart = static_cast<TimeNs>(b) * rank.period;
        out.push({batchStart, workStart(rank, b), m_states.submitting});
        out.push({workStart(rank, b), rank.batchEnds[b], m_states.waitingAll});
        // The arena reset: the barrier at every batch transition.
        if (b + 1 < m_batches) {
            out.push({rank.batchEnds[b], batchStart + rank.period, m_states.waitingTask});
        }
    }
}

void SyntheticJob::mpiSpans(const Rank& rank, const EmitRecords<Span>& emit) const {
    RecordBatcher<Span> out(emit);
    // Messages come by start: one overlapping or touching the span before extends it.
    bool open = false;
    Span last;
    forEachMessage([&](const tracer::Message& m) {
        if (m.fromRank != rank.rank && m.toRank != rank.rank) {
            return;
        }
        if (open && m.start <= last.end) {
            last = Span{last.start, std::max<TimeNs>(last.end, m.end), last.state};
            return;
        }
        if (open) {
            out.push(last);
        }
        last = Span{m.start, m.end, m_states.progressing};
        open = true;
    });
    if (open) {
        out.push(last);
    }
}

void SyntheticJob::tasks(const EmitRecords<tracer::Task>& emit) const {
    RecordBatcher<tracer::Task> out(emit);
    const auto codelets = m_options.codelets.size();
    // By job id: rank, batch, worker, position.
    for (const auto& rank : m_ranks) {
        const auto jobBase = static_cast<std::uint64_t>(std::max(rank.rank, 0)) << 48;
        std::uint64_t job = 0;
        for (std::size_t b = 0; b < m_batches; ++b) {
            const TimeNs batchStart = static_cast<TimeNs>(b) * rank.period;
            for (std::size_t w = 0; w < m_workers; ++w) {
                TimeNs t = workStart(rank, b);
                for (std::size_t k = 0; k < m_perWorker; ++k) {
                    t += rank.options.overheadNs;
                    const TimeNs length = taskLength(rank, b, w, k);
                    tracer::Task task;
                    task.jobId = jobBase + job++;
                    task.codeletKey = m_codeletKeys[k % codelets];
                    task.submit = batchStart + rank.options.submitNs * static_cast<TimeNs>(k + 1)
                                                   / static_cast<TimeNs>(m_perWorker + 1);
                    task.start = t;
                    task.end = t + length;
                    task.lane = tracer::Trace::shortIndex(static_cast<std::int32_t>(rank.firstLane + w));
                    out.push(task);
                    t += length;
                }
            }
        }
    }
}

// Each task waits for the one before it on its worker: the one before in its batch, or for the
// first of a batch the last of its worker's previous batch; a worker's first waits for nothing.
void SyntheticJob::dependencyStarts(const EmitRecords<std::uint32_t>& emit) const {
    RecordBatcher<std::uint32_t> out(emit);
    std::uint32_t entries = 0;
    out.push(entries);
    for (std::size_t r = 0; r < m_ranks.size(); ++r) {
        for (std::size_t b = 0; b < m_batches; ++b) {
            for (std::size_t w = 0; w < m_workers; ++w) {
                for (std::size_t k = 0; k < m_perWorker; ++k) {
                    entries += k > 0 || b > 0 ? 1 : 0;
                    out.push(entries);
                }
            }
        }
    }
}

void SyntheticJob::dependencies(const EmitRecords<tracer::TaskIndex>& emit) const {
    RecordBatcher<tracer::TaskIndex> out(emit);
    const std::size_t perBatch = m_workers * m_perWorker;
    for (const auto& rank : m_ranks) {
        auto task = static_cast<tracer::TaskIndex>(rank.firstTask);
        for (std::size_t b = 0; b < m_batches; ++b) {
            for (std::size_t w = 0; w < m_workers; ++w) {
                for (std::size_t k = 0; k < m_perWorker; ++k, ++task) {
                    if (k > 0) {
                        out.push(task - 1);
                    } else if (b > 0) {
                        out.push(static_cast<tracer::TaskIndex>(task - perBatch + m_perWorker - 1));
                    }
                }
            }
        }
    }
}

void SyntheticJob::markers(const EmitRecords<tracer::MarkerEvent>& emit) const {
    RecordBatcher<tracer::MarkerEvent> out(emit);
    // Each rank's markers are in time order (begin, end of each batch): the next is the earliest
    // head, of the lowest rank on a tie.
    std::vector<std::size_t> next(m_ranks.size(), 0);
    const auto timeOf = [this](const Rank& rank, std::size_t i) {
        return i % 2 == 0 ? static_cast<TimeNs>(i / 2) * rank.period : rank.batchEnds[i / 2];
    };
    for (;;) {
        std::size_t best = m_ranks.size();
        for (std::size_t r = 0; r < m_ranks.size(); ++r) {
            if (next[r] < 2 * m_batches
                && (best == m_ranks.size() || timeOf(m_ranks[r], next[r]) < timeOf(m_ranks[best], next[best]))) {
                best = r;
            }
        }
        if (best == m_ranks.size()) {
            return;
        }
        const Rank& rank = m_ranks[best];
        const std::size_t i = next[best]++;
        const std::size_t b = i / 2;
        tracer::MarkerEvent marker = m_marker;
        marker.time = timeOf(rank, i);
        marker.kind = i % 2 == 0 ? markers::Kind::BatchBegin : markers::Kind::BatchEnd;
        marker.epoch = static_cast<std::int32_t>(b / static_cast<std::size_t>(m_options.batchesPerEpoch));
        marker.batch = static_cast<std::int32_t>(b % static_cast<std::size_t>(m_options.batchesPerEpoch));
        marker.slot = static_cast<std::int8_t>(b % 2);
        marker.lane = tracer::Trace::shortIndex(static_cast<std::int32_t>(rank.firstLane + m_workers));
        marker.rank = tracer::Trace::shortIndex(rank.rank);
        out.push(marker);
    }
}

void SyntheticJob::forEachMessage(const std::function<void(const tracer::Message&)>& take) const {
    if (!m_mpi) {
        return;
    }
    // After each batch every rank r > 0 sends to rank 0 from its batch end, and rank 0 answers
    // later. Each sender's messages are in start order; the next is the earliest head, on a tie
    // the one of the earlier batch, then of the lower rank, as a stable sort by start of the
    // list by batch, rank and direction would give.
    const auto mpiLane = [this](const Rank& rank) {
        return static_cast<std::int32_t>(rank.firstLane + m_workers + 1);
    };
    const auto messageOf = [&](std::size_t r, std::size_t i) {
        const Rank& rank = m_ranks[r];
        const TimeNs end = rank.batchEnds[i / 2];
        tracer::Message m;
        m.fromRank = rank.rank;
        m.toRank = 0;
        m.fromLane = mpiLane(rank);
        m.toLane = mpiLane(m_ranks[0]);
        m.start = end;
        m.size = 4096;
        m.tag = static_cast<std::int64_t>(i / 2);
        if (i % 2 == 1) {
            std::swap(m.fromRank, m.toRank);
            std::swap(m.fromLane, m.toLane);
            m.start = end + kSyntheticReplyDelayNs;
        }
        m.end = m.start + kSyntheticMessageNs;
        return m;
    };
    std::vector<std::size_t> next(m_ranks.size(), 0);
    std::vector<tracer::Message> heads(m_ranks.size());
    for (std::size_t r = 1; r < m_ranks.size() && m_batches > 0; ++r) {
        heads[r] = messageOf(r, 0);
    }
    for (;;) {
        std::size_t best = 0;
        for (std::size_t r = 1; r < m_ranks.size(); ++r) {
            if (next[r] == 2 * m_batches) {
                continue;
            }
            const auto key = [&](std::size_t s) { return std::tuple(heads[s].start, next[s] / 2, s, next[s] % 2); };
            if (best == 0 || key(r) < key(best)) {
                best = r;
            }
        }
        if (best == 0) {
            return;
        }
        take(heads[best]);
        if (++next[best] < 2 * m_batches) {
            heads[best] = messageOf(best, next[best]);
        }
    }
}

void SyntheticJob::messages(const EmitRecords<tracer::Message>& emit) const {
    RecordBatcher<tracer::Message> out(emit);
    forEachMessage([&out](const tracer::Message& m) { out.push(m); });
}

tracer::TraceStream SyntheticJob::stream() const {
    tracer::TraceStream stream;
    stream.tables = &m_tables;
    const std::uint64_t perWorker = m_batches * (2 * m_perWorker + 1);
    for (const auto& rank : m_ranks) {
        for (std::size_t w = 0; w < m_workers; ++w) {
            const bool sleepsAtTheEnd = !rank.batchEnds.empty() && rank.lastEnds[w] < rank.batchEnds.back();
            stream.spans.push_back({StreamedColumn<Span>{
                perWorker + (sleepsAtTheEnd ? 1 : 0),
                [this, &rank, w](const EmitRecords<Span>& emit) { workerSpans(rank, w, emit); }}});
        }
        stream.spans.push_back({StreamedColumn<Span>{m_batches == 0 ? 0 : 3 * m_batches - 1,
                                                     [this, &rank](const EmitRecords<Span>& emit) { mainSpans(rank, emit); }}});
        if (m_mpi) {
            stream.spans.push_back({StreamedColumn<Span>{
                rank.mpiSpans, [this, &rank](const EmitRecords<Span>& emit) { mpiSpans(rank, emit); }}});
        }
    }
    const std::uint64_t taskCount = m_ranks.size() * m_batches * m_workers * m_perWorker;
    stream.tasks = {taskCount, [this](const EmitRecords<tracer::Task>& emit) { tasks(emit); }};
    if (m_options.dependencies && taskCount > 0) {
        stream.dependencyStarts = {taskCount + 1,
                                   [this](const EmitRecords<std::uint32_t>& emit) { dependencyStarts(emit); }};
        stream.dependencies = {taskCount - m_ranks.size() * m_workers,
                               [this](const EmitRecords<tracer::TaskIndex>& emit) { dependencies(emit); }};
    }
    stream.markers = {2 * m_ranks.size() * m_batches,
                      [this](const EmitRecords<tracer::MarkerEvent>& emit) { markers(emit); }};
    stream.messages = {m_mpi ? 2 * (m_ranks.size() - 1) * m_batches : 0,
                       [this](const EmitRecords<tracer::Message>& emit) { messages(emit); }};
    return stream;
}

} // namespace starscope::viewer
