#include "tracer/run/run_figures.hpp"

#include "tracer/analysis/machine.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/model/starpu_tasks.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/report/duration_format.hpp"
#include "tracer/run_folder/run_folder.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace starscope::tracer::run {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kTrace = "from the trace";

const std::array<Metric, 33> kMetrics{{
    {"makespan_ns", "makespan", Unit::Nanoseconds, true, "the program's first task start to its last task end (StarPU's own tasks left out)", "never", &RunFigures::makespanNs},
    {"idleness", "idleness", Unit::Ratio, true, "1 - executing time / (makespan x workers)", "never", &RunFigures::idleness},
    {"barrier_count", "barriers", Unit::Count, true, "intervals without an executing worker, over the threshold", "never", &RunFigures::barrierCount},
    {"barrier_total_ns", "barrier total", Unit::Nanoseconds, true, "sum of the barriers", "never", &RunFigures::barrierTotalNs},
    {"barrier_max_ns", "barrier max", Unit::Nanoseconds, true, "longest barrier", "never", &RunFigures::barrierMaxNs},
    {"mean_transition_stall_ns", "stall/transition", Unit::Nanoseconds, true, "barrier time per batch transition, mean", "no batch markers in the trace", &RunFigures::meanTransitionStallNs},
    {"critical_path_ns", "critical path", Unit::Nanoseconds, true, "longest chain of task durations, and of messages between ranks", "no task dependencies in the trace", &RunFigures::criticalPathNs},
    {"parallel_efficiency", "parallel eff.", Unit::Plain, false, "StarPU's parallel efficiency (starpu_trace_state_stats.py)", "never", &RunFigures::parallelEfficiency},
    {"area_bound_ratio", "area bound/makespan", Unit::Plain, false, "the program's total task time / workers / makespan", "no executed task", &RunFigures::areaBoundRatio},
    {"tasks", "tasks", Unit::Count, true, "executed tasks in the trace", "never", &RunFigures::tasks},
    {"ranks", "ranks", Unit::Count, false, "StarPU-MPI ranks: run.json's, else the trace's prof files", "never", &RunFigures::ranks},
    {"speedup", "speedup", Unit::Plain, false, "train time of the strategy's 1-rank runs (median) / this run's train time", "no 1-rank run of the strategy compared, or no train time in run.json", &RunFigures::speedup},
    {"scaling_efficiency", "scaling eff.", Unit::Plain, false, "speedup / ranks", "as speedup", &RunFigures::scalingEfficiency},
    {"communication_share", "comm. share", Unit::Ratio, true, "time with a StarPU-MPI message in flight (union of the trace's messages) / makespan", "one rank: no message between ranks", &RunFigures::communicationShare},
    {"barrier_share", "barrier share", Unit::Ratio, true, "job-wide barrier total (no worker of any rank executing) / makespan", "no executed task", &RunFigures::barrierShare},
    {"cuda_idleness", "CUDA idleness", Unit::Ratio, true, "1 - the CUDA workers' executing time / their time on the makespan", "no CUDA worker in the trace", &RunFigures::cudaIdleness},
    {"waiting_for_data_ns", "waiting for data", Unit::Nanoseconds, true, "workers' time in FetchingInput: their task's data not on their memory node yet", "one kind of worker and no transfer", &RunFigures::waitingForDataNs},
    {"transfer_bytes", "bytes transferred", Unit::Bytes, true, "data copied between memory nodes, all links", "one kind of worker and no transfer", &RunFigures::transferBytes},
    {"area_bound_by_kind_ratio", "kind bound/makespan", Unit::Plain, false, "area bound by kind of worker (linear program, as starpu_bound) / makespan", "one kind of worker and no transfer (area bound/makespan says it)", &RunFigures::areaBoundByKindRatio},
    {"trace_flush_count", "trace flushes", Unit::Count, true, "writes of FxT's full buffer to the trace file, each stopping the thread that made it", "never", &RunFigures::traceFlushCount},
    {"trace_flush_total_ns", "trace flush time", Unit::Nanoseconds, true, "time threads spent writing FxT's full buffer", "never", &RunFigures::traceFlushTotalNs},
    {"makespan_without_tracing_ns", "makespan w/o flushes", Unit::Nanoseconds, true, "makespan less the time during which a thread wrote FxT's buffer", "never", &RunFigures::makespanWithoutTracingNs},
    {"idleness_without_tracing", "idleness w/o flushes", Unit::Ratio, true, "idleness with the trace flushes cut out of the timeline", "never", &RunFigures::idlenessWithoutTracing},
    {"barrier_total_without_tracing_ns", "barriers w/o flushes", Unit::Nanoseconds, true, "barrier time outside the trace flushes, of the barriers still over the threshold", "never", &RunFigures::barrierTotalWithoutTracingNs},
    {"barrier_share_without_tracing", "barr. share w/o flush", Unit::Ratio, true, "barrier total w/o flushes / makespan w/o flushes", "no executed task", &RunFigures::barrierShareWithoutTracing},
    {"wall_time_s", "wall time", Unit::Seconds, true, "run.json: training + evaluation", "no readable run.json", &RunFigures::wallTimeS},
    {"total_time_s", "total time", Unit::Seconds, true, "run.json: with StarPU start-up and shutdown", "no readable run.json", &RunFigures::totalTimeS},
    {"peak_memory_bytes", "peak memory", Unit::Bytes, true, "run.json: the arenas' peaks summed (all can be live at once)", "run.json records no arena", &RunFigures::peakMemoryBytes},
    {"ipc", "IPC", Unit::Plain, false, "run.json: the recorded IPC, else PAPI_TOT_INS / PAPI_TOT_CYC", "no hardware counters (PAPI's reason)", &RunFigures::ipc},
    {"llc_load_miss_ratio", "LLC load miss", Unit::Ratio, true, "run.json: perf::LLC-load-misses / perf::LLC-loads", "no hardware counters (PAPI's reason)", &RunFigures::llcLoadMissRatio},
    {"llc_store_miss_ratio", "LLC store miss", Unit::Ratio, true, "run.json: perf::LLC-store-misses / perf::LLC-stores", "no hardware counters (PAPI's reason)", &RunFigures::llcStoreMissRatio},
    {"energy_j", "energy", Unit::Joules, true, "run.json: RAPL package energy", "no RAPL (the reason recorded)", &RunFigures::energyJ},
    {"power_w", "power", Unit::Watts, true, "energy / wall time", "no energy or no wall time", &RunFigures::powerW},
}};

RunFigure known(double v) { return RunFigure::known(v); }
RunFigure missing(std::string why) { return RunFigure::unavailable(std::move(why)); }

RunFigure fromTime(const Figure<TimeNs>& f) {
    return f.value ? known(static_cast<double>(*f.value)) : missing(f.reason);
}

// The part of the makespan window during which at least one message between ranks is in
// flight: overlapping messages count once, so the share stays within 0..1.
RunFigure communicationShare(const Trace& trace, TimeNs makespan) {
    if (trace.ranks.size() < 2) {
        return missing("one rank: no message between ranks");
    }
    if (makespan <= 0) {
        return missing("no executed task");
    }
    const TimeNs first = executionWindow(trace).first;
    const TimeNs last = first + makespan;
    TimeNs busy = 0;
    TimeNs reached = first; // messages are sorted by start: the covered time ends here so far
    for (const auto& m : trace.messages) {
        const TimeNs start = std::max(m.start, reached);
        const TimeNs end = std::min(m.end, last);
        if (end > start) {
            busy += end - start;
            reached = end;
        }
    }
    return known(static_cast<double>(busy) / static_cast<double>(makespan));
}

void machineRunFigures(const Trace& trace, const RangeStats& whole, TimeNs makespan, RunFigures& r) {
    const auto m = machineFigures(trace, whole);
    const auto cuda = std::find_if(m.kinds.begin(), m.kinds.end(),
                                   [](const WorkerKindFigures& k) { return k.kind == LaneKind::CudaWorker; });
    r.cudaIdleness = cuda == m.kinds.end()  ? missing("no CUDA worker in the trace")
                     : cuda->idleness     ? known(*cuda->idleness)
                                          : missing("no CUDA worker's time was recorded while tasks ran");
    if (!m.heterogeneous()) {
        const std::string why = "one kind of worker and no transfer";
        r.waitingForDataNs = missing(why);
        r.transferBytes = missing(why);
        r.areaBoundByKindRatio = missing(why + " (area bound/makespan says it)");
        return;
    }
    r.waitingForDataNs = known(static_cast<double>(m.waitingForData));
    double bytes = 0.0;
    for (const auto& link : m.links) {
        bytes += static_cast<double>(link.bytes);
    }
    r.transferBytes = known(bytes);
    if (!m.areaBound.value) {
        r.areaBoundByKindRatio = missing(m.areaBound.reason);
    } else {
        r.areaBoundByKindRatio = makespan > 0 ? known(static_cast<double>(m.areaBound.value->bound) / static_cast<double>(makespan))
                                              : missing("no executed task");
    }
}

void traceFigures(const Trace& trace, const std::vector<BatchTransition>& transitions, TimeNs thresholdNs,
                  RunFigures& r) {
    BarrierOptions options;
    options.threshold = thresholdNs;
    // The whole trace's times, read once for the summary and the machine's figures.
    const auto whole = computeStats(trace);
    const auto s = summarize(trace, options, whole, transitions);
    r.makespanNs = known(static_cast<double>(s.makespan));
    r.idleness = known(s.idleness);
    r.barrierCount = known(static_cast<double>(s.barrierCount));
    r.barrierTotalNs = known(static_cast<double>(s.barrierTotal));
    r.barrierMaxNs = known(static_cast<double>(s.barrierMax));
    r.meanTransitionStallNs = fromTime(s.meanTransitionStall);
    r.criticalPathNs = fromTime(s.criticalPath);
    r.parallelEfficiency = known(s.efficiencies.parallel);
    r.areaBoundRatio = s.makespan > 0 ? known(static_cast<double>(s.areaBound) / static_cast<double>(s.makespan))
                                      : missing("no executed task");
    r.tasks = known(static_cast<double>(s.tasks));
    r.barrierShare = s.makespan > 0 ? known(static_cast<double>(s.barrierTotal) / static_cast<double>(s.makespan))
                                    : missing("no executed task");
    const auto& o = s.withoutTracing;
    r.traceFlushCount = known(static_cast<double>(s.traceFlushes));
    r.traceFlushTotalNs = known(static_cast<double>(s.traceFlushTotal));
    r.makespanWithoutTracingNs = known(static_cast<double>(o.makespan));
    r.idlenessWithoutTracing = known(o.idleness);
    r.barrierTotalWithoutTracingNs = known(static_cast<double>(o.barrierTotal));
    r.barrierShareWithoutTracing = o.makespan > 0 ? known(o.barrierShare) : missing("no executed task");
    r.communicationShare = communicationShare(trace, s.makespan);
    machineRunFigures(trace, whole, s.makespan, r);
    r.ranks = known(static_cast<double>(std::max<std::size_t>(trace.ranks.size(), 1)));
    r.speedup = missing(std::string(kNoScalingReference));
    r.scalingEfficiency = missing(std::string(kNoScalingReference));
}

RunFigure ratio(const PapiRecord& papi, std::string_view misses, std::string_view accesses, const std::string& reason) {
    const auto m = papi.eventTotal(misses);
    const auto a = papi.eventTotal(accesses);
    if (m && a && *a > 0) {
        return known(*m / *a);
    }
    return missing(m || a ? std::string(misses) + " or " + std::string(accesses) + " not recorded" : reason);
}

void recordFigures(const fs::path& folder, RunFigures& r) {
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) {
        r.recordProblem = "not a run folder (no run.json)";
    } else if (!fs::exists(folder / kRunJsonName, ec) && !fs::is_symlink(folder / kRunJsonName, ec)) {
        r.recordProblem = "no run.json in " + folder.string();
    } else if (auto record = readRunRecord(folder / kRunJsonName)) {
        r.record = std::move(*record);
    } else {
        r.recordProblem = record.error().describe();
    }
    r.strategy = r.record ? r.record->label() : std::string();
    if (r.strategy.empty()) {
        r.strategy = folder.filename().string();
    }
    if (!r.record) {
        for (RunFigure RunFigures::*f : {&RunFigures::wallTimeS, &RunFigures::totalTimeS, &RunFigures::peakMemoryBytes,
                              &RunFigures::ipc, &RunFigures::llcLoadMissRatio, &RunFigures::llcStoreMissRatio,
                              &RunFigures::energyJ, &RunFigures::powerW}) {
            r.*f = missing(r.recordProblem);
        }
        return;
    }
    const RunRecord& run = *r.record;
    r.ranks = known(static_cast<double>(run.ranks));
    const auto orMissing = [](std::optional<double> v, std::string why) { return v ? known(*v) : missing(std::move(why)); };
    r.wallTimeS = orMissing(run.wallTimeS, "run.json has no wall_time_s");
    r.totalTimeS = orMissing(run.totalTimeS, "run.json has no total_time_s");
    if (run.peakArenaBytes) {
        double sum = 0.0;
        for (const auto& [name, bytes] : *run.peakArenaBytes) {
            sum += static_cast<double>(bytes);
        }
        r.peakMemoryBytes = known(sum);
    } else {
        r.peakMemoryBytes = missing("run.json has no peak_arena_bytes");
    }
    const auto& papi = run.papi;
    const std::string papiReason = !papi.availability.recorded ? "run.json has no PAPI counters"
                                   : papi.availability.reason.empty() ? "PAPI counter not recorded"
                                                                      : papi.availability.reason;
    if (papi.ipc) {
        r.ipc = known(*papi.ipc);
    } else if (const auto ins = papi.eventTotal("PAPI_TOT_INS"), cyc = papi.eventTotal("PAPI_TOT_CYC"); ins && cyc && *cyc > 0) {
        r.ipc = known(*ins / *cyc);
    } else {
        r.ipc = missing(papi.ipcReason.empty() ? papiReason : papi.ipcReason);
    }
    r.llcLoadMissRatio = ratio(papi, "perf::LLC-load-misses", "perf::LLC-loads", papiReason);
    r.llcStoreMissRatio = ratio(papi, "perf::LLC-store-misses", "perf::LLC-stores", papiReason);
    const auto& energy = run.energy;
    const std::string energyReason = !energy.availability.recorded ? "run.json has no energy counter"
                                     : energy.availability.reason.empty() ? "energy not recorded"
                                                                          : energy.availability.reason;
    r.energyJ = energy.joules ? known(*energy.joules) : missing(energyReason);
    if (!energy.joules) {
        r.powerW = missing(energyReason);
    } else if (!run.wallTimeS || *run.wallTimeS <= 0) {
        r.powerW = missing("run.json has no wall time");
    } else {
        r.powerW = known(*energy.joules / *run.wallTimeS);
    }
}

} // namespace

std::span<const Metric> metrics() { return kMetrics; }

const Metric* findMetric(std::string_view key) {
    for (const auto& m : kMetrics) {
        if (m.key == key) {
            return &m;
        }
    }
    return nullptr;
}

RunFigures measureRun(const Trace& trace, const fs::path& runFolder, TimeNs thresholdNs) {
    return measureRun(trace, findTransitions(trace), runFolder, thresholdNs);
}

RunFigures measureRun(const Trace& trace, const std::vector<BatchTransition>& transitions, const fs::path& runFolder,
                      TimeNs thresholdNs) {
    RunFigures r;
    r.source = runFolder.string();
    traceFigures(trace, transitions, thresholdNs, r);
    recordFigures(runFolder, r);
    if (r.record) {
        r.missingRanks = missingRanks(trace, RunFolder(runFolder).profFiles(), r.record->ranks).value_or("");
    }
    return r;
}

TraceResult<RunFigures> measureRun(const fs::path& runFolder, TimeNs thresholdNs) {
    auto trace = readTrace(runFolder);
    if (!trace) {
        return fail(trace.error());
    }
    return measureRun(*trace, runFolder, thresholdNs);
}

std::string formatFigure(double v, Unit unit) {
    char buffer[48];
    switch (unit) {
    case Unit::Nanoseconds: return formatDuration(static_cast<TimeNs>(std::llround(v)));
    case Unit::Seconds: std::snprintf(buffer, sizeof buffer, "%.3f s", v); break;
    case Unit::Ratio: std::snprintf(buffer, sizeof buffer, "%.1f%%", v * 100.0); break;
    case Unit::Count: std::snprintf(buffer, sizeof buffer, "%.0f", v); break;
    case Unit::Bytes: std::snprintf(buffer, sizeof buffer, "%.1f MiB", v / (1024.0 * 1024.0)); break;
    case Unit::Joules: std::snprintf(buffer, sizeof buffer, "%.2f J", v); break;
    case Unit::Watts: std::snprintf(buffer, sizeof buffer, "%.2f W", v); break;
    case Unit::Plain: std::snprintf(buffer, sizeof buffer, "%.3f", v); break;
    }
    return buffer;
}

} // namespace starscope::tracer::run
