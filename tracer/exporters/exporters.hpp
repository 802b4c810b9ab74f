#pragma once
// Writing a trace out: Paje (pj_dump / ViTE read it), Chrome trace JSON (Perfetto,
// chrome://tracing: one track per lane) and CSV tables. starscope's native binary format is
// not an exporter's: tracer/native/native_format.hpp reads and writes it.

#include "tracer/analysis/barriers.hpp"
#include "tracer/analysis/codelet_stats.hpp"
#include "tracer/model/error.hpp"
#include "tracer/model/time_unit.hpp"
#include "tracer/model/trace.hpp"

#include <filesystem>
#include <ostream>
#include <string_view>
#include <vector>

namespace starscope::tracer {

// Paje in StarPU's container hierarchy, names and colours (starpu_paje.c): one program per
// process (rank prefix "0_"), memory nodes, threads and workers "W" with state type "WS", user
// threads "UT" with "US"; every span as a Push/Pop pair so nested levels survive, running
// tasks with their JobId, task dependencies as links, markers and barriers as events, StarPU's
// nsubmitted variable. Times in milliseconds with the decimals the trace's unit needs. Our
// Paje reader reads it back to the same lanes, spans, tasks and markers.
void writePaje(const Trace& trace, std::ostream& out);
// The %EventDef block writePaje's files start with: the id and field order of each event line
// it writes. Hand-written Paje traces (tests, benchmarks) start with it too rather than retype
// it.
std::string_view pajeEventDefinitions();

// Chrome trace-event JSON: one thread track per lane ("X" complete events), markers as
// instant events, lanes named with metadata events, task dependencies as flow events.
// Times are exact decimals of the trace's integer ticks.
void writeChromeJson(const Trace& trace, std::ostream& out);

// CSV tables with a header line; times in ns.
void writeSpansCsv(const Trace& trace, std::ostream& out); // lane,level,state,class,start,end,task
void writeTasksCsv(const Trace& trace,
                   std::ostream& out); // job,codelet,worker,submit,start,end,deps
// One row per codelet and kind of worker (kind "all" first, then CPU, CUDA, other as they ran
// it): codelet,internal,kind,tasks,total_ns,mean_ns,median_ns,min_ns,max_ns (codelet_stats.hpp).
void writeCodeletsCsv(const std::vector<CodeletStats>& codelets, std::ostream& out,
                      std::int64_t ticksPerSecond = kNsPerSecond);
// Times in ns (with decimals when the trace's ticks are finer: pass ticksPerSecond(trace)).
// rank -1 is a barrier across the job; cause as causeName() spells it.
void writeBarriersCsv(const std::vector<Barrier>& barriers, std::ostream& out,
                      std::int64_t ticksPerSecond = kNsPerSecond);

} // namespace starscope::tracer
