#pragma once
// Decodes an FxT file with libfxt in a child process and streams its StarPU events back.
// libfxt trusts its input: a damaged file can crash it or make it loop. In a child, a crash
// or a hang becomes an error naming the file and the byte offset libfxt had reached, and the
// caller (the viewer, a CLI command) survives.

#include "tracer/model/error.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>

namespace starscope::tracer::detail {

struct RawEvent {
    std::uint64_t time = 0;       // ns, as recorded
    std::uint64_t origin = 0;     // time of the file's first event (starpu_fxt_tool's zero)
    std::uint64_t code = 0;
    std::uint32_t paramCount = 0;
    // Valid while onEvent runs only: a consumer that keeps an event copies them.
    const std::uint64_t* params = nullptr;
};

struct FxtStreamSummary {
    std::uint64_t events = 0;          // all events, FxT's own included
    std::uint64_t firstTime = 0;       // time of the first event (starpu_fxt_tool's zero)
    std::uint64_t lastTime = 0;
    std::uint64_t bytesRead = 0;
    bool endedEarly = false;           // libfxt reported an error before the end of the trace
    std::uint64_t libfxtComplaints = 0;   // lines libfxt printed about bad events
};

// Calls onEvent for every event whose code is in [firstCode, lastCode], in file order.
// onEvent / progress returning false cancels (ErrorCode::Cancelled).
TraceResult<FxtStreamSummary> streamFxtEvents(const std::filesystem::path& file,
                                              std::uint64_t firstCode, std::uint64_t lastCode,
                                              const std::function<bool(const RawEvent&)>& onEvent,
                                              const std::function<bool(double)>& progress);

} // namespace starscope::tracer::detail
