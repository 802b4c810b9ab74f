// Every JSON document the tracer writes (stats, barriers and compare --json, the Chrome trace,
// run.json, sweep.json) from text that is not UTF-8: a codelet named in Latin-1, a trace file or
// run folder whose name a Latin-1 shell typed, a program argument. The document must be written
// and parse, with U+FFFD where the bytes were (common/json_text.hpp).

#include "tests/support/test_support.hpp"
#include "tests/tracer/cli_runner.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/run_folder/run_record.hpp"
#include "tracer/run_folder/sweep_record.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace starscope::tracer {
namespace {

namespace fs = std::filesystem;
using namespace testing;
using starscope::testing::readFile;
using starscope::testing::TempDir;

const std::string kLatin1Cafe = "caf\xe9";
const std::string kReplacedCafe = "caf\xef\xbf\xbd";

// The small golden trace with its codelet renamed "caf\xe9_spin", in a file named "caf\xe9.trace".
fs::path latin1Trace(const TempDir& dir) {
    std::string text = readFile(smallPaje());
    const std::string codelet = "sample_spin";
    for (std::size_t pos; (pos = text.find(codelet)) != std::string::npos;) {
        text.replace(pos, codelet.size(), kLatin1Cafe + "_spin");
    }
    const auto path = dir / (kLatin1Cafe + ".trace");
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

::testing::AssertionResult parses(const std::string& text, nlohmann::json& doc) {
    doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded()) {
        return ::testing::AssertionFailure() << "not valid JSON:\n" << text.substr(0, 2000);
    }
    return ::testing::AssertionSuccess();
}

TEST(JsonOutput, StatsJsonOfALatin1CodeletAndFileName) {
    TempDir dir;
    const auto input = latin1Trace(dir);
    const auto r = runCli({"stats", input.string(), "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    nlohmann::json doc;
    ASSERT_TRUE(parses(r.out, doc));
    EXPECT_EQ(doc.at("input"), (dir.path() / (kReplacedCafe + ".trace")).string());
    // A codelet name that is not UTF-8 is no name a person can read: its tasks are unnamed, with
    // one warning, and the JSON stays valid.
    bool unnamed = false;
    for (const auto& row : doc.at("codelets")) {
        unnamed = unnamed || row.at("codelet") == "";
    }
    EXPECT_TRUE(unnamed) << doc.at("codelets").dump(2);
    EXPECT_NE(r.err.find("not printable text"), std::string::npos) << r.err;
}

TEST(JsonOutput, BarriersJsonOfALatin1FileName) {
    TempDir dir;
    const auto r = runCli({"barriers", latin1Trace(dir).string(), "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    nlohmann::json doc;
    ASSERT_TRUE(parses(r.out, doc));
    EXPECT_EQ(doc.at("input"), (dir.path() / (kReplacedCafe + ".trace")).string());
    EXPECT_FALSE(doc.at("barriers").empty());
}

TEST(JsonOutput, ChromeExportOfALatin1CodeletIsValidJson) {
    TempDir dir;
    const auto output = dir / "trace.json";
    const auto r =
        runCli({"export", latin1Trace(dir).string(), "--format", "chrome", "-o", output.string()});
    ASSERT_EQ(r.code, 0) << r.err;
    nlohmann::json doc;
    ASSERT_TRUE(parses(readFile(output), doc));
    // The tasks whose codelet name is not UTF-8 are there, unnamed.
    std::size_t executing = 0;
    for (const auto& event : doc.at("traceEvents")) {
        executing += event.value("cat", "") == "executing" ? 1U : 0U;
    }
    EXPECT_GE(executing, 18U); // its 3 batches of 6 tasks, at least
}

TEST(JsonOutput, CompareJsonOfALatin1RunFolder) {
    TempDir dir;
    const auto folder = dir / (kLatin1Cafe + "-r0");
    fs::create_directories(folder);
    fs::copy_file(smallProfFile(), folder / "prof_file__0");
    std::ofstream(folder / "run.json")
        << R"({"strategy": {"arenas": "single", "loader": "naive"}})";
    const auto r = runCli({"compare", folder.string(), "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    nlohmann::json doc;
    ASSERT_TRUE(parses(r.out, doc));
    ASSERT_EQ(doc.at("strategies").size(), 1U);
    EXPECT_EQ(doc.at("strategies")[0].at("runs"),
              nlohmann::json::array({(dir.path() / (kReplacedCafe + "-r0")).string()}));
}

TEST(JsonOutput, RunJsonOfAProgramWithALatin1ArgumentAndFolder) {
    run::RunRecord record;
    record.workload = run::WorkloadKind::Command;
    record.program = run::ProgramRecord{};
    record.program->argv = {"/usr/bin/prog", kLatin1Cafe};
    record.program->executable = "/usr/bin/prog";
    record.program->cwd = "/tmp/" + kLatin1Cafe;
    record.command = {"starscope", "record",        "--out",    "/tmp/" + kLatin1Cafe,
                      "--",        "/usr/bin/prog", kLatin1Cafe};
    record.fxt.prefix = "/tmp/" + kLatin1Cafe;
    record.error = "cannot read /tmp/" + kLatin1Cafe;
    std::string text;
    ASSERT_NO_THROW(text = run::runRecordText(record));
    nlohmann::json doc;
    ASSERT_TRUE(parses(text, doc));
    const auto back = run::parseRunRecord(text, "run.json");
    ASSERT_TRUE(back) << back.error().describe();
    ASSERT_TRUE(back->program);
    EXPECT_EQ(back->program->argv.at(1), kReplacedCafe);
    EXPECT_EQ(back->program->cwd, "/tmp/" + kReplacedCafe);
    EXPECT_EQ(back->command.at(3), "/tmp/" + kReplacedCafe);
    EXPECT_EQ(back->fxt.prefix, "/tmp/" + kReplacedCafe);
}

TEST(JsonOutput, SweepJsonOfALatin1ProgramArgumentAndVariable) {
    run::SweepRecord record;
    record.configuration.recordArgs = {"--out", "/tmp/" + kLatin1Cafe};
    record.configuration.program = {"/usr/bin/prog", kLatin1Cafe};
    record.configuration.environment = run::SweepEnvironment{{"STARPU_SCHED", kLatin1Cafe}};
    record.strategies = {"prog " + kLatin1Cafe};
    std::string text;
    ASSERT_NO_THROW(text = run::sweepRecordText(record));
    const auto back = run::parseSweepRecord(text, "sweep.json");
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(back->configuration.recordArgs.at(1), "/tmp/" + kReplacedCafe);
    EXPECT_EQ(back->configuration.program.at(1), kReplacedCafe);
    ASSERT_TRUE(back->configuration.environment);
    ASSERT_EQ(back->configuration.environment->size(), 1U);
    EXPECT_EQ(back->configuration.environment->front().second, kReplacedCafe);
    EXPECT_EQ(back->strategies.at(0), "prog " + kReplacedCafe);
}

} // namespace
} // namespace starscope::tracer
