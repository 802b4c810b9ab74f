// The run model (tracer/run/): run.json and sweep.json read and written by one type each, the
// metric table and measureRun, pooling, and which runs may be compared.

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/run/run_comparison.hpp"
#include "tracer/run/run_folder.hpp"
#include "tracer/run/sweep_record.hpp"

#include <fstream>
#include <gtest/gtest.h>
#include <set>

namespace starscope::tracer::run {
namespace {

namespace fs = std::filesystem;
using starscope::testing::TempDir;
using starscope::tracer::testing::smallProfFile;

RunRecord sampleRecord() {
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

TEST(RunRecord, WritesAndReadsBackTheSameRecord) {
    const RunRecord r = sampleRecord();
    const auto text = runRecordText(r);
    EXPECT_NE(text.find("\"status\": \"interrupted\""), std::string::npos) << text;
    EXPECT_NE(text.find("\"ranks\": 1"), std::string::npos) << text;
    EXPECT_NE(text.find("\"idle_workers\": \"spin\""), std::string::npos) << text;
    auto back = parseRunRecord(text, "run.json");
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(*back, r);
}

RunRecord commandRecord(std::vector<std::string> argv) {
    RunRecord r;
    r.workload = WorkloadKind::Command;
    r.program = ProgramRecord{std::move(argv), "/opt/bin/prog", "/home/u", 0, std::nullopt, ""};
    r.program->executable = "/opt/bin/" + fs::path(r.program->argv.front()).filename().string();
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

// A command run (`record -- PROGRAM`): its program, folder and end read back, and none of the
// CNN's sections are written for it.
TEST(RunRecord, ACommandRunWritesAndReadsBackItsProgram) {
    RunRecord exited = commandRecord({"prog", "-n", "3"});
    exited.status = RunStatus::Failed;
    exited.error = "prog exited with status 3";
    exited.program->exitCode = 3;
    const auto text = runRecordText(exited);
    EXPECT_NE(text.find("\"kind\": \"command\""), std::string::npos) << text;
    EXPECT_NE(text.find("\"code\": 3"), std::string::npos) << text;
    EXPECT_NE(text.find("\"version_from\": \"trace layout\""), std::string::npos) << text;
    EXPECT_NE(text.find("\"total_ns\": 31000000"), std::string::npos)
        << text; // the tracing's flushes
    for (const char* cnnOnly : {"\"strategy\"", "\"epoch_stats\"", "\"arenas\"", "\"counters\""}) {
        EXPECT_EQ(text.find(cnnOnly), std::string::npos) << cnnOnly << " in " << text;
    }
    auto back = parseRunRecord(text, "run.json");
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(*back, exited);

    RunRecord killed = commandRecord({"prog"});
    killed.status = RunStatus::Failed;
    killed.program->exitCode.reset();
    killed.program->signal = 9;
    killed.program->signalName = "SIGKILL";
    auto killedBack = parseRunRecord(runRecordText(killed), "run.json");
    ASSERT_TRUE(killedBack) << killedBack.error().describe();
    EXPECT_EQ(*killedBack, killed);

    // A CNN run says so; a file from before the field is a CNN run.
    EXPECT_NE(runRecordText(sampleRecord()).find("\"kind\": \"cnn\""), std::string::npos);
    auto v2 = parseRunRecord(
        R"({"format": "starscope-run", "version": 2, "strategy": {"arenas": "single", "loader": "naive"}})",
        "a");
    ASSERT_TRUE(v2) << v2.error().describe();
    EXPECT_EQ(v2->workload, WorkloadKind::Cnn);
    EXPECT_EQ(v2->starpuVersionFrom, StarpuVersionSource::Linked);
    EXPECT_EQ(v2->label(), "single+naive");

    auto noArgv = parseRunRecord(
        R"({"format": "starscope-run", "version": 3, "workload": {"kind": "command"}})", "b");
    ASSERT_FALSE(noArgv);
    EXPECT_NE(noArgv.error().message.find("workload.argv"), std::string::npos)
        << noArgv.error().message;
    auto badKind = parseRunRecord(
        R"({"format": "starscope-run", "version": 3, "workload": {"kind": "movie"}})", "c");
    ASSERT_FALSE(badKind);
    EXPECT_NE(badKind.error().message.find("workload.kind"), std::string::npos)
        << badKind.error().message;
}

// compare names a command's runs by the program, its arguments (a digest when long) and the
// StarPU variables the user set; record's own trace settings do not tell runs apart.
TEST(RunRecord, ACommandRunIsLabelledByProgramArgumentsAndTheUsersStarpuVariables) {
    EXPECT_EQ(commandRecord({"/opt/bin/prog", "-n", "3"}).label(), "prog -n 3 STARPU_NCPU=2");
    RunRecord noVariables = commandRecord({"prog"});
    noVariables.environment = {{"STARPU_FXT_PREFIX", "/runs/p", "environment"}};
    EXPECT_EQ(noVariables.label(), "prog");
    const ProgramRecord longer{
        {"prog", "--a-rather-long-option", "with-a-long-value"}, "", "", 0, {}, ""};
    const ProgramRecord other{
        {"prog", "--a-rather-long-option", "with-another-value"}, "", "", 0, {}, ""};
    EXPECT_EQ(longer.label().substr(0, 6), "prog #");
    EXPECT_EQ(longer.label().size(), 12U) << longer.label();
    EXPECT_NE(longer.label(), other.label());
    // The arguments' boundaries count: "a b" is not "a" "b".
    const ProgramRecord joined{{"prog", "0123456789 0123456789 0123456789"}, "", "", 0, {}, ""};
    const ProgramRecord split{{"prog", "0123456789", "0123456789 0123456789"}, "", "", 0, {}, ""};
    EXPECT_NE(joined.label(), split.label());
}

// The FxT event set: written as STARPU_FXT_EVENTS's names, read back as the same set; a file
// from before the field has none, and a name StarPU does not know is refused by key.
TEST(RunRecord, TheFxtEventSetReadsBackAndIsOptional) {
    RunRecord r = sampleRecord();
    auto text = runRecordText(r);
    EXPECT_NE(
        text.find("\"events\": \"USER,TASK,TASK_VERBOSE,WORKER,WORKER_VERBOSE,DSM,EVENT,MPI\""),
        std::string::npos)
        << text;
    r.fxt.events = FxtEventSet::all();
    text = runRecordText(r);
    EXPECT_NE(text.find("\"events\": \"all\""), std::string::npos) << text;
    auto back = parseRunRecord(text, "run.json");
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(back->fxt.events, FxtEventSet::all());

    auto older = parseRunRecord(R"({"starpu": {"fxt": {"prefix": "/r", "trace_files": []}}})", "a");
    ASSERT_TRUE(older) << older.error().describe();
    EXPECT_FALSE(older->fxt.events.has_value());
    auto broken = parseRunRecord(R"({"starpu": {"fxt": {"events": "TASK,NOPE"}}})", "b");
    ASSERT_FALSE(broken);
    EXPECT_EQ(broken.error().code, ErrorCode::Corrupt);
    EXPECT_NE(broken.error().message.find("starpu.fxt.events"), std::string::npos)
        << broken.error().message;
}

TEST(RunRecord, ReadsOlderFilesAndRefusesNewerOrBrokenOnes) {
    // Version 1 (no ranks) and hand-written files without format or version still read.
    auto v1 = parseRunRecord(
        R"({"format": "starscope-run", "version": 1, "status": "failed", "error": "disk full"})",
        "a");
    ASSERT_TRUE(v1) << v1.error().describe();
    EXPECT_EQ(v1->status, RunStatus::Failed);
    EXPECT_EQ(v1->ranks, 1U);
    auto old = parseRunRecord(R"({"strategy": "single+naive"})", "b");
    ASSERT_TRUE(old);
    EXPECT_EQ(old->strategy.name(), "single+naive");
    EXPECT_EQ(old->status, RunStatus::Completed);

    auto newer = parseRunRecord(R"({"format": "starscope-run", "version": 99})", "c/run.json");
    ASSERT_FALSE(newer);
    EXPECT_EQ(newer.error().code, ErrorCode::TooNew);
    EXPECT_EQ(newer.error().file, "c/run.json");
    auto wrongType = parseRunRecord(R"({"batch_size": "sixty-four"})", "d");
    ASSERT_FALSE(wrongType);
    EXPECT_EQ(wrongType.error().code, ErrorCode::Corrupt);
    EXPECT_NE(wrongType.error().message.find("batch_size"), std::string::npos)
        << wrongType.error().message;
    auto nested = parseRunRecord(R"({"counters": {"papi": {"events": [{"total": "x"}]}}})", "e");
    ASSERT_FALSE(nested);
    EXPECT_NE(nested.error().message.find("counters.papi.events[].total"), std::string::npos)
        << nested.error().message;
    auto status = parseRunRecord(R"({"status": "done"})", "f");
    ASSERT_FALSE(status);
    EXPECT_NE(status.error().message.find("\"done\""), std::string::npos);
    EXPECT_FALSE(parseRunRecord("{", "g"));
    EXPECT_FALSE(parseRunRecord(R"({"format": "starscope-sweep"})", "h"));
}

// sweep.json: one type, read and written here; the files sweeps wrote before it read.
TEST(SweepRecordFile, RoundTripsAndRefusesWhatIsNoSweep) {
    const SweepRecord record{
        kSweepRecordVersion,
        {{"--epochs", "1", "--batches", "4"}, {}, {}, SweepEnvironment{{"STARPU_NCPU", "2"}}},
        {"single+naive", "double+advanced"},
        {1, 2, 4}};
    auto back = parseSweepRecord(sweepRecordText(record), "s");
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(*back, record);
    TempDir dir;
    ASSERT_TRUE(writeSweepRecord(dir / kSweepJsonName, record));
    auto read = readSweepRecord(dir / kSweepJsonName);
    ASSERT_TRUE(read) << read.error().describe();
    EXPECT_EQ(*read, record);
    EXPECT_EQ(sweepStrategies(dir.path()), record.strategies);

    // As sweeps wrote it by hand before the type existed.
    auto older = parseSweepRecord(
        R"({"format": "starscope-sweep", "version": 1, "record_args": ["--epochs", "2"]})", "o");
    ASSERT_TRUE(older) << older.error().describe();
    EXPECT_EQ(older->configuration.recordArgs, (std::vector<std::string>{"--epochs", "2"}));
    EXPECT_FALSE(older->configuration.environment) << "version 1 did not keep the environment";
    EXPECT_TRUE(older->strategies.empty());
    EXPECT_EQ(older->ranks,
              (std::vector<std::uint64_t>{1})); // sweeps before --ranks recorded 1 rank

    const auto refused = [](const std::string& text, ErrorCode code, const std::string& words) {
        auto r = parseSweepRecord(text, "bad.json");
        ASSERT_FALSE(r) << text;
        EXPECT_EQ(r.error().code, code) << text;
        EXPECT_EQ(r.error().file, "bad.json");
        EXPECT_NE(r.error().message.find(words), std::string::npos) << r.error().message;
    };
    refused(R"({"format": "starscope-sweep", "version": 3, "record_args": []})", ErrorCode::TooNew,
            "version 3");
    refused(R"({"version": 2, "record_args": [], "environment": {"STARPU_NCPU": 2}})",
            ErrorCode::Corrupt, "environment is not an object of strings");
    refused(R"({"version": 2, "record_args": [], "vary": ["X=1"]})", ErrorCode::Corrupt,
            "vary is not a string");
    refused(R"({"format": "starscope-run", "record_args": []})", ErrorCode::Format,
            "starscope-run");
    refused(R"({"format": "starscope-sweep"})", ErrorCode::Corrupt, "record_args");
    refused(R"({"record_args": "--epochs 2"})", ErrorCode::Corrupt,
            "record_args is not an array of strings");
    refused(R"({"record_args": [], "strategies": [1]})", ErrorCode::Corrupt, "strategies");
    refused("[]", ErrorCode::Corrupt, "JSON");
    refused(R"({"record_args": [], "ranks": [1, 0]})", ErrorCode::Corrupt,
            "ranks is not an array of rank counts");
    refused(R"({"record_args": [], "ranks": []})", ErrorCode::Corrupt,
            "ranks is not an array of rank counts");
    refused(R"({"record_args": [], "ranks": ["2"]})", ErrorCode::Corrupt,
            "ranks is not an array of rank counts");
    EXPECT_TRUE(sweepStrategies(dir / "nowhere").empty());
}

// A program sweep's sweep.json of version 1 held "--" PROGRAM ARGS ["--vary" V] in one list: the
// upgrade gives the trailing pair to --vary and the rest to the program; version 2 keeps a
// `--vary` among the program's arguments there, apart from the option.
TEST(SweepRecordFile, KeepsProgramArgumentsApartFromOptionsAndUpgradesVersion1) {
    auto older = parseSweepRecord(
        R"({"format": "starscope-sweep", "version": 1, "record_args": ["--", "prog", "-n", "2", "--vary", "X=a,b"]})",
        "o");
    ASSERT_TRUE(older) << older.error().describe();
    EXPECT_EQ(older->configuration,
              (SweepConfiguration{{}, {"prog", "-n", "2"}, "X=a,b", std::nullopt}));
    auto plain = parseSweepRecord(R"({"version": 1, "record_args": ["--", "prog"]})", "p");
    ASSERT_TRUE(plain) << plain.error().describe();
    EXPECT_EQ(plain->configuration, (SweepConfiguration{{}, {"prog"}, "", std::nullopt}));

    const SweepConfiguration option{{}, {"prog"}, "X=a,b", SweepEnvironment{{"STARPU_NCPU", "2"}}};
    const SweepConfiguration argument{
        {},
        {"prog", "--vary", "X=a,b"},
        "",
        SweepEnvironment{{"STARPU_NCPU", "3"}, {"STARPU_SCHED", "lws"}}};
    for (const auto& c : {option, argument}) {
        auto back =
            parseSweepRecord(sweepRecordText(SweepRecord{kSweepRecordVersion, c, {}, {1}}), "s");
        ASSERT_TRUE(back) << back.error().describe();
        EXPECT_EQ(back->configuration, c);
    }
    EXPECT_TRUE(configurationChanges(option, option).empty());
    EXPECT_EQ(configurationChanges(option, argument),
              (std::vector<std::string>{
                  "the program and its arguments were `prog`, are `prog --vary X=a,b` now",
                  "--vary was X=a,b, is not given now", "STARPU_NCPU was 2, is 3 now",
                  "STARPU_SCHED was unset, is lws now"}));
    // A version 1 file kept no environment: nothing to compare it with.
    EXPECT_TRUE(configurationChanges(
                    older->configuration,
                    SweepConfiguration{{}, {"prog", "-n", "2"}, "X=a,b", SweepEnvironment{}})
                    .empty());
}

// record --no-trace: "traced": false reads back; files from before the field were traced.
TEST(RunRecord, AnUntracedRunReadsBackAsUntraced) {
    RunRecord r = sampleRecord();
    r.traced = false;
    const auto text = runRecordText(r);
    EXPECT_NE(text.find("\"traced\": false"), std::string::npos) << text;
    EXPECT_NE(text.find("\"trace\": 0"), std::string::npos) << text;
    auto back = parseRunRecord(text, "run.json");
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(*back, r);
    auto old = parseRunRecord(
        R"({"format": "starscope-run", "version": 2, "starpu": {"fxt": {"trace": 1}}})", "a");
    ASSERT_TRUE(old) << old.error().describe();
    EXPECT_TRUE(old->traced);
    EXPECT_TRUE(old->environment.empty());
    EXPECT_FALSE(parseRunRecord(R"({"traced": "no"})", "b"));
}

TEST(RunStatusNames, RoundTrip) {
    for (const auto& [status, name] : kRunStatusNames) {
        EXPECT_EQ(parseStatus(name), status);
        EXPECT_EQ(statusName(status), name);
    }
    EXPECT_FALSE(parseStatus("Completed"));
}

TEST(Metrics, TableIsCompleteAndKeysAreUnique) {
    std::set<std::string_view> keys;
    for (const auto& m : metrics()) {
        EXPECT_TRUE(keys.insert(m.key).second) << m.key;
        EXPECT_FALSE(m.label.empty());
        EXPECT_FALSE(m.computed.empty());
        EXPECT_EQ(findMetric(m.key), &m);
    }
    EXPECT_EQ(findMetric("nope"), nullptr);
}

TEST(Aggregation, MedianMinMaxAndDelta) {
    EXPECT_EQ(aggregate({3, 1, 2}), (Aggregate{2, 1, 3, 3}));
    EXPECT_EQ(aggregate({4, 1, 2, 3}), (Aggregate{2.5, 1, 4, 4}));
    EXPECT_EQ(aggregate({}).n, 0U);
    EXPECT_EQ(delta(150, 100), 0.5);
    EXPECT_FALSE(delta(1, 0));
}

// Run folders over the small test trace with the run.json given.
class RunFolders : public ::testing::Test {
protected:
    fs::path make(const std::string& name, const RunRecord& record) {
        const auto dir = makeFolder(name, record.ranks);
        EXPECT_TRUE(writeRunRecord(dir / kRunJsonName, record));
        return dir;
    }
    // One prof file per rank (the small trace each time: ranks of a job without messages).
    fs::path makeFolder(const std::string& name, std::uint64_t ranks = 1) {
        const auto dir = m_dir / name;
        fs::create_directories(dir);
        for (std::uint64_t rank = 0; rank < ranks; ++rank) {
            fs::copy_file(smallProfFile(), dir / ("prof_file__" + std::to_string(rank)),
                          fs::copy_options::overwrite_existing);
        }
        return dir;
    }
    CompareInput input(const fs::path& folder, bool named = true) {
        auto measured = measureRun(folder, 100'000);
        EXPECT_TRUE(measured) << measured.error().describe();
        return {*measured, named};
    }
    static RunRecord completed(const std::string& arenas, const std::string& loader,
                               std::uint64_t batches) {
        RunRecord r = sampleRecord();
        r.status = RunStatus::Completed;
        r.strategy = {arenas, 1, loader, ""};
        r.batchesPerEpoch = batches;
        return r;
    }
    TempDir m_dir;
};

TEST_F(RunFolders, MeasureRunReadsTheTraceAndTheRecord) {
    const auto folder = make("a", completed("single", "naive", 10));
    const auto f = input(folder).figures;
    EXPECT_EQ(f.strategy, "single+naive");
    ASSERT_TRUE(f.makespanNs.value);
    EXPECT_GT(*f.makespanNs.value, 0.0);
    EXPECT_EQ(f.wallTimeS.value, 2.5);
    EXPECT_EQ(f.peakMemoryBytes.value, static_cast<double>(1 << 20));
    EXPECT_EQ(f.ipc.reason, "no PMU");
    EXPECT_EQ(f.powerW.reason, "no RAPL");
    // IPC from the two events when the recorder wrote no ratio.
    RunRecord withEvents = completed("single", "naive", 10);
    withEvents.papi.availability = {true, true, ""};
    withEvents.papi.events = {{"PAPI_TOT_INS", true, "", 300, {}},
                              {"PAPI_TOT_CYC", true, "", 200, {}}};
    EXPECT_EQ(input(make("b", withEvents)).figures.ipc.value, 1.5);

    const auto bare = makeFolder("bare");
    const auto noRecord = input(bare).figures;
    EXPECT_EQ(noRecord.strategy, "bare");
    EXPECT_NE(noRecord.wallTimeS.reason.find("no run.json"), std::string::npos)
        << noRecord.wallTimeS.reason;
}

// A run folder without prof files: recorded --no-trace, the readers say there is no trace
// (not that the folder is empty); without a run.json saying so, the readers' own error.
TEST_F(RunFolders, AnUntracedRunSaysItHasNoTrace) {
    RunRecord untraced = completed("double", "advanced", 10);
    untraced.traced = false;
    const auto dir = m_dir / "untraced";
    fs::create_directories(dir);
    ASSERT_TRUE(writeRunRecord(dir / kRunJsonName, untraced));
    auto trace = readTrace(dir);
    ASSERT_FALSE(trace);
    EXPECT_EQ(trace.error().code, ErrorCode::Unsupported);
    EXPECT_EQ(trace.error().file, dir.string());
    EXPECT_NE(trace.error().message.find(
                  "no trace: this run was recorded without tracing (record --no-trace"),
              std::string::npos)
        << trace.error().message;
    auto measured = measureRun(dir, 100'000);
    ASSERT_FALSE(measured);
    EXPECT_EQ(measured.error().code, ErrorCode::Unsupported);

    const auto empty = m_dir / "empty";
    fs::create_directories(empty);
    auto none = readTrace(empty);
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().message.find("no prof_file_*"), std::string::npos)
        << none.error().message;
    // A traced run is read as readTrace reads it.
    EXPECT_TRUE(readTrace(make("traced", completed("single", "naive", 10))));
}

TEST_F(RunFolders, MixedWorkloadsAreRefusedNamingTheDifferenceOrLabelledWhenAllowed) {
    const auto a = make("a", completed("single", "naive", 2));
    const auto b = make("b", completed("double", "advanced", 10));
    const auto c = make("c", completed("double", "advanced", 2));
    auto refused = compareRuns({input(a), input(b), input(c)}, {});
    ASSERT_FALSE(refused);
    EXPECT_NE(
        refused.error().message.find(b.string() + " has batches 10 (2 in " + a.string() + ")"),
        std::string::npos)
        << refused.error().message;
    EXPECT_NE(refused.error().message.find("--allow-mixed"), std::string::npos);

    CompareOptions allow;
    allow.allowMixed = true;
    auto mixed = compareRuns({input(a), input(b), input(c)}, allow);
    ASSERT_TRUE(mixed) << mixed.error().message;
    // The 10-batch run is not pooled with the 2-batch run of the same strategy.
    ASSERT_EQ(mixed->groups.size(), 3U);
    EXPECT_EQ(mixed->groups[1].name, "double+advanced [batches 10]");
    ASSERT_EQ(mixed->groups[1].differences.size(), 1U);
    EXPECT_EQ(mixed->groups[2].name, "double+advanced");
    EXPECT_TRUE(mixed->groups[2].differences.empty());
    EXPECT_EQ(mixed->baseline, "single+naive");
}

// Runs of one program are one workload, its argument sets and StarPU variables the columns;
// another program, or the CNN, is another workload.
TEST_F(RunFolders, CommandRunsAreGroupedByCommandAndOtherProgramsRefused) {
    const auto small = make("small", commandRecord({"prog", "-n", "3"}));
    // A second run of it (one that took longer: not a copy of the first).
    RunRecord again = commandRecord({"prog", "-n", "3"});
    again.wallTimeS = 9.5;
    const auto small2 = make("small2", again);
    RunRecord bigRecord = commandRecord({"prog", "-n", "30"});
    const auto big = make("big", bigRecord);
    RunRecord dmdaRecord = commandRecord({"prog", "-n", "3"});
    dmdaRecord.environment.push_back({"STARPU_SCHED", "dmda", "environment"});
    const auto dmda = make("dmda", dmdaRecord);
    auto compared = compareRuns({input(small), input(big), input(small2), input(dmda)}, {});
    ASSERT_TRUE(compared) << compared.error().message;
    ASSERT_EQ(compared->groups.size(), 3U);
    EXPECT_EQ(compared->groups[0].name, "prog -n 3 STARPU_NCPU=2");
    EXPECT_EQ(compared->groups[0].runs.size(), 2U);
    EXPECT_EQ(compared->groups[1].name, "prog -n 30 STARPU_NCPU=2");
    EXPECT_EQ(compared->groups[2].name, "prog -n 3 STARPU_NCPU=2 STARPU_SCHED=dmda");
    EXPECT_EQ(compared->baseline, "prog -n 3 STARPU_NCPU=2");

    const auto other = make("other", commandRecord({"other", "-n", "3"}));
    auto refused = compareRuns({input(small), input(other)}, {});
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find(other.string()
                                           + " has program /opt/bin/other (/opt/bin/prog in "
                                           + small.string() + ")"),
              std::string::npos)
        << refused.error().message;
    const auto cnn = make("cnn", completed("single", "naive", 10));
    auto mixed = compareRuns({input(cnn), input(small)}, {});
    ASSERT_FALSE(mixed);
    EXPECT_NE(mixed.error().message.find(small.string() + " has workload command (cnn in "
                                         + cnn.string() + ")"),
              std::string::npos)
        << mixed.error().message;
}

// Runs that differ only by rank count are compared without --allow-mixed, one column per rank
// count, with speedup and scaling efficiency against the 1-rank run's train time.
TEST_F(RunFolders, RankCountsAreComparedNotAWorkloadDifference) {
    RunRecord one = completed("single", "naive", 10);
    one.trainTimeS = 4.0;
    RunRecord two = one;
    two.ranks = 2;
    two.trainTimeS = 2.5;
    const auto a = make("two", two);
    const auto b = make("one", one);
    EXPECT_TRUE(parameterDifferences(two, one, "one").empty());
    auto c = compareRuns({input(a), input(b)}, {});
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_TRUE(c->scaling);
    ASSERT_EQ(c->groups.size(), 2U);
    // The 1-rank column first, whatever the order given: it is the default baseline.
    EXPECT_EQ(c->groups[0].name, "single+naive (1 rank)");
    EXPECT_EQ(c->groups[0].ranks, 1U);
    EXPECT_EQ(c->groups[1].name, "single+naive (2 ranks)");
    EXPECT_EQ(c->groups[1].ranks, 2U);
    EXPECT_EQ(c->baseline, "single+naive (1 rank)");
    EXPECT_EQ(c->groups[1].aggregates.at("ranks").median, 2.0);
    EXPECT_DOUBLE_EQ(c->groups[1].aggregates.at("speedup").median, 4.0 / 2.5);
    EXPECT_DOUBLE_EQ(c->groups[1].aggregates.at("scaling_efficiency").median, 4.0 / 2.5 / 2);
    EXPECT_DOUBLE_EQ(c->groups[0].aggregates.at("speedup").median, 1.0);
    // The test trace is one process: no message between ranks, but its barriers have a share;
    // the 2-rank run's two copies of it send none to each other.
    EXPECT_EQ(c->groups[0].reasons.at("communication_share"), "one rank: no message between ranks");
    EXPECT_EQ(c->groups[1].aggregates.at("communication_share").median, 0.0);
    // A CPU-only run: none of the figures of a machine with GPUs.
    EXPECT_EQ(c->groups[1].reasons.at("cuda_idleness"), "no CUDA worker in the trace");
    EXPECT_EQ(c->groups[1].reasons.at("transfer_bytes"), "one kind of worker and no transfer");
    const auto& share = c->groups[0].aggregates.at("barrier_share").median;
    EXPECT_DOUBLE_EQ(share, c->groups[0].aggregates.at("barrier_total_ns").median
                                / c->groups[0].aggregates.at("makespan_ns").median);

    // Without a 1-rank run there is nothing to scale against, and the reason says so.
    auto alone = compareRuns({input(a)}, {});
    ASSERT_TRUE(alone) << alone.error().message;
    EXPECT_FALSE(alone->scaling);
    EXPECT_EQ(alone->groups[0].name, "single+naive");
    EXPECT_EQ(alone->groups[0].reasons.at("speedup"), kNoScalingReference);
}

TEST_F(RunFolders, SameRunTwiceCountsOnceAndABrokenRecordNeverBecomesTheBaseline) {
    const auto a = make("a", completed("single", "naive", 2));
    const auto broken = makeFolder("broken");
    std::ofstream(broken / kRunJsonName) << "{ not json";
    auto c = compareRuns({input(broken), input(a), input(m_dir / "a" / ".." / "a")}, {});
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_EQ(c->baseline, "single+naive");
    ASSERT_EQ(c->groups.size(), 2U);
    EXPECT_EQ(c->groups[0].runs.size(), 1U);
    EXPECT_EQ(c->groups[1].name, "broken");
    EXPECT_EQ(c->groups[0].aggregates.at("makespan_ns").n, 1U);
    std::string warnings;
    for (const auto& w : c->warnings) {
        warnings += w + "\n";
    }
    EXPECT_NE(warnings.find("given more than once, counted once"), std::string::npos) << warnings;
    EXPECT_NE(warnings.find(broken.string() + "/run.json: not valid JSON"), std::string::npos)
        << warnings;
    EXPECT_NE(c->groups[1].reasons.at("wall_time_s").find("not valid JSON"), std::string::npos);
}

TEST_F(RunFolders, UnfinishedRunsOfASweepAreSkippedNamedOnesKept) {
    RunRecord interrupted = completed("single", "naive", 2);
    interrupted.status = RunStatus::Interrupted;
    const auto a = make("a", interrupted);
    const auto b = make("b", completed("double", "naive", 2));
    auto c = compareRuns({input(a, false), input(b, false)}, {});
    ASSERT_TRUE(c);
    ASSERT_EQ(c->groups.size(), 1U);
    EXPECT_EQ(c->warnings.front(), "skipping " + a.string() + ": its run is interrupted");
    auto named = compareRuns({input(a, true), input(b, true)}, {});
    ASSERT_TRUE(named);
    EXPECT_EQ(named->groups.size(), 2U);
    auto badBaseline = compareRuns({input(b)}, {"nope", {}, false});
    ASSERT_FALSE(badBaseline);
    EXPECT_NE(badBaseline.error().message.find("--baseline nope"), std::string::npos);
}

} // namespace
} // namespace starscope::tracer::run
