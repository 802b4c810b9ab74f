#pragma once
// The settings every recording shares, the CNN's (`record`) and a user's program's (`record --
// PROGRAM`): the run folder, which is also StarPU's STARPU_FXT_PREFIX, and the FxT settings,
// each chosen from an option, the user's StarPU environment or a default, and remembered with
// who chose it, so that the summary and run.json say it and a user's own StarPU variable is
// never overridden silently.

#include "tracer/model/fxt_event_set.hpp"
#include "workloads/error.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace starscope::workloads {

// Who chose a StarPU setting: the summary says so when it was the environment.
enum class SettingSource : std::uint8_t { Option, Environment, Default };

// "option", "environment" or "default", as run.json says who chose a StarPU variable.
const char* settingSourceName(SettingSource source);

// A StarPU environment variable as the run uses it. source Environment: the user's own value,
// left alone; Option or Default: record sets it (from an option or as its default).
struct StarpuVariable {
    std::string name;
    std::string value;
    SettingSource source = SettingSource::Default;
};

// A setting and where it came from; `variable` names the environment variable read.
template <typename T> struct StarpuSetting {
    T value{};
    SettingSource source = SettingSource::Default;
    std::string variable;
};

// "" for an option or a default, " (from STARPU_SCHED)" when the environment chose.
std::string settingOrigin(SettingSource source, const std::string& variable);

// A variable of the environment StarPU reads, when set to something.
std::optional<std::string> environmentValue(const char* name);

// Whether FxT records: --no-trace > STARPU_FXT_TRACE (StarPU reads it as a number: 0 off,
// else on) > on. A traced run with STARPU_FXT_SUFFIX set is refused: StarPU would then name
// its trace <suffix>_<id> instead of prof_file_<user>_<id>, and every reader opens prof_file_*.
WorkloadResult<StarpuSetting<bool>> resolveTrace(bool noTrace);

// The FxT event categories a traced run records: --events (empty: not given) > the user's
// STARPU_FXT_EVENTS > starscope's default (FxtEventSet::starscopeDefault). A StarPU that does
// not select (1.3: starpuSelects false) records every event whatever is asked: the set is then
// all() and `note` says that a choice had no effect (a note, not an error). On 1.4 the set
// applies only because record calls starpu_fxt_autostart_profiling(1) before starpu_init;
// STARPU_FXT_EVENTS alone does nothing (bench/workloads/fxt_categories_1.4.12.md).
struct EventsChoice {
    StarpuSetting<tracer::FxtEventSet> set;
    bool applies = false; // record selects this set in StarPU (false: StarPU records all)
    std::string note;
};
WorkloadResult<EventsChoice> resolveEvents(const std::string& option, bool starpuSelects);

// FxT's buffer in MiB: --buffer-mb (0: not given) > the user's STARPU_TRACE_BUFFER_SIZE >
// fallbackMb. Both are checked against StarPU's range (1 MiB to 1 TiB).
WorkloadResult<StarpuSetting<std::uint64_t>> resolveTraceBuffer(std::uint64_t optionMb,
                                                                std::uint64_t fallbackMb);
inline constexpr std::uint64_t kTraceBufferMaxMb = std::uint64_t{1} << 20;

// StarPU builds the trace file name in a 128-byte buffer: "<prefix>/prof_file_<user>_<id>".
inline constexpr std::size_t kStarpuTracePathMax = 128;

// The run folder, absolute: --out, else a STARPU_FXT_PREFIX the user set (a STARPU_FXT_PREFIX
// naming another folder than --out is refused: every reader opens the run folder, so the
// trace must be written there). Checked as record needs it (creatable or writable, empty
// unless force, not locked, short enough for StarPU's trace path); nothing is created.
struct RunFolderChoice {
    std::filesystem::path dir;
    bool exists = false;
    SettingSource source = SettingSource::Option;
};
WorkloadResult<RunFolderChoice> chooseRunFolder(const std::string& out, bool force);

// The summary's lines "  StarPU env    set: ..." (what record put into StarPU's environment)
// and "  StarPU env    yours: ..." (what it left as the user set it).
void printStarpuEnvironment(std::ostream& out, const std::vector<StarpuVariable>& environment);

} // namespace starscope::workloads
