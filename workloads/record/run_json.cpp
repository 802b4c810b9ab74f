#include "workloads/record/run_json.hpp"

#include "common/file_writer.hpp"
#include "workloads/sigint_handler.hpp"

#include <starpu.h>

namespace starscope::workloads {

namespace {

using nlohmann::json;

json unavailable(const std::string& reason) {
    return json{{"available", false}, {"reason", reason}};
}

json papiJson(const PapiReport& papi) {
    if (!papi.available) {
        json out = unavailable(papi.reason);
        json events = json::array();
        for (const auto& event : papi.events) {
            events.push_back(
                {{"name", event.name}, {"available", false}, {"reason", event.reason}});
        }
        out["events"] = events;
        return out;
    }
    json out{{"available", true}, {"workers", papi.workers}};
    json events = json::array();
    long long instructions = -1;
    long long cycles = -1;
    for (const auto& event : papi.events) {
        if (!event.available) {
            events.push_back(
                {{"name", event.name}, {"available", false}, {"reason", event.reason}});
            continue;
        }
        events.push_back({{"name", event.name},
                          {"available", true},
                          {"total", event.total},
                          {"per_worker", event.perWorker}});
        if (event.name == "PAPI_TOT_INS") {
            instructions = event.total;
        } else if (event.name == "PAPI_TOT_CYC") {
            cycles = event.total;
        }
    }
    out["events"] = events;
    if (instructions >= 0 && cycles > 0) {
        out["ipc"] = static_cast<double>(instructions) / static_cast<double>(cycles);
    } else {
        out["ipc"] = unavailable("needs both PAPI_TOT_INS and PAPI_TOT_CYC");
    }
    return out;
}

json energyJson(const EnergyReport& energy) {
    if (!energy.available) {
        return unavailable(energy.reason);
    }
    return json{{"available", true}, {"joules", energy.joules}, {"domains", energy.domains}};
}

json arenasJson(const RunRecord& record) {
    json arenas = json::array();
    if (!record.train) {
        return arenas;
    }
    for (const auto& arena : record.train->arenas) {
        json entry{{"name", arena.name},
                   {"role", arena.role},
                   {"peak_bytes", arena.stats.peakBytes},
                   {"bytes_reserved", arena.stats.bytesReserved},
                   {"blocks", arena.stats.blocks},
                   {"resets", arena.stats.resets},
                   {"deferred_resets", arena.stats.deferredResets},
                   {"handles_released", arena.stats.handlesReleased},
                   {"wait_ns", arena.stats.totalWaitNs},
                   {"max_wait_ns", arena.stats.maxWaitNs}};
        if (record.sde.available) {
            const auto found = record.sde.values.find(arena.name);
            entry["sde"] = found == record.sde.values.end()
                               ? unavailable("not read through PAPI")
                               : json{{"available", true}, {"values", found->second}};
        } else {
            entry["sde"] = unavailable(record.sde.reason);
        }
        arenas.push_back(entry);
    }
    return arenas;
}

} // namespace

json runJson(const RecordPlan& plan, const RunRecord& record) {
    const auto& o = plan.options;
    json out;
    out["format"] = "starscope-run";
    out["version"] = kRunJsonVersion;
    out["status"] = record.status;
    if (!record.error.empty()) {
        out["error"] = record.error;
    }
    if (record.status == "interrupted" && record.interruptSignal != 0) {
        out["interrupted_by"] = stopSignalName(record.interruptSignal);
    }
    out["started_at"] = record.startedAt;
    out["command"] = record.command;
    out["strategy"] = {
        {"arenas", plan.arenasName}, {"ring_slots", plan.ringSlots}, {"loader", o.loader}};
    const auto& train = plan.dataset->train();
    const auto& test = plan.dataset->test();
    out["dataset"] = {
        {"dir", plan.datasetDir.string()},
        {"train_images", train.count()},
        {"test_images", test.count()},
        {"rows", train.rows()},
        {"cols", train.cols()},
        {"train_images_used", plan.train.trainLimit == 0
                                  ? std::size_t{train.count()}
                                  : std::min<std::size_t>(plan.train.trainLimit, train.count())}};
    out["batch_size"] = o.batchSize;
    out["epochs"] = o.epochs;
    out["batches_per_epoch"] = plan.batchesPerEpoch;
    out["chunk"] = o.chunk;
    out["learning_rate"] = o.learningRate;
    out["seed"] = o.seed;
    out["workers"] = plan.workers;
    out["scheduler"] = plan.sched;
    int major = 0, minor = 0, release = 0;
    starpu_get_version(&major, &minor, &release);
    out["starpu"] = {{"version", std::to_string(major) + "." + std::to_string(minor) + "."
                                     + std::to_string(release)},
                     {"fxt",
                      {{"prefix", plan.outDir.string()},
                       {"trace", 1},
                       {"buffer_size_mb", plan.traceBufferMb},
                       {"trace_files", record.traceFiles}}}};
    out["wall_time_s"] = record.wallSeconds;
    out["total_time_s"] = record.totalSeconds;

    json epochs = json::array();
    json tasks{{"estimated", plan.estimatedTasks}};
    if (record.train) {
        const auto& t = *record.train;
        for (const auto& e : t.epochs) {
            epochs.push_back({{"epoch", e.epoch},
                              {"batches", e.batches},
                              {"loss", e.loss},
                              {"accuracy", e.accuracy},
                              {"seconds", e.seconds}});
        }
        out["train_time_s"] = t.trainSeconds;
        out["eval_time_s"] = t.evalSeconds;
        out["batches_run"] = t.batchesLoaded;
        tasks["submitted"] = t.tasksSubmitted;
        out["test"] = t.testAccuracy
                          ? json{{"images", t.testImages},
                                 {"accuracy", *t.testAccuracy},
                                 {"loss", t.testLoss.value_or(0.0)}}
                          : json{{"images", 0},
                                 {"accuracy", nullptr},
                                 {"reason", t.interrupted ? "interrupted before the evaluation"
                                                          : "not evaluated"}};
    }
    if (record.tasksExecuted) {
        tasks["executed"] = *record.tasksExecuted;
    }
    out["epoch_stats"] = epochs;
    out["tasks"] = tasks;
    out["counters"] = {{"papi", papiJson(record.papi)}, {"energy", energyJson(record.energy)}};
    out["arenas"] = arenasJson(record);
    json peaks = json::object();
    if (record.train) {
        for (const auto& arena : record.train->arenas) {
            peaks[arena.name] = arena.stats.peakBytes;
        }
    }
    out["peak_arena_bytes"] = peaks;
    return out;
}

WorkloadResult<Done> writeTextFile(const std::filesystem::path& path, const std::string& text) {
    if (auto written = files::writeFile(path, text); !written) {
        return workloadError(ErrorCode::Io, written.error().message, path.string());
    }
    return Done{};
}

} // namespace starscope::workloads
