#pragma once
// starscope's native trace file, read and written in one place (native_format.cpp holds the
// layout). It lives beside the model, owned by neither side: readTrace reads it and caches run
// folders in it, `export --format native` and `convert` write it.

#include "tracer/model/error.hpp"
#include "tracer/model/read_options.hpp"
#include "tracer/model/trace.hpp"
#include "tracer/native/native_stream.hpp"

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string_view>

namespace starscope::tracer {

// The first bytes of every native file: how readTrace recognises one by its content.
inline constexpr std::string_view kNativeMagic{"SSTRACE\0", 8};
// Native binary format: magic "SSTRACE\0", then a packed version, then the model.
// 2: StarPU-MPI ranks (lane and marker ranks, the rank table, messages).
// 3: data transfers between memory nodes.
// 4: the task each transfer was for; memory-node lanes (LaneKind::MemoryNode).
// 5: the payload's checksum is XXH64 (common/xxhash64.hpp), FNV-1a before: the same payload.
// 6: spans, tasks and dependencies as columns of the model's own records (native_records.hpp),
//    and the codelet key table: checked where they lie in the mapped file (the model reads them
//    there, no copy), checksummed on the way.
inline constexpr std::uint32_t kNativeVersion = 6;

// The checksum that ends a file of this version, over its payload.
std::uint64_t nativeChecksum(std::string_view payload, std::uint32_t version);

void writeNative(const Trace& trace, std::ostream& out);
// Written atomically (temporary file + rename).
TraceResult<Done> writeNativeFile(const Trace& trace, const std::filesystem::path& file);
// A trace streamed as it is made (native_stream.hpp), in memory a few of its records at a time:
// the bytes writeNative writes for collectTrace(stream). An error (InvalidArgument) when a
// column handed another count of records than it announced: out then holds no trace (its
// badbit set) and the file is not written. Once out fails (a full disk), the rest of the payload
// is not written, though the column being written is still made to its end.
TraceResult<Done> writeNative(const TraceStream& stream, std::ostream& out);
TraceResult<Done> writeNativeFile(const TraceStream& stream, const std::filesystem::path& file);

// Reads starscope's native binary format (magic + version); files of an older version are
// upgraded here, newer ones refused.
TraceResult<Trace> readNative(const std::filesystem::path& file, const ReadOptions& options = {});

} // namespace starscope::tracer
