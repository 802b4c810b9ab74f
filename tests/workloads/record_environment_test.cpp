// `starscope record` and StarPU's environment: an option wins over STARPU_SCHED / STARPU_NCPU /
// STARPU_FXT_PREFIX, which win over the defaults; the summary says when the environment chose;
// a STARPU_FXT_PREFIX naming another folder than --out is refused; run.json has what StarPU
// actually ran (its worker count, not a --workers it could not honour).

#include "tests/support/test_support.hpp"
#include "tests/workloads/run_folder.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>

using starscope::testing::TempDir;
using namespace starscope::workloads::testing;

namespace {

// The variables under test are cleared first, so that the environment the tests run in does
// not decide the outcome.
std::string record(const std::string& environment, const std::string& args,
                   const std::filesystem::path& stdoutFile,
                   const std::filesystem::path& stderrFile) {
    return "env -u STARPU_SCHED -u STARPU_NCPU -u STARPU_NCPUS -u STARPU_FXT_PREFIX " + environment
           + " '" + STARSCOPE_BINARY + "' record --batches 2 --batch-size 32 --test-images 100 "
           + args + " > '" + stdoutFile.string() + "' 2> '" + stderrFile.string() + "'";
}

struct Recorded {
    int status = -1;
    std::string out;
    std::string err;
};

class RecordEnvironment : public ::testing::Test {
protected:
    Recorded run(const std::string& environment, const std::string& args) {
        const auto outFile = m_dir / "stdout.txt";
        const auto errFile = m_dir / "stderr.txt";
        Recorded result;
        result.status =
            starscope::testing::runCommand(record(environment, args, outFile, errFile));
        result.out = starscope::testing::readFile(outFile);
        result.err = starscope::testing::readFile(errFile);
        return result;
    }
    std::filesystem::path runDir() const { return m_dir / "run"; }
    std::string outArg() const { return " --out '" + runDir().string() + "'"; }

    TempDir m_dir;
};

long cpuWorkersInTrace(const std::filesystem::path& folder) {
    auto trace = starscope::tracer::readFxt(findProfFiles(folder));
    if (!trace) {
        ADD_FAILURE() << trace.error().message;
        return -1;
    }
    return std::count_if(trace->lanes.begin(), trace->lanes.end(), [](const auto& lane) {
        return lane.kind == starscope::tracer::LaneKind::CpuWorker;
    });
}

} // namespace

TEST_F(RecordEnvironment, SchedulerAndWorkerCountComeFromTheEnvironmentWhenNoOptionIsGiven) {
    const auto r = run("STARPU_SCHED=eager STARPU_NCPU=1", outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const auto json = readJson(runDir() / "run.json");
    ASSERT_TRUE(validRunJson(json));
    EXPECT_EQ(json["scheduler"], "eager");
    EXPECT_EQ(json["workers"], 1);
    EXPECT_EQ(cpuWorkersInTrace(runDir()), 1);
    EXPECT_NE(r.out.find("scheduler     eager (from STARPU_SCHED)\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("workers       1 CPU (from STARPU_NCPU)\n"), std::string::npos) << r.out;
}

TEST_F(RecordEnvironment, TheOlderStarpuNcpusIsReadToo) {
    const auto r = run("STARPU_NCPUS=1", outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_EQ(readJson(runDir() / "run.json")["workers"], 1);
    EXPECT_NE(r.out.find("workers       1 CPU (from STARPU_NCPUS)\n"), std::string::npos) << r.out;
}

TEST_F(RecordEnvironment, OptionsWinOverTheEnvironment) {
    const auto r = run("STARPU_SCHED=eager STARPU_NCPU=2", "--sched dmda --workers 1" + outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const auto json = readJson(runDir() / "run.json");
    EXPECT_EQ(json["scheduler"], "dmda");
    EXPECT_EQ(json["workers"], 1);
    EXPECT_NE(r.out.find("scheduler     dmda\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("workers       1 CPU\n"), std::string::npos) << r.out;
}

TEST_F(RecordEnvironment, DefaultsApplyWithoutOptionOrEnvironment) {
    const auto r = run("", outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const auto json = readJson(runDir() / "run.json");
    EXPECT_EQ(json["scheduler"], "lws");
    EXPECT_EQ(json["workers"].get<long>(), cpuWorkersInTrace(runDir()));
    EXPECT_EQ(r.out.find("(from "), std::string::npos) << r.out;
}

TEST_F(RecordEnvironment, BadEnvironmentValuesAreRefusedByName) {
    auto r = run("STARPU_SCHED=no-such-policy", outArg());
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("STARPU_SCHED: unknown StarPU scheduler 'no-such-policy'"),
              std::string::npos)
        << r.err;
    r = run("STARPU_NCPU=two", outArg());
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("STARPU_NCPU: 'two' is not a CPU worker count"), std::string::npos)
        << r.err;
    EXPECT_FALSE(std::filesystem::exists(runDir()));
}

// More workers than StarPU starts (it starts at most one per core): a warning, and run.json
// and the summary have StarPU's number, the one the trace shows.
TEST_F(RecordEnvironment, WorkersBeyondWhatStarpuStartsAreReported) {
    const auto r = run("", "--workers 1000" + outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const auto json = readJson(runDir() / "run.json");
    const long inTrace = cpuWorkersInTrace(runDir());
    ASSERT_GT(inTrace, 0);
    ASSERT_LT(inTrace, 1000);
    EXPECT_EQ(json["workers"].get<long>(), inTrace);
    const std::string started = std::to_string(inTrace);
    EXPECT_NE(r.err.find("warning: --workers asked for 1000 CPU workers, StarPU started " + started),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.out.find("workers       " + started + " CPU (1000 asked)\n"), std::string::npos)
        << r.out;
}

TEST_F(RecordEnvironment, AFxtPrefixNamingAnotherFolderThanOutIsRefused) {
    const auto elsewhere = m_dir / "elsewhere";
    const auto r = run("STARPU_FXT_PREFIX='" + elsewhere.string() + "'", outArg());
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("STARPU_FXT_PREFIX: names " + elsewhere.string()
                         + ", but the run folder (--out) is " + runDir().string()),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(std::filesystem::exists(runDir()));
    EXPECT_FALSE(std::filesystem::exists(elsewhere));
}

TEST_F(RecordEnvironment, AFxtPrefixNamingTheRunFolderIsTheRunFolder) {
    // Without --out, and spelled with a trailing slash; then the same folder again with --out.
    auto r = run("STARPU_FXT_PREFIX='" + runDir().string() + "/'", "");
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("run folder    from STARPU_FXT_PREFIX\n"), std::string::npos) << r.out;
    auto json = readJson(runDir() / "run.json");
    EXPECT_EQ(json["starpu"]["fxt"]["prefix"], runDir().string());
    EXPECT_EQ(findProfFiles(runDir()).size(), 1U);

    r = run("STARPU_FXT_PREFIX='" + runDir().string() + "'", "--force" + outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_EQ(r.out.find("run folder    from STARPU_FXT_PREFIX"), std::string::npos) << r.out;
    EXPECT_EQ(findProfFiles(runDir()).size(), 1U);
}

TEST_F(RecordEnvironment, NeitherOutNorFxtPrefixSaysWhatIsMissing) {
    const auto r = run("", "");
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("--out: missing: name the run folder to write"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("or set STARPU_FXT_PREFIX"), std::string::npos) << r.err;
}
