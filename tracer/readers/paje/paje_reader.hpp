#pragma once
// Any Paje trace (event definitions with arbitrary ids, unsorted input, ...) into the model.
// Reached through readTrace (read_trace.hpp), which checks the model's limits on what this
// returns.

#include "tracer/model/error.hpp"
#include "tracer/model/read_options.hpp"
#include "tracer/model/trace.hpp"

#include <filesystem>

namespace starscope::tracer {

TraceResult<Trace> readPaje(const std::filesystem::path& file, const ReadOptions& options = {});

} // namespace starscope::tracer
