#include "tests/support/test_support.hpp"

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace starscope::testing {

namespace fs = std::filesystem;

TempDir::TempDir() {
    std::random_device device;
    const auto base = fs::temp_directory_path();
    for (int attempt = 0; attempt < 100; ++attempt) {
        auto candidate = base / ("starscope-test-" + std::to_string(::getpid()) + "-"
                                 + std::to_string(device()));
        if (fs::create_directory(candidate)) {
            m_path = std::move(candidate);
            return;
        }
    }
    throw std::runtime_error("TempDir: could not create a folder under " + base.string());
}

TempDir::~TempDir() {
    std::error_code ignored;
    fs::remove_all(m_path, ignored);
}

fs::path sourceDir() { return STARSCOPE_SOURCE_DIR; }
fs::path testDataDir() { return STARSCOPE_TEST_DATA_DIR; }

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw std::runtime_error("cannot read " + path.string());
    }
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::size_t residentFileKib() {
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "RssFile:") {
            std::size_t kib = 0;
            status >> kib;
            return kib;
        }
    }
    return 0;
}

::testing::AssertionResult writeSparseFile(const fs::path& path, const std::string& head,
                                           std::uintmax_t apparentSize) {
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(head.data(), static_cast<std::streamsize>(head.size()));
        if (!out) {
            return ::testing::AssertionFailure() << "cannot write " << path;
        }
    }
    std::error_code ec;
    fs::resize_file(path, apparentSize, ec);
    if (ec) {
        return ::testing::AssertionFailure() << "cannot extend " << path << " to " << apparentSize
                                             << " bytes: " << ec.message();
    }
    return ::testing::AssertionSuccess();
}

int runCommand(const std::string& command) {
    const int status = std::system(command.c_str());
    if (status == -1 || !WIFEXITED(status)) {
        return -1;
    }
    return WEXITSTATUS(status);
}

::testing::AssertionResult runInChild(const std::string& what, unsigned seconds,
                                      const std::function<std::string()>& fn, std::string& out) {
    int pipeFds[2];
    if (::pipe(pipeFds) != 0) {
        return ::testing::AssertionFailure() << what << ": pipe failed";
    }
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(pipeFds[0]);
        ::alarm(seconds);
        const std::string text = fn();
        std::size_t done = 0;
        while (done < text.size()) {
            const ssize_t n = ::write(pipeFds[1], text.data() + done, text.size() - done);
            if (n <= 0) {
                break;
            }
            done += static_cast<std::size_t>(n);
        }
        ::_exit(0);
    }
    ::close(pipeFds[1]);
    if (pid < 0) {
        ::close(pipeFds[0]);
        return ::testing::AssertionFailure() << what << ": fork failed";
    }
    out.clear();
    char buffer[4096];
    for (ssize_t n; (n = ::read(pipeFds[0], buffer, sizeof buffer)) > 0;) {
        out.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(pipeFds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) {
        return ::testing::AssertionFailure()
               << what << (WTERMSIG(status) == SIGALRM ? ": hung (no answer within " + std::to_string(seconds) + " s)"
                                                       : ": crashed (signal " + std::to_string(WTERMSIG(status)) + ")");
    }
    return ::testing::AssertionSuccess();
}

::testing::AssertionResult matchesGolden(const std::string& actual, const fs::path& relativePath) {
    const auto golden = testDataDir() / relativePath;
    const char* update = std::getenv("STARSCOPE_UPDATE_GOLDEN");
    if (update != nullptr && std::string(update) == "1") {
        fs::create_directories(golden.parent_path());
        std::ofstream(golden, std::ios::binary) << actual;
        return ::testing::AssertionSuccess() << "regenerated " << golden;
    }
    std::string expected;
    try {
        expected = readFile(golden);
    } catch (const std::exception&) {
        return ::testing::AssertionFailure()
               << "golden file " << golden << " is missing; run with STARSCOPE_UPDATE_GOLDEN=1";
    }
    if (expected == actual) {
        return ::testing::AssertionSuccess();
    }
    auto actualPath = golden;
    actualPath += ".actual";
    std::ofstream(actualPath, std::ios::binary) << actual;
    TempDir scratch;
    const auto diffPath = scratch / "diff.txt";
    runCommand("diff -u '" + golden.string() + "' '" + actualPath.string() + "' > '"
               + diffPath.string() + "' 2>&1");
    return ::testing::AssertionFailure() << "differs from golden " << golden << " (actual in "
                                         << actualPath << "):\n"
                                         << readFile(diffPath);
}

GpuRecording recordGpuExample(const fs::path& dir, const std::string& machine, const std::string& example) {
    const auto script = sourceDir() / "scripts" / "record_gpu_traces.sh";
    const auto log = dir / "record.log";
    const int status = runCommand("bash '" + script.string() + "' '" + dir.string() + "' " + machine + " " + example + " > '"
                                  + log.string() + "' 2>&1");
    GpuRecording out;
    out.log = readFile(log);
    // 77: the script's "no SimGrid build" (the tests' skip), a failure where CI has the build.
    const char* ci = std::getenv("CI");
    if (status == 77 && !(ci != nullptr && std::string(ci) == "true")) {
        out.skipped = true;
        return out;
    }
    if (status == 77) {
        out.log = "CI's GPU leg needs StarPU's SimGrid build: " + out.log;
    }
    out.ok = status == 0;
    if (out.ok) {
        out.run = dir / machine / example;
    }
    return out;
}

} // namespace starscope::testing
