#include "tests/support/synthetic_trace.hpp"

#include <algorithm>
#include <cassert>
#include <random>

namespace starscope::viewer {

using tracer::Lane;
using tracer::LaneKind;
using tracer::Span;
using tracer::StateClass;
using tracer::TaskIndex;
using tracer::TimeNs;

namespace {

// Tasks are in batch, worker, position order: task i waits for the one before it on its worker.
void addChainDependencies(tracer::Trace& trace, std::size_t workers, std::size_t perWorker) {
    const std::size_t count = trace.tasks.size();
    const std::size_t perBatch = workers * perWorker;
    auto& starts = trace.dependencyStarts.edit();
    starts.assign(count + 1, 0);
    std::vector<std::uint64_t> jobs;
    jobs.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t k = i % perWorker;
        if (k > 0) {
            jobs.push_back(trace.tasks[i - 1].jobId);
        } else if (i >= perBatch) {
            jobs.push_back(trace.tasks[i - perBatch + perWorker - 1].jobId);
        }
        starts[i + 1] = static_cast<std::uint32_t>(jobs.size());
    }
    // Job ids are the tasks' indexes here.
    trace.fillDependencies(jobs, [](std::uint64_t job) { return static_cast<TaskIndex>(job); });
    trace.metadata[std::string(tracer::kDependenciesMetadata)] = "recorded";
}

} // namespace

TimeNs SyntheticOptions::period() const {
    const auto maxTask = static_cast<TimeNs>(static_cast<double>(taskNs) * (1.0 + jitter));
    return submitNs + tasksPerWorker * (overheadNs + maxTask) + barrierNs;
}

tracer::Trace makeSyntheticTrace(const SyntheticOptions& o) {
    assert(o.cpuWorkers > 0 && o.tasksPerWorker > 0 && !o.codelets.empty());
    tracer::Trace trace;
    const auto executing = trace.stateId("Executing", StateClass::Executing);
    const auto sleeping = trace.stateId("Sleeping", StateClass::Sleeping);
    const auto scheduling = trace.stateId("Scheduling", StateClass::Overhead);
    const auto submitting = trace.stateId("Submitting", StateClass::User);
    const auto waitingAll = trace.stateId("Waiting all tasks", StateClass::User);
    const auto waitingTask = trace.stateId("Waiting task", StateClass::User);
    std::vector<tracer::NameId> codelets;
    for (const auto& name : o.codelets) {
        codelets.push_back(trace.names.intern(name));
    }

    const auto workers = static_cast<std::size_t>(o.cpuWorkers);
    for (std::size_t w = 0; w < workers; ++w) {
        Lane lane;
        lane.name = "CPU " + std::to_string(w);
        lane.kind = LaneKind::CpuWorker;
        lane.workerId = static_cast<std::int32_t>(w);
        lane.levels.emplace_back();
        trace.lanes.push_back(std::move(lane));
    }
    Lane mainLane;
    mainLane.name = "main";
    mainLane.kind = LaneKind::MainThread;
    mainLane.levels.emplace_back();
    trace.lanes.push_back(std::move(mainLane));
    const auto mainIndex = static_cast<std::int32_t>(workers);

    const int batches = o.epochs * o.batchesPerEpoch;
    const auto spansPerWorker = static_cast<std::size_t>(batches) * (2 * static_cast<std::size_t>(o.tasksPerWorker) + 1);
    for (std::size_t w = 0; w < workers; ++w) {
        trace.lanes[w].levels[0].reserve(spansPerWorker);
    }
    trace.tasks.reserve(static_cast<std::size_t>(batches) * workers * static_cast<std::size_t>(o.tasksPerWorker));

    std::mt19937_64 random(o.seed);
    const auto taskLength = [&]() {
        if (o.jitter <= 0.0) {
            return o.taskNs;
        }
        // Uniform in [-1, 1) from the raw generator output: portable across standard libraries.
        const double u = static_cast<double>(random() >> 11) / 9007199254740992.0 * 2.0 - 1.0;
        return std::max<TimeNs>(1, static_cast<TimeNs>(static_cast<double>(o.taskNs) * (1.0 + o.jitter * u)));
    };

    auto& mainSpans = trace.lanes[workers].levels[0];
    std::vector<TimeNs> sleepingSince(workers, 0);
    std::uint64_t jobId = 0;
    TimeNs batchStart = 0;
    for (int b = 0; b < batches; ++b) {
        const int epoch = b / o.batchesPerEpoch;
        const int batch = b % o.batchesPerEpoch;
        auto begin = trace.makeMarker(batchStart, markers::Marker{markers::Kind::BatchBegin, epoch, batch, b % 2, -1, {}});
        begin.lane = tracer::Trace::shortIndex(mainIndex);
        trace.markers.push_back(begin);

        const TimeNs workStart = batchStart + o.submitNs;
        mainSpans.push_back({batchStart, workStart, submitting});
        TimeNs batchEnd = workStart;
        for (std::size_t w = 0; w < workers; ++w) {
            auto& spans = trace.lanes[w].levels[0];
            spans.push_back({sleepingSince[w], workStart, sleeping});
            TimeNs t = workStart;
            for (int k = 0; k < o.tasksPerWorker; ++k) {
                spans.push_back({t, t + o.overheadNs, scheduling});
                t += o.overheadNs;
                const TimeNs length = taskLength();
                tracer::Task task;
                task.jobId = jobId++;
                trace.setCodelet(task, codelets[static_cast<std::size_t>(k) % codelets.size()], 0);
                task.submit = batchStart + o.submitNs * (k + 1) / (o.tasksPerWorker + 1);
                task.start = t;
                task.end = t + length;
                task.lane = tracer::Trace::shortIndex(static_cast<std::int32_t>(w));
                trace.tasks.push_back(std::move(task));
                spans.push_back({t, t + length, executing, true});
                t += length;
            }
            sleepingSince[w] = t;
            batchEnd = std::max(batchEnd, t);
        }
        mainSpans.push_back({workStart, batchEnd, waitingAll});
        tracer::MarkerEvent end = begin;
        end.time = batchEnd;
        end.kind = markers::Kind::BatchEnd;
        trace.markers.push_back(end);

        batchStart = std::max(batchStart + o.period(), batchEnd + o.barrierNs);
        if (b + 1 < batches) {
            mainSpans.push_back({batchEnd, batchStart, waitingTask});
        }
        trace.end = batchEnd;
    }
    // The trace closes when the last batch ends; workers sleep until then.
    for (std::size_t w = 0; w < workers; ++w) {
        if (sleepingSince[w] < trace.end) {
            trace.lanes[w].levels[0].push_back({sleepingSince[w], trace.end, sleeping});
        }
    }
    if (o.dependencies) {
        addChainDependencies(trace, workers, static_cast<std::size_t>(o.tasksPerWorker));
    }
    trace.indexTasks();
    trace.metadata["source"] = "synthetic";
    return trace;
}

tracer::Trace makeSyntheticRanksTrace(const SyntheticOptions& o, int ranks) {
    assert(ranks >= 1 && ranks <= 4);
    tracer::Trace out;
    std::vector<TimeNs> rankEnds;                      // [rank * batches + b]: rank's batch b end
    std::vector<std::int32_t> mpiLanes;
    for (int r = 0; r < ranks; ++r) {
        SyntheticOptions mine = o;
        mine.taskNs = o.taskNs + o.taskNs * r / 4;
        mine.barrierNs = o.barrierNs - (mine.taskNs - o.taskNs) * o.tasksPerWorker;
        assert(mine.barrierNs > kSyntheticReplyDelayNs + kSyntheticMessageNs);
        mine.seed = o.seed + static_cast<std::uint64_t>(r);
        tracer::Trace t = makeSyntheticTrace(mine);
        if (r == 0) {
            // Every rank's trace interns the same states and codelets in the same order.
            out.states = t.states;
            out.names = t.names;
            out.codeletKeys = t.codeletKeys;
        }
        const auto laneOffset = static_cast<std::int32_t>(out.lanes.size());
        for (auto& lane : t.lanes) {
            lane.rank = r;
            out.lanes.push_back(std::move(lane));
        }
        const auto taskOffset = static_cast<TaskIndex>(out.tasks.size());
        for (auto& task : t.tasks.edit()) {
            task.jobId += static_cast<std::uint64_t>(r) << 48;
            task.lane = tracer::Trace::shortIndex(task.lane + laneOffset);
            out.tasks.push_back(std::move(task));
        }
        if (!t.dependencyStarts.empty()) {
            // A rank's tasks wait for tasks of their rank only: none is outside the job.
            if (out.dependencyStarts.empty()) {
                out.dependencyStarts.push_back(0);
            }
            const auto before = static_cast<std::uint32_t>(out.dependencies.size());
            for (const auto entry : t.dependencies) {
                out.dependencies.push_back(entry + taskOffset);
            }
            for (std::size_t i = 1; i < t.dependencyStarts.size(); ++i) {
                out.dependencyStarts.push_back(before + t.dependencyStarts[i]);
            }
            out.metadata[std::string(tracer::kDependenciesMetadata)] = "recorded";
        }
        for (auto& marker : t.markers) {
            marker.rank = tracer::Trace::shortIndex(r);
            marker.lane = tracer::Trace::shortIndex(marker.lane + laneOffset);
            if (marker.kind == markers::Kind::BatchEnd) {
                rankEnds.push_back(marker.time);
            }
            out.markers.push_back(std::move(marker));
        }
        Lane mpi;
        mpi.name = "MPI";
        mpi.kind = LaneKind::MpiThread;
        mpi.rank = r;
        mpi.levels.emplace_back();
        mpiLanes.push_back(static_cast<std::int32_t>(out.lanes.size()));
        out.lanes.push_back(std::move(mpi));
        tracer::RankInfo info;
        info.rank = r;
        info.worldSize = ranks;
        info.source = "synthetic rank " + std::to_string(r);
        out.ranks.push_back(std::move(info));
        out.end = std::max(out.end, t.end);
    }
    std::stable_sort(out.markers.begin(), out.markers.end(),
                     [](const tracer::MarkerEvent& a, const tracer::MarkerEvent& b) { return a.time < b.time; });
    const std::size_t batches = rankEnds.size() / static_cast<std::size_t>(ranks);
    for (std::size_t b = 0; b < batches; ++b) {
        for (int r = 1; r < ranks; ++r) {
            const TimeNs end = rankEnds[static_cast<std::size_t>(r) * batches + b];
            tracer::Message up;
            up.fromRank = r;
            up.toRank = 0;
            up.fromLane = mpiLanes[static_cast<std::size_t>(r)];
            up.toLane = mpiLanes[0];
            up.start = end;
            up.end = end + kSyntheticMessageNs;
            up.size = 4096;
            up.tag = static_cast<std::int64_t>(b);
            tracer::Message down = up;
            std::swap(down.fromRank, down.toRank);
            std::swap(down.fromLane, down.toLane);
            down.start = end + kSyntheticReplyDelayNs;
            down.end = down.start + kSyntheticMessageNs;
            out.messages.push_back(up);
            out.messages.push_back(down);
        }
    }
    std::stable_sort(out.messages.begin(), out.messages.end(),
                     [](const tracer::Message& a, const tracer::Message& b) { return a.start < b.start; });
    // Each MPI thread progresses while a message of its rank is in flight.
    const auto progressing = out.stateId("Progressing", StateClass::Overhead);
    for (int r = 0; r < ranks; ++r) {
        std::vector<std::pair<TimeNs, TimeNs>> busy;
        for (const auto& m : out.messages) {
            if (m.fromRank == r || m.toRank == r) {
                busy.emplace_back(m.start, m.end);
            }
        }
        std::sort(busy.begin(), busy.end());
        auto& spans = out.lanes[static_cast<std::size_t>(mpiLanes[static_cast<std::size_t>(r)])].levels[0].edit();
        for (const auto& [start, end] : busy) {
            if (!spans.empty() && start <= spans.back().end) {
                spans.back() = tracer::Span{spans.back().start, std::max<TimeNs>(spans.back().end, end), spans.back().state};
            } else {
                spans.push_back({start, end, progressing});
            }
        }
        out.end = std::max(out.end, spans.empty() ? out.end : spans.back().end);
    }
    out.indexTasks();
    out.metadata["source"] = "synthetic";
    return out;
}

} // namespace starscope::viewer
