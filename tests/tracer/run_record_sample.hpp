#pragma once
// run.json contents shared by the tests of the record itself and of what is measured from it:
// a CNN run with every part filled (interrupted by SIGTERM), and a command run.

#include "tracer/run_folder/run_record.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace starscope::tracer::run::testing {

inline RunRecord sampleRecord() {
    RunRecord r;
    r.status = RunStatus::Interrupted;
    r.interruptedBy = "SIGTERM";
    r.startedAt = "2024-01-01T00:00:00Z";
    r.command = {"starscope", "record"};
    r.strategy = {"double", 2, "advanced", ""};
    r.dataset = DatasetRecord{"/data/mnist", 60000, 10000, 28, 28, 640};
    r.batchSize = 64;
    r.epochs = 1;
    r.batchesPerEpoch = 10;
    r.chunk = 32;
    r.learningRate = 0.1;
    r.seed = 42;
    r.workers = 2;
    r.scheduler = "lws";
    r.starpuVersion = "1.3.10";
    r.starpuIdleWorkers = "spin";
    r.fxt = {"/runs/a", 64, {"prof_file_root_0"}, FxtEventSet::starscopeDefault(), std::nullopt};
    r.wallTimeS = 2.5;
    r.totalTimeS = 3.0;
    r.epochStats = {{0, 10, 2.1, 0.3, 2.4}};
    r.test = TestRecord{0, std::nullopt, 0.0, "interrupted before the evaluation"};
    r.tasks = {1000, 900, 880};
    r.papi.availability = {true, false, "no PMU"};
    r.papi.events = {{"PAPI_TOT_INS", false, "no PMU", 0, {}}};
    r.energy.availability = {true, false, "no RAPL"};
    r.arenas = {
        {"batch0", "batch", 1 << 20, 1 << 21, 2, 10, 0, 40, 500, 90, {true, false, "no sde"}, {}}};
    r.peakArenaBytes = std::map<std::string, std::uint64_t>{{"batch0", 1 << 20}};
    r.environment = {{"STARPU_FXT_TRACE", "1", "default"}, {"STARPU_SILENT", "0", "environment"}};
    return r;
}

// A `record -- PROGRAM` run of argv, whose program exited 0.
inline RunRecord commandRecord(std::vector<std::string> argv) {
    RunRecord r;
    r.workload = WorkloadKind::Command;
    r.program = ProgramRecord{std::move(argv), "/opt/bin/prog", "/home/u", 0, std::nullopt, ""};
    r.program->executable =
        "/opt/bin/" + std::filesystem::path(r.program->argv.front()).filename().string();
    r.command = {"starscope", "record", "--"};
    r.starpuVersion = "1.3";
    r.starpuVersionFrom = StarpuVersionSource::TraceLayout;
    r.starscopeStarpu = "1.3.10";
    r.fxt = {"/runs/p", 64, {"prof_file_u_0"}, {}, FlushRecord{2, 31'000'000, 20'000'000}};
    r.environment = {{"STARPU_FXT_TRACE", "1", "default"}, {"STARPU_NCPU", "2", "environment"}};
    r.wallTimeS = 1.5;
    r.totalTimeS = 1.5;
    r.workers = 2;
    r.tasks.executed = 48;
    return r;
}

} // namespace starscope::tracer::run::testing
