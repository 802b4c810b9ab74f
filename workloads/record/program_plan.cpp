#include "workloads/record/program_plan.hpp"

#include "workloads/record/mpi_launch.hpp"
#include "workloads/record/mpi_presence.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

extern char** environ;

namespace starscope::workloads {

namespace fs = std::filesystem;

namespace {

// Why path cannot be run, or empty when it can.
std::string notRunnable(const fs::path& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        return std::strerror(errno);
    }
    if (S_ISDIR(info.st_mode)) {
        return "is a folder";
    }
    if (!S_ISREG(info.st_mode)) {
        return "is not a regular file";
    }
    if (::access(path.c_str(), X_OK) != 0) {
        return "is not executable (" + std::string(std::strerror(errno)) + ")";
    }
    return {};
}

// The variables the program sees from this environment that StarPU reads: STARPU_* (StarPU's
// own) and those record sets, each once.
void addUsersStarpuVariables(std::vector<StarpuVariable>& out) {
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
        const std::string text(*entry);
        const auto equals = text.find('=');
        if (!text.starts_with("STARPU_") || equals == std::string::npos) {
            continue;
        }
        const std::string name = text.substr(0, equals);
        const bool known = std::any_of(out.begin(), out.end(),
                                       [&](const StarpuVariable& v) { return v.name == name; });
        if (!known) {
            out.push_back({name, text.substr(equals + 1), SettingSource::Environment});
        }
    }
}

// The library record preloads into a traced program (record/fxt_events_preload.cpp and
// record/fxt_thread_id.cpp), in the folder of the recorder executable that runs record
// (cli/recorder_main.cpp): lib/starscope of an installation, and of the build tree, which puts
// both there. Only there: a build-tree path compiled in would be looked at by an installed
// recorder too, and once that tree is gone whoever can write there would run code in every
// program recorded.
constexpr const char* kFxtPreloadName = "libstarscope_fxt_preload.so";
std::optional<fs::path> fxtPreload() {
    std::error_code ec;
    const auto self = fs::read_symlink("/proc/self/exe", ec);
    if (ec) {
        return std::nullopt;
    }
    auto beside = self.parent_path() / kFxtPreloadName;
    if (!fs::is_regular_file(beside, ec)) {
        return std::nullopt;
    }
    return beside;
}

// A StarPU variable record sets, unless the user set it (then theirs, which planProgramRecord
// has checked).
StarpuVariable recordOrUsers(const char* name, std::string value, SettingSource source) {
    if (source != SettingSource::Environment) {
        return {name, std::move(value), source};
    }
    return {name, environmentValue(name).value_or(value), SettingSource::Environment};
}

} // namespace

WorkloadResult<fs::path> resolveProgram(const std::string& program) {
    if (program.empty()) {
        return workloadError(
            ErrorCode::InvalidArgument,
            "missing: give the program to record after `--` (starscope record --out RUN -- "
            "PROGRAM ARGS...)",
            "PROGRAM");
    }
    if (program.find('/') != std::string::npos) {
        if (const auto why = notRunnable(program); !why.empty()) {
            return workloadError(ErrorCode::InvalidArgument, "cannot run the program: " + why,
                                 program);
        }
        std::error_code ec;
        return fs::absolute(program, ec).lexically_normal();
    }
    const char* path = std::getenv("PATH");
    std::string folders = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
    std::string firstProblem;
    std::size_t start = 0;
    while (start <= folders.size()) {
        const auto colon = folders.find(':', start);
        std::string folder =
            folders.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        start = colon == std::string::npos ? folders.size() + 1 : colon + 1;
        const fs::path candidate = fs::path(folder.empty() ? "." : folder) / program;
        std::error_code ec;
        if (!fs::exists(candidate, ec)) {
            continue;
        }
        if (const auto why = notRunnable(candidate); why.empty()) {
            return fs::absolute(candidate, ec).lexically_normal();
        } else if (firstProblem.empty()) {
            firstProblem = candidate.string() + " " + why;
        }
    }
    return workloadError(ErrorCode::InvalidArgument,
                         firstProblem.empty()
                             ? "not found in PATH (give its path, e.g. ./" + program + ")"
                             : "cannot run the program: " + firstProblem,
                         program);
}

WorkloadResult<ProgramPlan> planProgramRecord(const ProgramOptions& options) {
    ProgramPlan plan;
    plan.options = options;
    if (startedByMpiLauncher()) {
        return workloadError(
            ErrorCode::InvalidArgument,
            "started by an MPI launcher: with a PROGRAM, record is not a rank itself; start "
            "the launcher under record instead (starscope record --out RUN -- mpirun -np N "
            "PROGRAM ...), or use --ranks N on this machine",
            "PROGRAM");
    }
    auto executable = resolveProgram(options.argv.empty() ? std::string() : options.argv.front());
    if (!executable) {
        return fail(executable.error());
    }
    plan.executable = *executable;
    std::error_code ec;
    plan.cwd = fs::current_path(ec);
    if (ec) {
        return workloadError(ErrorCode::Io, "cannot read the current folder: " + ec.message());
    }
    auto trace = resolveTrace(options.noTrace);
    if (!trace) {
        return fail(trace.error());
    }
    plan.trace = std::move(trace.value());
    if (plan.trace.value) {
        auto buffer = resolveTraceBuffer(options.bufferMb, kProgramTraceBufferMb);
        if (!buffer) {
            return fail(buffer.error());
        }
        plan.traceBuffer = std::move(buffer.value());
    }
    // Which StarPU the program loads is its own business: a 1.3 one ignores the set.
    auto events = resolveEvents(options.events, true);
    if (!events) {
        return fail(events.error());
    }
    plan.events = std::move(events.value());
    plan.events.applies = plan.events.applies && plan.trace.value;
    std::vector<std::string> argv = options.argv;
    argv.front() = plan.executable.string();
    if (options.ranks > 1) {
        auto mpirun = resolveProgram("mpirun");
        if (!mpirun) {
            return workloadError(
                ErrorCode::InvalidArgument,
                "runs the program under mpirun, which is not found in PATH (install Open MPI: "
                "apt-get install openmpi-bin)",
                "--ranks");
        }
        plan.childArgv = mpirunCommand(options.ranks, argv);
        plan.childArgv.front() = mpirun->string();
    } else {
        plan.childArgv = std::move(argv);
    }
    auto out = chooseRunFolder(options.out, options.force);
    if (!out) {
        return fail(out.error());
    }
    plan.folder = std::move(out.value());

    plan.environment.push_back(
        recordOrUsers("STARPU_FXT_TRACE", plan.trace.value ? "1" : "0", plan.trace.source));
    if (plan.trace.value) {
        plan.environment.push_back(
            {"STARPU_FXT_PREFIX", plan.folder.dir.string(), plan.folder.source});
        plan.environment.push_back(recordOrUsers("STARPU_TRACE_BUFFER_SIZE",
                                                 std::to_string(plan.traceBuffer.value),
                                                 plan.traceBuffer.source));
    }
    const auto preload = plan.trace.value ? fxtPreload() : std::nullopt;
    if (plan.events.applies && !preload) {
        plan.events.applies = false;
        plan.events.note = plan.events.set.value.text() + " not applied: " + kFxtPreloadName
                           + " is not beside the recorder executable (lib/starscope), so the "
                             "program records every event";
        plan.events.set.value = tracer::FxtEventSet::all();
    }
    if (plan.events.applies) {
        plan.environment.push_back(recordOrUsers("STARPU_FXT_EVENTS", plan.events.set.value.text(),
                                                 plan.events.set.source));
    }
    if (preload) {
        // After the user's own preloads, which stay.
        const auto users = environmentValue("LD_PRELOAD");
        plan.environment.push_back({"LD_PRELOAD",
                                    (users ? *users + ":" : std::string()) + preload->string(),
                                    SettingSource::Default});
    }
    if (options.ranks > 1 && !environmentValue("STARPU_WORKERS_NOBIND")) {
        // setMpirunDefaults sets it: ranks on one machine share its cores.
        plan.environment.push_back({"STARPU_WORKERS_NOBIND", "1", SettingSource::Default});
    }
    addUsersStarpuVariables(plan.environment);
    return plan;
}

} // namespace starscope::workloads
