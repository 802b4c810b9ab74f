// Inputs that are not regular files: a FIFO, character devices, a socket, a folder where a
// file is expected. Every reader and every command refuses them, naming the path and what it
// is, before an open() that could block (a FIFO nobody writes blocks forever); a symlink to a
// regular file is read like the file. Every case runs in a child killed after a few seconds
// (or under timeout(1)), so a regression fails its case instead of hanging the suite.

#include "tests/support/test_support.hpp"
#include "tests/workloads/idx_writer.hpp"
#include "tracer/native/native_format.hpp"
#include "tracer/readers/paje/paje_reader.hpp"
#include "tracer/readers/read_trace.hpp"
#include "workloads/dataset/idx_file.hpp"
#include "workloads/dataset/mnist_dataset.hpp"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using starscope::testing::readFile;
using starscope::testing::runInChild;
using starscope::testing::TempDir;

constexpr unsigned kSeconds = 10;

struct Special {
    fs::path path;
    std::string kind;   // as the error says it: "a FIFO"
};

class SpecialInputs : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(::mkfifo(fifo().c_str(), 0600), 0) << std::strerror(errno);
        m_socket = ::socket(AF_UNIX, SOCK_STREAM, 0);
        ASSERT_GE(m_socket, 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        const std::string path = socketPath().string();
        ASSERT_LT(path.size(), sizeof address.sun_path);
        std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
        ASSERT_EQ(::bind(m_socket, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0)
            << std::strerror(errno);
        fs::create_directories(m_dir / "folder");
    }
    void TearDown() override {
        if (m_socket >= 0) {
            ::close(m_socket);
        }
    }

    fs::path fifo() const { return m_dir / "fifo"; }
    fs::path socketPath() const { return m_dir / "sock"; }
    std::vector<Special> specials() const {
        return {{fifo(), "a FIFO"},
                {"/dev/null", "a character device"},
                {"/dev/zero", "a character device"},
                {socketPath(), "a socket"}};
    }
    static std::string refusal(const Special& s) { return s.path.string() + ": is " + s.kind + ", not a regular file"; }

    // Runs `starscope ARGS` under timeout(1); returns its exit status and what it printed.
    std::pair<int, std::string> starscope(const std::string& args) const {
        const auto log = m_dir / "log.txt";
        const int status = starscope::testing::runCommand("timeout " + std::to_string(kSeconds) + " '"
                                                          + STARSCOPE_EXECUTABLE + "' " + args + " > '"
                                                          + log.string() + "' 2>&1 < /dev/null");
        return {status, readFile(log)};
    }

    TempDir m_dir;
    int m_socket = -1;
};

std::string readTraceSays(const fs::path& path) {
    const auto trace = starscope::tracer::readTrace(path);
    return trace ? std::string("read") : trace.error().describe();
}

TEST_F(SpecialInputs, TracerRefusesThemBeforeOpening) {
    for (const auto& s : specials()) {
        std::string said;
        ASSERT_TRUE(runInChild("readTrace " + s.path.string(), kSeconds, [&] { return readTraceSays(s.path); }, said));
        EXPECT_EQ(said, refusal(s));
        ASSERT_TRUE(runInChild("detectFormat " + s.path.string(), kSeconds, [&] {
            const auto format = starscope::tracer::detectFormat(s.path);
            return format ? std::string("detected") : format.error().describe();
        }, said));
        EXPECT_EQ(said, refusal(s));
    }
    // The readers called directly (not through readTrace) do not block either.
    std::string said;
    ASSERT_TRUE(runInChild("readPaje on a FIFO", kSeconds, [&] {
        const auto trace = starscope::tracer::readPaje(fifo());
        return trace ? std::string("read") : trace.error().describe();
    }, said));
    EXPECT_NE(said.find("not a regular file"), std::string::npos) << said;
    ASSERT_TRUE(runInChild("readNative on a FIFO", kSeconds, [&] {
        const auto trace = starscope::tracer::readNative(fifo());
        return trace ? std::string("read") : trace.error().describe();
    }, said));
    EXPECT_NE(said.find("not a regular file"), std::string::npos) << said;
}

TEST_F(SpecialInputs, SymlinkToARegularTraceIsRead) {
    const auto link = m_dir / "link.trace";
    fs::create_symlink(starscope::testing::testDataDir() / "tracer/small/paje.trace", link);
    std::string said;
    ASSERT_TRUE(runInChild("readTrace on a symlink", kSeconds, [&] { return readTraceSays(link); }, said));
    EXPECT_EQ(said, "read");
}

// A run folder whose trace cache is a FIFO (or a folder) is read from its prof files.
TEST_F(SpecialInputs, RunFolderIgnoresACacheThatIsNoRegularFile) {
    for (const std::string kind : {"fifo", "folder"}) {
        const auto run = m_dir / ("run-" + kind);
        fs::create_directories(run);
        fs::copy_file(starscope::testing::testDataDir() / "tracer/small/prof_file__0", run / "prof_file__0");
        fs::last_write_time(run / "prof_file__0", fs::file_time_type::clock::now() - std::chrono::hours(1));
        if (kind == "fifo") {
            ASSERT_EQ(::mkfifo((run / "trace.sstrace").c_str(), 0600), 0);
        } else {
            fs::create_directories(run / "trace.sstrace");
        }
        std::string said;
        ASSERT_TRUE(runInChild("readTrace on a run folder with a " + kind + " cache", kSeconds,
                               [&] { return readTraceSays(run); }, said));
        EXPECT_EQ(said, "read") << kind;
    }
}

TEST_F(SpecialInputs, EveryTracerCommandRefusesThem) {
    const auto out = (m_dir / "out").string();
    for (const auto& s : specials()) {
        const std::string p = "'" + s.path.string() + "'";
        for (const std::string& args : {"stats " + p, "stats --json " + p, "barriers " + p, "export --format csv " + p,
                                       "convert " + p + " -o '" + out + "'"}) {
            const auto [status, output] = starscope(args);
            EXPECT_NE(status, 124) << args << ": hung";
            EXPECT_NE(status, 0) << args;
            EXPECT_NE(output.find(refusal(s)), std::string::npos) << args << ": " << output;
        }
    }
    // Several prof files of one run: each is checked.
    const auto prof = (starscope::testing::testDataDir() / "tracer/small/prof_file__0").string();
    const auto [status, output] = starscope("stats '" + prof + "' '" + fifo().string() + "'");
    EXPECT_NE(status, 124) << "hung";
    EXPECT_NE(status, 0);
    EXPECT_NE(output.find(refusal({fifo(), "a FIFO"})), std::string::npos) << output;
}

// compare reads run.json beside the trace: a FIFO there is reported, and the run compared.
TEST_F(SpecialInputs, CompareSaysRunJsonIsAFifo) {
    const auto run = m_dir / "run";
    fs::create_directories(run);
    fs::copy_file(starscope::testing::testDataDir() / "tracer/small/prof_file__0", run / "prof_file__0");
    ASSERT_EQ(::mkfifo((run / "run.json").c_str(), 0600), 0);
    const auto [status, output] = starscope("compare --json '" + run.string() + "'");
    EXPECT_NE(status, 124) << "hung";
    EXPECT_EQ(status, 0) << output;
    EXPECT_NE(output.find((run / "run.json").string() + ": is a FIFO, not a regular file"), std::string::npos)
        << output;
}

TEST_F(SpecialInputs, IdxReaderRefusesThemAndReadsASymlink) {
    using starscope::workloads::IdxFile;
    using starscope::workloads::IdxKind;
    auto all = specials();
    all.push_back({m_dir / "folder", "a folder"});
    for (const auto& s : all) {
        std::string said;
        ASSERT_TRUE(runInChild("IdxFile::open " + s.path.string(), kSeconds, [&] {
            const auto idx = IdxFile::open(s.path, IdxKind::Images);
            return idx ? std::string("opened") : idx.error().describe();
        }, said));
        EXPECT_EQ(said, refusal(s));
    }
    const auto dataset = m_dir / "dataset";
    starscope::workloads::testing::writeTinyDataset(dataset, 4);
    const auto link = m_dir / "images-link";
    fs::create_symlink(dataset / "train-images-idx3-ubyte", link);
    std::string said;
    ASSERT_TRUE(runInChild("IdxFile::open on a symlink", kSeconds, [&] {
        const auto idx = IdxFile::open(link, IdxKind::Images);
        return idx ? std::to_string(idx->count()) : idx.error().describe();
    }, said));
    EXPECT_EQ(said, "4");
}

// `record --dataset DIR` whose training images are a FIFO: refused before anything runs.
TEST_F(SpecialInputs, RecordRefusesAFifoInTheDataset) {
    const auto dataset = m_dir / "dataset";
    starscope::workloads::testing::writeTinyDataset(dataset, 40);
    const auto images = dataset / "train-images-idx3-ubyte";
    fs::remove(images);
    ASSERT_EQ(::mkfifo(images.c_str(), 0600), 0);
    const auto [status, output] =
        starscope("record --dataset '" + dataset.string() + "' --out '" + (m_dir / "run").string() + "'");
    EXPECT_NE(status, 124) << "hung";
    EXPECT_NE(status, 0);
    EXPECT_NE(output.find(refusal({images, "a FIFO"})), std::string::npos) << output;
    EXPECT_FALSE(fs::exists(m_dir / "run"));
}

} // namespace
