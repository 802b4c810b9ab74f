#include "workloads/record/run_settings.hpp"

#include "tracer/run_folder/run_folder.hpp"
#include "workloads/record/folder_lock.hpp"

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <unistd.h>

namespace starscope::workloads {

namespace fs = std::filesystem;

namespace {

Unexpected<WorkloadError> badFlag(const std::string& flag, std::string message) {
    return workloadError(ErrorCode::InvalidArgument, std::move(message), flag);
}

// A user's STARPU_TRACE_BUFFER_SIZE (MiB, as StarPU reads it) wins over record's sizing.
WorkloadResult<std::optional<std::uint64_t>> userTraceBuffer() {
    const auto text = environmentValue("STARPU_TRACE_BUFFER_SIZE");
    if (!text) {
        return std::optional<std::uint64_t>();
    }
    std::uint64_t mb = 0;
    const char* end = text->data() + text->size();
    const auto [ptr, ec] = std::from_chars(text->data(), end, mb);
    if (ec != std::errc{} || ptr != end || mb < 1 || mb > kTraceBufferMaxMb) {
        return workloadError(ErrorCode::InvalidArgument,
                             "'" + *text
                                 + "' is not a buffer size in MiB from 1 to 1048576: correct or "
                                   "unset it (record then sizes the buffer for the run)",
                             "STARPU_TRACE_BUFFER_SIZE");
    }
    return std::optional<std::uint64_t>(mb);
}

// The folder a path names, for comparing two spellings of it ("runs/a/", "./runs/a", a
// symlink to it).
fs::path comparablePath(const fs::path& path) {
    std::error_code ec;
    fs::path out = fs::weakly_canonical(fs::absolute(path, ec), ec);
    if (ec) {
        out = fs::absolute(path, ec).lexically_normal();
    }
    if (!out.has_filename() && out.has_relative_path()) {
        out = out.parent_path();
    }
    return out;
}

WorkloadResult<fs::path> checkOutput(const std::string& out, bool force, bool& exists) {
    if (out.empty()) {
        return badFlag("--out", "missing: name the run folder to write (e.g. --out "
                                "runs/single-naive), or set STARPU_FXT_PREFIX to it");
    }
    std::error_code ec;
    fs::path dir = fs::absolute(out, ec).lexically_normal();
    if (ec) {
        return workloadError(ErrorCode::Io, "cannot resolve the path: " + ec.message(), out);
    }
    // "runs/a/" is the folder runs/a: run.json and the summary name it without the slash.
    if (!dir.has_filename() && dir.has_relative_path()) {
        dir = dir.parent_path();
    }
    const char* user = std::getenv("USER");
    // The longest name StarPU may give it, with its separating slash (ids have 10 digits at most).
    const std::size_t traceName = 1 + tracer::run::profFileName(user != nullptr ? user : "", 9'999'999'999).size();
    if (dir.string().size() + traceName >= kStarpuTracePathMax) {
        return workloadError(ErrorCode::InvalidArgument,
                             "path too long: StarPU keeps the trace file path in "
                                 + std::to_string(kStarpuTracePathMax)
                                 + " bytes; choose a shorter --out",
                             dir.string());
    }
    exists = fs::exists(dir, ec);
    if (exists) {
        if (!fs::is_directory(dir, ec)) {
            return workloadError(ErrorCode::Io, "exists and is not a folder (--out)", dir.string());
        }
        if (const auto holder = folderLockHolder(dir)) {
            return fail(lockedFolderError(dir, "run folder", *holder));
        }
        if (!force && !isEmptyRunFolder(dir)) {
            return workloadError(ErrorCode::Io,
                                 "run folder already exists and is not empty: pass --force to "
                                 "overwrite it, or choose another --out",
                                 dir.string());
        }
        if (::access(dir.c_str(), W_OK | X_OK) != 0) {
            return workloadError(ErrorCode::Io,
                                 std::string("run folder is not writable: ") + std::strerror(errno),
                                 dir.string());
        }
        return dir;
    }
    fs::path parent = dir.parent_path();
    while (!parent.empty() && !fs::exists(parent, ec)) {
        parent = parent.parent_path();
    }
    if (parent.empty() || !fs::is_directory(parent, ec)) {
        return workloadError(
            ErrorCode::Io, "cannot create the run folder: " + parent.string() + " is not a folder",
            dir.string());
    }
    if (::access(parent.c_str(), W_OK | X_OK) != 0) {
        return workloadError(ErrorCode::Io,
                             "cannot create the run folder: " + parent.string()
                                 + " is not writable (" + std::strerror(errno) + ")",
                             dir.string());
    }
    return dir;
}

// --no-trace > STARPU_FXT_TRACE (StarPU reads it as a number: 0 off, else on) > on.
WorkloadResult<StarpuSetting<bool>> traceSwitch(bool noTrace) {
    if (noTrace) {
        return StarpuSetting<bool>{false, SettingSource::Option, {}};
    }
    if (const auto text = environmentValue("STARPU_FXT_TRACE")) {
        long value = 0;
        const char* end = text->data() + text->size();
        const auto [ptr, ec] = std::from_chars(text->data(), end, value);
        if (ec != std::errc{} || ptr != end) {
            return workloadError(ErrorCode::InvalidArgument,
                                 "'" + *text
                                     + "' is not a number (0: no trace, 1: trace): correct or "
                                       "unset it, or pass --no-trace",
                                 "STARPU_FXT_TRACE");
        }
        return StarpuSetting<bool>{value != 0, SettingSource::Environment, "STARPU_FXT_TRACE"};
    }
    return StarpuSetting<bool>{true, SettingSource::Default, {}};
}

} // namespace

const char* settingSourceName(SettingSource source) {
    switch (source) {
    case SettingSource::Option:
        return "option";
    case SettingSource::Environment:
        return "environment";
    case SettingSource::Default:
        return "default";
    }
    return "default";
}

std::string settingOrigin(SettingSource source, const std::string& variable) {
    return source == SettingSource::Environment ? " (from " + variable + ")" : std::string();
}

// A variable of the environment StarPU reads, when set to something.
std::optional<std::string> environmentValue(const char* name) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') {
        return std::nullopt;
    }
    return std::string(value);
}

WorkloadResult<StarpuSetting<std::uint64_t>> resolveTraceBuffer(std::uint64_t optionMb,
                                                                std::uint64_t fallbackMb) {
    if (optionMb != 0) {
        if (optionMb > kTraceBufferMaxMb) {
            return badFlag("--buffer-mb", "at most " + std::to_string(kTraceBufferMaxMb)
                                              + " MiB (got " + std::to_string(optionMb) + ")");
        }
        return StarpuSetting<std::uint64_t>{optionMb, SettingSource::Option, {}};
    }
    auto user = userTraceBuffer();
    if (!user) {
        return fail(user.error());
    }
    if (*user) {
        return StarpuSetting<std::uint64_t>{**user, SettingSource::Environment,
                                            "STARPU_TRACE_BUFFER_SIZE"};
    }
    return StarpuSetting<std::uint64_t>{fallbackMb, SettingSource::Default, {}};
}

WorkloadResult<StarpuSetting<bool>> resolveTrace(bool noTrace) {
    auto trace = traceSwitch(noTrace);
    if (trace && trace->value && environmentValue("STARPU_FXT_SUFFIX")) {
        return workloadError(
            ErrorCode::InvalidArgument,
            "is set, so StarPU would not name the trace " + std::string(tracer::run::kProfFilePrefix)
                + "*, which is what every reader of a run folder opens: unset it",
            "STARPU_FXT_SUFFIX");
    }
    return trace;
}

WorkloadResult<EventsChoice> resolveEvents(const std::string& option, bool starpuSelects) {
    EventsChoice choice;
    choice.set = {tracer::FxtEventSet::starscopeDefault(), SettingSource::Default, {}};
    std::string flag = "--events";
    std::optional<std::string> text;
    if (!option.empty()) {
        text = option;
        choice.set.source = SettingSource::Option;
    } else if ((text = environmentValue("STARPU_FXT_EVENTS"))) {
        flag = "STARPU_FXT_EVENTS";
        choice.set.source = SettingSource::Environment;
        choice.set.variable = flag;
    }
    if (text) {
        std::string error;
        const auto parsed = tracer::FxtEventSet::parse(*text, &error);
        if (!parsed) {
            return badFlag(flag, error);
        }
        choice.set.value = *parsed;
    }
    if (!starpuSelects) {
        if (text) {
            choice.note = flag + " has no effect: this StarPU (1.3) records every FxT event";
        }
        choice.set.value = tracer::FxtEventSet::all();
        return choice;
    }
    // StarPU records all() when nothing selects, so "all" needs no call at all.
    choice.applies = !choice.set.value.isAll();
    return choice;
}

WorkloadResult<RunFolderChoice> chooseRunFolder(const std::string& out, bool force) {
    RunFolderChoice choice;
    const auto prefix = environmentValue("STARPU_FXT_PREFIX");
    choice.source = out.empty() && prefix ? SettingSource::Environment : SettingSource::Option;
    auto dir = checkOutput(choice.source == SettingSource::Environment ? *prefix : out, force,
                           choice.exists);
    if (!dir) {
        return fail(dir.error());
    }
    choice.dir = *dir;
    if (prefix && comparablePath(*prefix) != comparablePath(choice.dir)) {
        return workloadError(ErrorCode::InvalidArgument,
                             "names " + *prefix + ", but the run folder (--out) is "
                                 + choice.dir.string()
                                 + ": the trace must go into the run folder, which is what every "
                                   "reader opens; unset STARPU_FXT_PREFIX, or pass the same folder "
                                   "as --out",
                             "STARPU_FXT_PREFIX");
    }
    return choice;
}

// What record put into StarPU's environment, and what it left as the user set it.
void printStarpuEnvironment(std::ostream& out, const std::vector<StarpuVariable>& environment) {
    for (const bool users : {false, true}) {
        std::string line;
        for (const auto& v : environment) {
            if ((v.source == SettingSource::Environment) == users) {
                line += " " + v.name + "=" + v.value;
            }
        }
        if (!line.empty()) {
            out << (users ? "  StarPU env    yours:" : "  StarPU env    set:") << line << "\n";
        }
    }
}

} // namespace starscope::workloads
