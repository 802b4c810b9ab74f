#pragma once
// A run folder's native cache (RUN/trace.sstrace, written by `starscope convert RUN`): the
// folder's trace while it was made from exactly the folder's prof files, told by a stamp of
// each prof file that the cache carries in its metadata. Part of readTrace, nothing else.

#include "tracer/model/error.hpp"
#include "tracer/model/read_options.hpp"
#include "tracer/model/trace.hpp"

#include <filesystem>
#include <functional>
#include <string_view>
#include <vector>

namespace starscope::tracer {

// Metadata key of a trace read from a run folder's prof files: what it was made from, one line
// per prof file (name, size, modification time, checksum of its first 64 KiB). A native copy
// carries it, so that the folder's trace.sstrace cache can be checked against the folder.
inline constexpr std::string_view kRunSourcesMetadata = "run.sources";

namespace detail {

using ProfFileReader = std::function<TraceResult<Trace>(const std::vector<std::filesystem::path>&)>;

// The folder's trace: its cache when that was made from exactly `profFiles`, else what
// readProfFiles makes of them, stamped. A cache that was not used is named in a warning, and
// rebuilt when it is a regular file (a link or a FIFO is not ours to replace).
TraceResult<Trace> readRunFolder(const std::filesystem::path& folder,
                                 const std::vector<std::filesystem::path>& profFiles,
                                 const ReadOptions& options, const ProfFileReader& readProfFiles);

} // namespace detail

} // namespace starscope::tracer
