#pragma once
// Checks that a golden run's test and the same test on a trace recorded now share: our FxT
// reader against our Paje reader on starpu_fxt_tool's conversion of the same prof file, and the
// handling of a run whose profiling was stopped and restarted.

#include "tracer/model/trace.hpp"

#include <filesystem>

namespace starscope::tracer::testing {

// The same two workers, per-worker state totals within 0.1 %, and every executed task with the
// same times, worker, codelet and footprint in both.
void expectFxtMatchesPaje(const Trace& fxt, const Trace& paje);

// For a run folder holding prof_file__0 with a stop_profiling / start_profiling pair and its
// own StarPU version's paje.trace: every worker "Not profiled" in between and nothing else, the
// same work as starpu_fxt_tool, no barrier and no efficiency counting that time, and a warning.
void expectProfilingMaskHonoured(const std::filesystem::path& run);

} // namespace starscope::tracer::testing
