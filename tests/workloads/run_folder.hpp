#pragma once
// Checks on a recorded run folder: the FxT trace opens and reads with libfxt, and run.json has
// every field with the right type. Also starts `starscope` in the background for the tests
// that signal it.

#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

extern "C" {
#include <fxt/fxt.h>
}

#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace starscope::workloads::testing {

using tracer::findProfFiles;

// Starts args (argv[0] is the program) with stdout and stderr into logPath; -1 when it could
// not start.
inline pid_t spawnLogged(std::vector<std::string> args, const std::string& logPath) {
    std::vector<char*> argv;
    for (auto& arg : args) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    pid_t pid = -1;
    if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) {
        pid = -1;
    }
    posix_spawn_file_actions_destroy(&actions);
    return pid;
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

// Field n (1-based, as in proc(5)) of /proc/PID/stat; 0 when the process is gone.
inline double statField(pid_t pid, int n) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    std::getline(stat, text);
    const auto close = text.rfind(')');
    if (close == std::string::npos) {
        return 0.0;
    }
    std::istringstream fields(text.substr(close + 2));
    std::string field;
    // Fields after the command name start with field 3 (state).
    for (int i = 3; i <= n && fields >> field; ++i) {
        if (i == n) {
            return std::stod(field);
        }
    }
    return 0.0;
}

// User + system CPU time of a process so far.
inline double cpuSeconds(pid_t pid) {
    return (statField(pid, 14) + statField(pid, 15)) / static_cast<double>(::sysconf(_SC_CLK_TCK));
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
