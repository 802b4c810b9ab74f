#include "workloads/record/group_signal_witness.hpp"

#include "workloads/sigint_handler.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <string>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace starscope::workloads {

namespace {

// The witness's signals pending for the whole process (a kill(2) to a process or a group), as a
// mask with bit N-1 for signal N; nullopt when it cannot be read.
std::optional<unsigned long long> sharedPending(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("ShdPnd:")) {
            return std::strtoull(line.c_str() + 7, nullptr, 16);
        }
    }
    return std::nullopt;
}

// The witness itself, after fork: only async-signal-safe calls.
[[noreturn]] void witness(pid_t parent) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) {
        ::_exit(0);
    }
    sigset_t stops;
    sigemptyset(&stops);
    for (const int signal : kStopSignals) {
        sigaddset(&stops, signal);
    }
    ::sigprocmask(SIG_BLOCK, &stops, nullptr);
    // Holds none of record's files: a pipe's reader would otherwise wait for the witness too,
    // and the run folder's lock must be released with the program's end.
    const int null = ::open("/dev/null", O_RDWR);
    for (int fd = 0; fd <= 2; ++fd) {
        ::dup2(null, fd);
    }
    ::close_range(3, ~0U, 0);
    while (true) {
        ::pause();
    }
}

} // namespace

std::optional<GroupSignalWitness> GroupSignalWitness::start() {
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        return std::nullopt;
    }
    if (pid == 0) {
        witness(parent);
    }
    return GroupSignalWitness(pid);
}

GroupSignalWitness::GroupSignalWitness(GroupSignalWitness&& other) noexcept : m_pid(other.m_pid) {
    other.m_pid = -1;
}

GroupSignalWitness::~GroupSignalWitness() {
    if (m_pid > 0) {
        ::kill(m_pid, SIGKILL);
        while (::waitpid(m_pid, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
}

bool GroupSignalWitness::received(int signal, std::chrono::milliseconds grace) const {
    const auto bit = 1ULL << (signal - 1);
    const auto deadline = std::chrono::steady_clock::now() + grace;
    while (true) {
        const auto pending = sharedPending(m_pid);
        if (pending && (*pending & bit) != 0) {
            return true;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

} // namespace starscope::workloads
