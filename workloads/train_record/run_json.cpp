#include "workloads/train_record/run_json.hpp"

#include "common/file_writer.hpp"
#include "tracer/run_folder/run_folder.hpp"
#include "workloads/record/free_space.hpp"
#include "workloads/sigint_handler.hpp"

#include <algorithm>
#include <ctime>
#include <starpu.h>

namespace starscope::workloads {

namespace run = tracer::run;

namespace {

// What PAPI counted; where it could not, every event says why (never zeros).
run::PapiRecord papiRecord(const PapiReport& papi) {
    run::PapiRecord out;
    out.availability = {true, papi.available, papi.available ? std::string() : papi.reason};
    if (papi.available) {
        out.workers = papi.workers;
    }
    std::optional<long long> instructions;
    std::optional<long long> cycles;
    for (const auto& event : papi.events) {
        if (!papi.available || !event.available) {
            out.events.push_back({event.name, false, event.reason, 0, {}});
            continue;
        }
        out.events.push_back({event.name, true, "", event.total, event.perWorker});
        if (event.name == "PAPI_TOT_INS") {
            instructions = event.total;
        } else if (event.name == "PAPI_TOT_CYC") {
            cycles = event.total;
        }
    }
    if (papi.available) {
        if (instructions && cycles && *cycles > 0) {
            out.ipc = static_cast<double>(*instructions) / static_cast<double>(*cycles);
        } else {
            out.ipcReason = "needs both PAPI_TOT_INS and PAPI_TOT_CYC";
        }
    }
    return out;
}

run::EnergyRecord energyRecord(const EnergyReport& energy) {
    run::EnergyRecord out;
    out.availability = {true, energy.available, energy.available ? std::string() : energy.reason};
    if (energy.available) {
        out.joules = energy.joules;
        out.domains = energy.domains;
    }
    return out;
}

// The arenas' own statistics, with their counters as PAPI's sde component read them back.
void addArenas(const TrainReport& train, const SdeReport& sde, run::RunRecord& out) {
    std::map<std::string, std::uint64_t> peaks;
    for (const auto& arena : train.arenas) {
        const auto& s = arena.stats;
        run::ArenaRecord entry{
            arena.name,       arena.role,        s.peakBytes,   s.bytesReserved, s.blocks, s.resets,
            s.deferredResets, s.handlesReleased, s.totalWaitNs, s.maxWaitNs,     {},       {}};
        const auto found = sde.values.find(arena.name);
        if (!sde.available) {
            entry.sde = {true, false, sde.reason};
        } else if (found == sde.values.end()) {
            entry.sde = {true, false, "not read through PAPI"};
        } else {
            entry.sde = {true, true, ""};
            entry.sdeValues = found->second;
        }
        peaks[arena.name] = s.peakBytes;
        out.arenas.push_back(std::move(entry));
    }
    out.peakArenaBytes = std::move(peaks);
}

void addTraining(const TrainReport& t, run::RunRecord& out) {
    for (const auto& e : t.epochs) {
        out.epochStats.push_back({e.epoch, e.batches, e.loss, e.accuracy, e.seconds});
    }
    out.trainTimeS = t.trainSeconds;
    out.evalTimeS = t.evalSeconds;
    out.batchesRun = t.batchesLoaded;
    out.tasks.submitted = t.tasksSubmitted;
    out.test = t.testAccuracy
                   ? run::TestRecord{t.testImages, *t.testAccuracy, t.testLoss.value_or(0.0), ""}
                   : run::TestRecord{0, std::nullopt, 0.0,
                                     t.interrupted ? "interrupted before the evaluation"
                                                   : "not evaluated"};
}

} // namespace

run::RunRecord runRecord(const RecordPlan& plan, const RecordedRun& recorded) {
    const auto& o = plan.options;
    run::RunRecord out;
    out.status = recorded.status;
    out.error = recorded.error;
    if (recorded.status == run::RunStatus::Interrupted && recorded.interruptSignal != 0) {
        out.interruptedBy = stopSignalName(recorded.interruptSignal);
    }
    out.startedAt = recorded.startedAt;
    out.command = recorded.command;
    out.strategy = {plan.arenasName, plan.ringSlots, o.loader, ""};
    const auto& train = plan.dataset->train();
    const auto& test = plan.dataset->test();
    out.dataset = run::DatasetRecord{
        plan.datasetDir.string(),
        train.count(),
        test.count(),
        train.rows(),
        train.cols(),
        plan.train.trainLimit == 0 ? std::uint64_t{train.count()}
                                   : std::min<std::uint64_t>(plan.train.trainLimit, train.count())};
    out.batchSize = o.batchSize;
    out.epochs = o.epochs;
    out.batchesPerEpoch = plan.batchesPerEpoch;
    out.chunk = o.chunk;
    out.learningRate = o.learningRate;
    out.seed = o.seed;
    out.workers = plan.workers;
    out.scheduler = plan.sched;
    out.ranks = std::max<std::uint64_t>(recorded.ranks.size(), 1);
    out.starpuVersion = linkedStarpuVersion();
    out.starpuIdleWorkers = plan.idleWorkersSpin ? "spin" : "block";
    out.fxt = {plan.outDir.string(),
               plan.traceBufferMb,
               recorded.traceFiles,
               {},
               measureFlushes(plan.outDir, recorded.traceFiles)};
    if (plan.trace.value) {
        out.fxt.events = plan.events.set.value;
    }
    out.traced = plan.trace.value;
    for (const auto& v : plan.environment) {
        out.environment.push_back({v.name, v.value, settingSourceName(v.source)});
    }
    out.wallTimeS = recorded.wallSeconds;
    out.totalTimeS = recorded.totalSeconds;
    out.tasks.estimated = plan.estimatedTasks;
    out.tasks.executed = recorded.tasksExecuted;
    if (recorded.train) {
        addTraining(*recorded.train, out);
        addArenas(*recorded.train, recorded.sde, out);
    }
    out.papi = papiRecord(recorded.papi);
    out.energy = energyRecord(recorded.energy);
    return out;
}

WorkloadResult<Done> writeRunJson(const std::filesystem::path& path, const RecordPlan& plan,
                                  const RecordedRun& recorded) {
    if (auto written = run::writeRunRecord(path, runRecord(plan, recorded)); !written) {
        return workloadError(ErrorCode::Io, written.error().message, path.string());
    }
    return Done{};
}

WorkloadResult<Done> recordLostJob(const RecordPlan& plan, int ranks, const std::string& what,
                                   const std::string& startedAt, double seconds) {
    RecordedRun record;
    record.status = tracer::run::RunStatus::Failed;
    record.error = what;
    record.command = {"starscope", "record"};
    record.startedAt = startedAt;
    record.totalSeconds = seconds;
    for (const auto& file : tracer::run::findProfFiles(plan.outDir)) {
        record.traceFiles.push_back(file.filename().string());
    }
    for (int rank = 0; rank < ranks; ++rank) {
        RankFigures figures;
        figures.rank = rank;
        record.ranks.push_back(figures);
    }
    return writeRunJson(tracer::run::RunFolder(plan.outDir).runJson(), plan, record);
}

} // namespace starscope::workloads
