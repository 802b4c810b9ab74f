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
        tracer::MarkerEvent begin;
        begin.time = batchStart;
        begin.lane = mainIndex;
        begin.parsed = true;
        begin.marker = {markers::Kind::BatchBegin, epoch, batch, b % 2, -1, {}};
        begin.text = markers::format(begin.marker);
        trace.markers.push_back(begin);

        const TimeNs workStart = batchStart + o.submitNs;
        mainSpans.push_back({batchStart, workStart, submitting, tracer::kNoTask});
        TimeNs batchEnd = workStart;
        for (std::size_t w = 0; w < workers; ++w) {
            auto& spans = trace.lanes[w].levels[0];
            spans.push_back({sleepingSince[w], workStart, sleeping, tracer::kNoTask});
            TimeNs t = workStart;
            for (int k = 0; k < o.tasksPerWorker; ++k) {
                spans.push_back({t, t + o.overheadNs, scheduling, tracer::kNoTask});
                t += o.overheadNs;
                const TimeNs length = taskLength();
                const auto index = static_cast<TaskIndex>(trace.tasks.size());
                tracer::Task task;
                task.jobId = jobId++;
                task.codelet = codelets[static_cast<std::size_t>(k) % codelets.size()];
                task.submit = batchStart + o.submitNs * (k + 1) / (o.tasksPerWorker + 1);
                task.start = t;
                task.end = t + length;
                task.lane = static_cast<std::int32_t>(w);
                trace.tasks.push_back(std::move(task));
                spans.push_back({t, t + length, executing, index});
                t += length;
            }
            sleepingSince[w] = t;
            batchEnd = std::max(batchEnd, t);
        }
        mainSpans.push_back({workStart, batchEnd, waitingAll, tracer::kNoTask});
        tracer::MarkerEvent end = begin;
        end.time = batchEnd;
        end.marker.kind = markers::Kind::BatchEnd;
        end.text = markers::format(end.marker);
        trace.markers.push_back(end);

        batchStart = std::max(batchStart + o.period(), batchEnd + o.barrierNs);
        if (b + 1 < batches) {
            mainSpans.push_back({batchEnd, batchStart, waitingTask, tracer::kNoTask});
        }
        trace.end = batchEnd;
    }
    // The trace closes when the last batch ends; workers sleep until then.
    for (std::size_t w = 0; w < workers; ++w) {
        if (sleepingSince[w] < trace.end) {
            trace.lanes[w].levels[0].push_back({sleepingSince[w], trace.end, sleeping, tracer::kNoTask});
        }
    }
    trace.metadata["source"] = "synthetic";
    return trace;
}

} // namespace starscope::viewer
