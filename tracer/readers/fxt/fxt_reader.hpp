#pragma once
// StarPU's FxT prof files (1.3 and 1.4, one or several processes) into the model. Reached
// through readTrace (read_trace.hpp), which checks the model's limits on what this returns.

#include "tracer/model/error.hpp"
#include "tracer/model/read_options.hpp"
#include "tracer/model/trace.hpp"

#include <filesystem>
#include <vector>

namespace starscope::tracer::detail {

// Several files are the processes of one StarPU-MPI run: merged on one clock, lanes prefixed
// with their rank, messages matched.
TraceResult<Trace> readFxt(const std::vector<std::filesystem::path>& files,
                           const ReadOptions& options);

} // namespace starscope::tracer::detail
