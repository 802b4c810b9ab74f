#pragma once
// A bounds-checked reader of the FxT file layout libfxt 0.3 writes for 64-bit traces, used
// instead of libfxt when the file has that layout: it is several times faster than libfxt's
// fxt_next_ev (which copies a 2 KB event per call) and cannot crash or loop on damaged input.
//
// Layout, as libfxt 0.3.13 writes and reads it (checked event for event against fxt_next_ev
// on StarPU 1.3.10 traces, tests/tracer/fxt_reader_test.cpp):
//   u32 magic (0x02000000)  u32 headerSize  headerSize bytes (machine, threads)
//   blocks: u64 blockSize (from the block start)  u64 blockKind  events...
//   event:  u64 time (ns)  u64 thread  u64 (code << 8 | paramCount + 1)  paramCount * u64

#include "tracer/readers/fxt/fxt_source.hpp"

#include <optional>
#include <string>

namespace starscope::tracer::detail {

// True when the file starts like a libfxt 0.3 64-bit trace this reader knows.
bool isDirectFxtLayout(const std::filesystem::path& file);

struct DirectFxtProblem {
    std::uint64_t offset = 0;
    std::string what;
};

struct DirectFxtSummary {
    FxtStreamSummary stream;
    std::vector<DirectFxtProblem> problems;   // damage found; the events before it were read
};

TraceResult<DirectFxtSummary> readFxtDirect(const std::filesystem::path& file, std::uint64_t firstCode,
                                            std::uint64_t lastCode,
                                            const std::function<bool(const RawEvent&)>& onEvent,
                                            const std::function<bool(double)>& progress);

} // namespace starscope::tracer::detail
