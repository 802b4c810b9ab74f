// The run folder's library (tracer/run_folder/): its files' names and how its prof files are
// found, run.json and sweep.json read and written by one type each, and the sweep's summary files.
// It links the model alone: this test links nothing of the readers or analysis.

#include "tests/support/test_support.hpp"
#include "tests/tracer/run_record_sample.hpp"
#include "tracer/run_folder/run_folder.hpp"
#include "tracer/run_folder/run_record.hpp"
#include "tracer/run_folder/sweep_record.hpp"
#include "tracer/run_folder/sweep_summary_record.hpp"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace starscope::tracer::run {
namespace {

namespace fs = std::filesystem;
using starscope::testing::TempDir;
using starscope::tracer::run::testing::commandRecord;
using starscope::tracer::run::testing::sampleRecord;

// The names are the on-disk contract with StarPU and with earlier recordings: spelled out here.
TEST(RunFolderNames, FolderFilesHaveTheirRecordedNames) {
    const RunFolder folder("/runs/a");
    EXPECT_EQ(folder.runJson(), fs::path("/runs/a/run.json"));
    EXPECT_EQ(folder.nativeCache(), fs::path("/runs/a/trace.sstrace"));
    EXPECT_EQ(profFileName("root", 3), "prof_file_root_3");
    EXPECT_EQ(profFileName("", 0), "prof_file__0");
    EXPECT_STREQ(kSweepJsonName, "sweep.json");
    EXPECT_STREQ(kSummaryCsvName, "summary.csv");
    EXPECT_STREQ(kSummaryJsonName, "summary.json");
    EXPECT_STREQ(kLockFileName, ".starscope.lock");
}

// What a forced record replaces: the run's files, never record's own lock and notes.
TEST(RunFolderNames, RunArtifactsAreTheRunsFilesOnly) {
    for (const char* name : {"prof_file_root_0", "run.json", "run.json.tmp.12.0", "trace.sstrace",
                             "trace.json", "paje.trace", "weights_rank_1.txt"}) {
        EXPECT_TRUE(isRunArtifact(name)) << name;
    }
    for (const char* name :
         {".starscope.lock", ".starscope-run-json-room", ".starscope_fxt_started", "notes.txt",
          "weights_rank_1.bin", "sweep.json", "run.jsonx"}) {
        EXPECT_FALSE(isRunArtifact(name)) << name;
    }
}

// Every prof_file_* entry is one of the run's processes, a folder of that name too (the reader
// then says why it cannot be read); other files are not.
TEST(RunFolderFiles, FindsEveryProfFileSortedByName) {
    TempDir dir;
    std::ofstream(dir / "prof_file_root_1") << "x";
    std::ofstream(dir / "prof_file_root_0") << "x";
    fs::create_directories(dir / "prof_file_root_2");
    std::ofstream(dir / "run.json") << "{}";
    std::ofstream(dir / "paje.trace") << "x";
    EXPECT_EQ(findProfFiles(dir.path()),
              (std::vector<fs::path>{dir / "prof_file_root_0", dir / "prof_file_root_1",
                                     dir / "prof_file_root_2"}));
    EXPECT_TRUE(RunFolder::isRunFolder(dir.path()));
    EXPECT_TRUE(findProfFiles(dir / "absent").empty());
    fs::remove_all(dir / "prof_file_root_0");
    fs::remove_all(dir / "prof_file_root_1");
    fs::remove_all(dir / "prof_file_root_2");
    EXPECT_FALSE(RunFolder::isRunFolder(dir.path()));
}

SweepSummaryRow summaryRow(std::size_t order, const std::string& run, const std::string& arenas,
                           const std::string& loader, RunStatus status) {
    SweepSummaryRow row;
    row.order = order;
    row.run = run;
    row.arenas = arenas;
    row.loader = loader;
    row.repetition = order;
    row.status = status;
    row.action = "recorded";
    return row;
}

// A measured run with an n/a figure, and a failed run that has no figures.
SweepSummary sampleSummary() {
    SweepSummary summary;
    summary.figureKeys = {"makespan_ms", "ipc"};
    auto measured = summaryRow(0, "single-naive-r0", "single", "naive", RunStatus::Completed);
    measured.figures = {{418.5, ""}, {std::nullopt, "no PMU"}};
    auto failed = summaryRow(1, "double,advanced-r1", "double", "advanced", RunStatus::Failed);
    failed.note = "StarPU exited with \"1\"";
    summary.rows = {measured, failed};
    return summary;
}

// summary.csv: the run's columns, one per figure, then the note that carries each n/a's reason;
// fields with a comma or a quote quoted.
TEST(SweepSummaryFiles, CsvListsFiguresAndNaReasonsInTheNote) {
    EXPECT_EQ(sweepSummaryCsv(sampleSummary()),
              "order,run,arenas,loader,repetition,status,action,makespan_ms,ipc,note\n"
              "0,single-naive-r0,single,naive,0,completed,recorded,418.5,,ipc n/a: no PMU\n"
              "1,\"double,advanced-r1\",double,advanced,1,failed,recorded,,,\"StarPU exited with "
              "\"\"1\"\"\"\n");
}

// summary.json: a figure is a number or null, its reason under "na"; both files written.
TEST(SweepSummaryFiles, WritesBothFilesAndJsonCarriesEachNaReason) {
    TempDir dir;
    const auto written = writeSweepSummary(dir.path(), sampleSummary());
    ASSERT_TRUE(written) << written.error().describe();
    EXPECT_EQ(starscope::testing::readFile(dir / "summary.csv"), sweepSummaryCsv(sampleSummary()));
    const auto doc = nlohmann::json::parse(starscope::testing::readFile(dir / "summary.json"));
    EXPECT_EQ(doc.at("format"), "starscope-sweep-summary");
    EXPECT_EQ(doc.at("version"), 2);
    const auto& runs = doc.at("runs");
    ASSERT_EQ(runs.size(), 2U);
    EXPECT_EQ(runs[0].at("makespan_ms"), 418.5);
    EXPECT_TRUE(runs[0].at("ipc").is_null());
    EXPECT_EQ(runs[0].at("na").at("ipc"), "no PMU");
    EXPECT_FALSE(runs[0].contains("note"));
    EXPECT_EQ(runs[1].at("status"), "failed");
    EXPECT_TRUE(runs[1].at("makespan_ms").is_null());
    EXPECT_FALSE(runs[1].contains("na"));
    EXPECT_EQ(runs[1].at("note"), "StarPU exited with \"1\"");
    // A folder that cannot be written is named in the error.
    const auto refused = writeSweepSummary(dir / "absent", sampleSummary());
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().file.find("summary.csv"), std::string::npos)
        << refused.error().describe();
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

} // namespace
} // namespace starscope::tracer::run
