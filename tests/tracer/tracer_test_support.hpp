#pragma once
// Helpers for the tracer tests: the golden traces, hand-built traces, and state totals to
// compare readers (recording fresh traces: recording_support.hpp).

#include "tracer/model/trace.hpp"
#include "tracer/readers/fxt/fxt_source.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace starscope::tracer::testing {

// tests/data/tracer/small: prof_file__0 (3 batches of 6 tasks, gated barriers between
// batches) and the paje.trace starpu_fxt_tool 1.3.10 made from it.
std::filesystem::path smallRun();
std::filesystem::path smallProfFile();
std::filesystem::path smallPaje();
// Golden run folders of other StarPU versions and runs, with the paje.trace of their own
// starpu_fxt_tool (tests/data/tracer/README.md): "small14", "masked13", "masked14".
std::filesystem::path goldenRun(const std::string& name);

// Our reading of prof files against the same StarPU version's starpu_fxt_tool conversion of
// them: the same workers (per rank) and executed tasks, per-worker executing within 1 %, and
// sleeping within 1 % where profiling ran. Where it was stopped, starpu_fxt_tool draws each
// worker's last state on; there ours must be "Not profiled" and sleeping can only be less.
void expectSameWorkAsStarpuFxtTool(const Trace& ours, const Trace& tool);

// Prof files of a StarPU-MPI run of `ranks` ranks against starpu_fxt_tool -i's paje.trace of
// them: every rank with its sync point and workers, expectSameWorkAsStarpuFxtTool, each rank's
// clock within 10 us of the tool's (clockDifferences), and the tool's MPIL links as messages.
// Prints each worker's executing and sleeping totals and each rank's clock offset beside the
// tool's, for the record of the comparison.
void expectSameRanksAsStarpuFxtTool(const Trace& ours, const Trace& tool, const std::filesystem::path& paje,
                                    std::size_t ranks);
// MPI messages a Paje trace draws: its PajeStartLink events of type MPIL, wherever its event
// definition puts the Type field.
std::size_t toolMessageLinks(const std::filesystem::path& paje);

// Per rank (-1 for a one-process trace), how far our clock is from starpu_fxt_tool's: the
// median over the tasks both traces ran of (our start - its start), in ns. A rank whose clock
// offset differs from the tool's by d shows d here.
std::map<std::int32_t, TimeNs> clockDifferences(const Trace& ours, const Trace& tool);

// A trace of `lanes` CPU lanes of `spans` spans each, span i from period * i for period / 2,
// its state i % states (states "State 0", ...): big files for the readers' memory tests.
Trace regularLanes(std::size_t lanes, std::size_t spans, TimeNs period, std::uint32_t states);

// Total time per (worker id, level, state name) over worker lanes.
using StateTotals = std::map<std::tuple<std::int32_t, std::size_t, std::string>, TimeNs>;
StateTotals workerStateTotals(const Trace& trace);

// A hand-built trace: lanes of (state name, start, end) spans on level 0.
struct SpanSpec {
    std::string state;
    TimeNs start;
    TimeNs end;
};
struct LaneSpec {
    std::string name;
    LaneKind kind = LaneKind::CpuWorker;
    std::vector<SpanSpec> spans;
};
// States "Executing" are executing, "Sleeping" sleeping, "Trace flush" tracing, "Not profiled"
// not profiled, others overhead
// (user on the main thread). Every Executing span gets a task with a new job id (1, 2, ...).
Trace makeTrace(const std::vector<LaneSpec>& lanes, TimeNs end);
void addMarker(Trace& trace, TimeNs time, markers::Kind kind, int epoch, int batch);

// An FxT event copied out of a decoder's callback (whose parameters point into the file), so
// that tests compare the events of two walks.
struct CopiedEvent {
    std::uint64_t time;
    std::uint64_t origin;
    std::uint64_t code;
    std::vector<std::uint64_t> params;
    bool operator==(const CopiedEvent&) const = default;
};
inline CopiedEvent copyOf(const detail::RawEvent& ev) {
    return CopiedEvent{ev.time, ev.origin, ev.code, {ev.params, ev.params + ev.paramCount}};
}

} // namespace starscope::tracer::testing
