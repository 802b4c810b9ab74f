// `starscope record` and `sweep` typed as the documentation and a shell type them, through the
// real front end (which execs the recorder): `--force -- PROG`, `--out=DIR -- PROG`, the run
// folder from STARPU_FXT_PREFIX, `sweep --out=D -- PROG`; and a program whose argument or run
// folder holds a Latin-1 byte, whose run.json must be written all the same; and what record says
// of a program that leaves no trace. The program is the project's small StarPU sample
// (tests/tracer/sample_program.cpp), "-" tracing where record says.

#include "common/text.hpp"
#include "tests/support/test_support.hpp"
#include "tests/workloads/run_folder.hpp"

#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using starscope::shellCommandLine;
using starscope::testing::readFile;
using starscope::testing::TempDir;
using starscope::workloads::testing::readJson;

const std::string kLatin1Cafe = "caf\xe9";
const std::string kReplacedCafe = "caf\xef\xbf\xbd";

// A short run of the sample program: 2 batches of 8 short tasks.
const std::vector<std::string> kSampleArguments = {"--batches", "2",         "--tasks",
                                                   "8",         "--load-us", "200"};

struct Outcome {
    int status = 0;
    std::string output;
};

// `environment starscope ARGS` through the shell, stdout and stderr together. timeout bounds a
// run that hangs: it fails this test instead of holding the suite. In a sanitizer build the sample
// program is instrumented and record preloads its FxT library (built without the sanitizers)
// ahead of ASan's runtime, which ASan refuses unless told that the order is intended; what the
// program's StarPU and its plugins leave at exit is no finding of these tests.
constexpr const char* kPreloadUnderAsan =
    "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=0\" ";
Outcome starscope(const TempDir& dir, const std::string& environment,
                  std::vector<std::string> args) {
    args.insert(args.begin(), STARSCOPE_BINARY);
    const auto log = dir / "starscope.log";
    Outcome outcome;
    outcome.status =
        starscope::testing::runCommand(kPreloadUnderAsan + environment + " timeout -k 10 240 " + shellCommandLine(args)
                                       + " > " + starscope::shellQuoted(log.string()) + " 2>&1");
    outcome.output = readFile(log);
    return outcome;
}

// record's arguments for the sample program tracing into `folder` ("-": where record says).
std::vector<std::string> sample(std::vector<std::string> recordArgs, const std::string& folder) {
    recordArgs.push_back("--");
    recordArgs.push_back(STARSCOPE_SAMPLE_PROGRAM);
    recordArgs.push_back(folder);
    recordArgs.insert(recordArgs.end(), kSampleArguments.begin(), kSampleArguments.end());
    return recordArgs;
}

::testing::AssertionResult completedRun(const fs::path& run, const Outcome& outcome) {
    if (outcome.status != 0) {
        return ::testing::AssertionFailure() << "exit " << outcome.status << "\n" << outcome.output;
    }
    const auto json = readJson(run / "run.json");
    if (json.is_discarded()) {
        return ::testing::AssertionFailure() << "no valid run.json in " << run << "\n"
                                             << outcome.output;
    }
    if (json.value("status", "") != "completed"
        || starscope::workloads::testing::findProfFiles(run).empty()) {
        return ::testing::AssertionFailure() << json.dump(2) << "\n" << outcome.output;
    }
    return ::testing::AssertionSuccess();
}

// `--force` right before `--` (the run folder from STARPU_FXT_PREFIX), as the documentation
// writes it.
TEST(RecordCommandLine, ForceBeforeTheProgramReplacesAnExistingRun) {
    TempDir dir;
    const auto run = dir / "run";
    ASSERT_TRUE(
        completedRun(run, starscope(dir, "", sample({"record", "--out", run.string()}, "-"))));
    const auto again = starscope(dir, "STARPU_FXT_PREFIX=" + starscope::shellQuoted(run.string()),
                                 sample({"record", "--force"}, "-"));
    EXPECT_TRUE(completedRun(run, again));
    EXPECT_EQ(again.output.find("not expected"), std::string::npos) << again.output;
}

TEST(RecordCommandLine, OutWithAnEqualsSign) {
    TempDir dir;
    const auto run = dir / "run";
    EXPECT_TRUE(
        completedRun(run, starscope(dir, "", sample({"record", "--out=" + run.string()}, "-"))));
}

TEST(RecordCommandLine, TheRunFolderFromStarpuFxtPrefix) {
    TempDir dir;
    const auto run = dir / "run";
    const auto outcome = starscope(dir, "STARPU_FXT_PREFIX=" + starscope::shellQuoted(run.string()),
                                   sample({"record"}, "-"));
    EXPECT_TRUE(completedRun(run, outcome));
    EXPECT_NE(outcome.output.find("run folder    from STARPU_FXT_PREFIX"), std::string::npos)
        << outcome.output;
}

TEST(RecordCommandLine, SweepWithOutAndAnEqualsSign) {
    TempDir dir;
    const auto sweep = dir / "sweep";
    const auto outcome = starscope(dir, "", sample({"sweep", "--out=" + sweep.string()}, "-"));
    ASSERT_EQ(outcome.status, 0) << outcome.output;
    const auto summary = readJson(sweep / "summary.json");
    ASSERT_FALSE(summary.is_discarded()) << outcome.output;
    ASSERT_EQ(summary.at("runs").size(), 1U) << summary.dump(2);
    EXPECT_EQ(summary.at("runs")[0].at("status"), "completed") << summary.dump(2);
}

// The program's argument names the run folder through a link whose name is Latin-1.
TEST(RecordCommandLine, ALatin1ProgramArgumentIsKeptInRunJson) {
    TempDir dir;
    const auto run = dir / "run";
    fs::create_directories(run);
    const auto link = dir / kLatin1Cafe;
    fs::create_directory_symlink(run, link);
    const auto outcome =
        starscope(dir, "", sample({"record", "--force", "--out", run.string()}, link.string()));
    ASSERT_TRUE(completedRun(run, outcome));
    const auto json = readJson(run / "run.json");
    EXPECT_EQ(json.at("workload").at("argv").at(1), (dir.path() / kReplacedCafe).string());
    // The line record prints before it starts the program reads back in a shell.
    EXPECT_NE(outcome.output.find("running " + std::string(STARSCOPE_SAMPLE_PROGRAM) + " '"
                                  + link.string() + "' --batches"),
              std::string::npos)
        << outcome.output;
}

TEST(RecordCommandLine, ALatin1RunFolderGetsItsRunJson) {
    TempDir dir;
    const auto run = dir / kLatin1Cafe;
    const auto outcome = starscope(dir, "", sample({"record", "--out", run.string()}, "-"));
    ASSERT_TRUE(completedRun(run, outcome));
    EXPECT_EQ(readJson(run / "run.json").at("starpu").at("fxt").at("prefix"),
              (dir.path() / kReplacedCafe).string());
}

// A StarPU program that started FxT tracing and ended before starpu_shutdown, where StarPU
// writes its trace, is not taken for one whose StarPU has no FxT.
TEST(RecordCommandLine, AProgramEndingBeforeStarpuShutdownIsToldFromOneWithoutFxt) {
    TempDir dir;
    auto args = sample({"record", "--out", (dir / "early").string()}, "-");
    args.insert(args.end(), {"--exit-before-shutdown", "3"});
    const auto early = starscope(dir, "", args);
    EXPECT_EQ(early.status, 3) << early.output;
    EXPECT_NE(early.output.find(
                  "wrote no FxT trace into " + (dir / "early").string()
                  + " and exited with status 3: its StarPU started FxT tracing, but the program "
                    "ended before starpu_shutdown"),
              std::string::npos)
        << early.output;
    EXPECT_EQ(early.output.find("is it linked"), std::string::npos) << early.output;
    EXPECT_FALSE(fs::exists(dir / "early" / ".starscope_fxt_started"));

    const auto plain =
        starscope(dir, "", {"record", "--out", (dir / "plain").string(), "--", "/bin/true"});
    EXPECT_EQ(plain.status, 1) << plain.output;
    EXPECT_NE(plain.output.find("is it linked against a StarPU built with FxT?"), std::string::npos)
        << plain.output;
}

} // namespace
