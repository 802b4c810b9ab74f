#pragma once
// Checks on a recorded run folder: the FxT trace opens and reads with libfxt, and run.json has
// every field with the right type. Also starts `starscope` in the background for the tests
// that signal it, and waits until its training is under way.

#include "tracer/readers/read_trace.hpp"
#include "tracer/run_folder/run_folder.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

extern "C" {
#include <fxt/fxt.h>
}

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <spawn.h>
#include <sstream>
#include <string>
#include <string_view>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace starscope::workloads::testing {

using tracer::run::findProfFiles;

// Starts args (argv[0] is the program) with stdout and stderr into logPath; -1 when it could
// not start. With ownGroup, in a process group of its own that it leads (pid == pgid), as a
// shell's job control or a job scheduler starts a command: a signal to that group does not
// reach this test.
inline pid_t spawnLogged(std::vector<std::string> args, const std::string& logPath,
                         bool ownGroup = false) {
    std::vector<char*> argv;
    for (auto& arg : args) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, logPath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    if (ownGroup) {
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&attributes, 0);
    }
    pid_t pid = -1;
    if (posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), environ) != 0) {
        pid = -1;
    }
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return pid;
}

// The children of a process (record's mpirun, mpirun's ranks), from every thread's list.
inline std::vector<pid_t> childrenOf(pid_t parent) {
    std::vector<pid_t> children;
    std::error_code ec;
    for (const auto& task :
         std::filesystem::directory_iterator("/proc/" + std::to_string(parent) + "/task", ec)) {
        std::ifstream in(task.path() / "children");
        for (pid_t pid = 0; in >> pid;) {
            children.push_back(pid);
        }
    }
    return children;
}

// The threads of the child of pid that has the most (0 while it has none): `record -- PROGRAM`'s
// program, whose StarPU workers are threads, beside record's one-thread helper.
inline std::size_t programThreads(pid_t pid) {
    std::size_t most = 0;
    for (const pid_t child : childrenOf(pid)) {
        std::error_code ec;
        std::size_t threads = 0;
        for (auto it = std::filesystem::directory_iterator(
                 "/proc/" + std::to_string(child) + "/task", ec);
             !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
            ++threads;
        }
        most = std::max(most, threads);
    }
    return most;
}

// pid and every process below it (mpirun's ranks lead process groups of their own), by SIGKILL,
// children first seen first killed: what a test leaves when its deadline passes.
inline void killTree(pid_t pid) {
    std::vector<pid_t> all{pid};
    for (std::size_t i = 0; i < all.size(); ++i) {
        const auto below = childrenOf(all[i]);
        all.insert(all.end(), below.begin(), below.end());
    }
    for (const pid_t each : all) {
        ::kill(each, SIGKILL);
    }
}

// Waits for pid, a child of this process, to end and reaps it: its wait status, or nullopt when
// it is still there at the deadline, and then it and everything it started are killed and
// reaped, so that a hang fails the test that waits instead of the whole test run.
inline std::optional<int> waitWithDeadline(pid_t pid, std::chrono::seconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    int status = 0;
    while (std::chrono::steady_clock::now() < deadline) {
        const pid_t ended = ::waitpid(pid, &status, WNOHANG);
        if (ended == pid || (ended < 0 && errno != EINTR)) {
            return status;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    killTree(pid);
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return std::nullopt;
}

// Events libfxt reads from the trace whose code lies in [firstCode, lastCode] (by default every
// event), or -1 when it cannot open it.
inline long fxtEventCount(const std::filesystem::path& file, std::uint64_t firstCode = 0,
                          std::uint64_t lastCode = UINT64_MAX) {
    fxt_t fxt = fxt_open(file.c_str());
    if (fxt == nullptr) {
        return -1;
    }
    fxt_blockev_t block = fxt_blockev_enter(fxt);
    fxt_ev event{};
    long events = 0;
    while (fxt_next_ev(block, FXT_EV_TYPE_64, &event) == FXT_EV_OK) {
        if (event.ev64.code >= firstCode && event.ev64.code <= lastCode) {
            ++events;
        }
    }
    fxt_blockev_leave(block);
    fxt_close(fxt);
    return events;
}

// Whether pid (a child of this process) has ended, without reaping it (waitpid still collects its
// exit status). A process that has ended but is not yet reaped still has /proc/PID/task.
inline bool hasEnded(pid_t pid) {
    siginfo_t info{};
    return ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0
           && info.si_pid == pid;
}

// Batches the run has finished, from the last progress line record writes to a log
// ("progress: epoch 1/5 batch 3/937 loss 2.2931 ETA 0:41 (2 batches done)"); 0 before any.
inline std::size_t batchesDone(const std::string& log) {
    constexpr std::string_view kDone = " batches done)";
    const auto end = log.rfind(kDone);
    if (end == std::string::npos || log.rfind("progress: ", end) == std::string::npos) {
        return 0;
    }
    const auto open = log.rfind('(', end);
    return open == std::string::npos ? 0 : std::stoul(log.substr(open + 1, end - open - 1));
}

// Waits until the record whose stderr goes to `log` (directly, through mpirun, or as a sweep's
// run's record.log) reports a finished batch: the training is under way, so a signal from now on
// stops it after at least one step. Read from record's progress lines, since CPU time and thread
// counts mislead on a loaded machine (a rank waiting for a slower one spins in MPI before its
// first batch). Fails, with the log, when pid ends first or after five minutes.
inline ::testing::AssertionResult waitUntilTraining(const std::filesystem::path& log, pid_t pid) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
    while (std::chrono::steady_clock::now() < deadline) {
        std::ifstream in(log);
        std::ostringstream read;
        read << in.rdbuf();
        const std::string text = read.str();
        if (batchesDone(text) > 0) {
            return ::testing::AssertionSuccess();
        }
        if (hasEnded(pid)) {
            return ::testing::AssertionFailure()
                   << "process " << pid << " ended before a batch finished: " << text;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return ::testing::AssertionFailure() << "no batch finished within five minutes (" << log << ")";
}

inline nlohmann::json readJson(const std::filesystem::path& file) {
    std::ifstream in(file);
    return nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
}

// Every field `record` promises, with its type. Lists what is missing or mistyped.
inline ::testing::AssertionResult validRunJson(const nlohmann::json& run) {
    using nlohmann::json;
    std::string problems;
    const auto check = [&](const json& parent, const std::string& path, const std::string& key,
                           json::value_t type) -> const json* {
        if (!parent.is_object() || !parent.contains(key)) {
            problems += "missing " + path + key + "; ";
            return nullptr;
        }
        const json& value = parent.at(key);
        const bool numberOk = type == json::value_t::number_float && value.is_number();
        const bool unsignedOk = type == json::value_t::number_unsigned && value.is_number_integer()
                                && value.get<long long>() >= 0;
        if (value.type() != type && !numberOk && !unsignedOk) {
            problems += path + key + " has type " + std::string(value.type_name()) + "; ";
            return nullptr;
        }
        return &value;
    };
    using V = json::value_t;
    if (run.is_discarded() || !run.is_object()) {
        return ::testing::AssertionFailure() << "run.json is not a JSON object";
    }
    check(run, "", "format", V::string);
    check(run, "", "version", V::number_unsigned);
    check(run, "", "status", V::string);
    check(run, "", "started_at", V::string);
    if (const auto* strategy = check(run, "", "strategy", V::object)) {
        check(*strategy, "strategy.", "arenas", V::string);
        check(*strategy, "strategy.", "ring_slots", V::number_unsigned);
        check(*strategy, "strategy.", "loader", V::string);
    }
    if (const auto* dataset = check(run, "", "dataset", V::object)) {
        check(*dataset, "dataset.", "dir", V::string);
        check(*dataset, "dataset.", "train_images", V::number_unsigned);
        check(*dataset, "dataset.", "test_images", V::number_unsigned);
    }
    for (const char* key :
         {"batch_size", "epochs", "batches_per_epoch", "chunk", "workers", "batches_run"}) {
        check(run, "", key, V::number_unsigned);
    }
    check(run, "", "scheduler", V::string);
    if (const auto* starpu = check(run, "", "starpu", V::object)) {
        check(*starpu, "starpu.", "version", V::string);
        if (const auto* fxt = check(*starpu, "starpu.", "fxt", V::object)) {
            check(*fxt, "starpu.fxt.", "prefix", V::string);
            check(*fxt, "starpu.fxt.", "buffer_size_mb", V::number_unsigned);
            check(*fxt, "starpu.fxt.", "trace_files", V::array);
        }
    }
    check(run, "", "wall_time_s", V::number_float);
    check(run, "", "total_time_s", V::number_float);
    if (const auto* epochs = check(run, "", "epoch_stats", V::array)) {
        for (const auto& epoch : *epochs) {
            check(epoch, "epoch_stats[].", "loss", V::number_float);
            check(epoch, "epoch_stats[].", "accuracy", V::number_float);
            check(epoch, "epoch_stats[].", "batches", V::number_unsigned);
        }
    }
    if (const auto* test = check(run, "", "test", V::object)) {
        check(*test, "test.", "images", V::number_unsigned);
    }
    if (const auto* tasks = check(run, "", "tasks", V::object)) {
        check(*tasks, "tasks.", "submitted", V::number_unsigned);
        check(*tasks, "tasks.", "executed", V::number_unsigned);
    }
    if (const auto* counters = check(run, "", "counters", V::object)) {
        for (const char* kind : {"papi", "energy"}) {
            const std::string path = std::string("counters.") + kind + ".";
            if (const auto* c = check(*counters, "counters.", kind, V::object)) {
                const auto* available = check(*c, path, "available", V::boolean);
                if (available != nullptr && !available->get<bool>()) {
                    const auto* reason = check(*c, path, "reason", V::string);
                    if (reason != nullptr && reason->get<std::string>().empty()) {
                        problems += path + "reason is empty; ";
                    }
                }
            }
        }
    }
    if (const auto* arenas = check(run, "", "arenas", V::array)) {
        if (arenas->empty()) {
            problems += "arenas is empty; ";
        }
        for (const auto& arena : *arenas) {
            check(arena, "arenas[].", "name", V::string);
            check(arena, "arenas[].", "peak_bytes", V::number_unsigned);
            if (const auto* sde = check(arena, "arenas[].", "sde", V::object)) {
                check(*sde, "arenas[].sde.", "available", V::boolean);
            }
        }
    }
    check(run, "", "peak_arena_bytes", V::object);
    if (problems.empty()) {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << problems;
}

} // namespace starscope::workloads::testing
