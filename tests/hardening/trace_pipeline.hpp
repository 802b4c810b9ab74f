#pragma once
// Everything a user can do with a trace a reader accepted: the analysis (summarize,
// findBarriers, computeStats), every exporter, and the native writer read back. The fuzzers
// run it on whatever they decode and FuzzRegressions replays kept inputs through it, since a
// reader that accepts an inconsistent trace crashes here, not in the reader.

#include "tracer/analysis/barriers.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/readers/read_trace.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace starscope::hardening {

// scratch: a file the native copy may be written to (overwritten). Returns false when the
// native copy does not read back equal, which is a bug of the writer or of the reader.
inline bool runTracePipeline(const tracer::Trace& trace, const std::filesystem::path& scratch) {
    using namespace tracer;
    const auto summary = summarize(trace);
    const auto barriers = findBarriers(trace);
    const auto stats = computeStats(trace);
    std::ostringstream sink;
    writePaje(trace, sink);
    writeChromeJson(trace, sink);
    writeSpansCsv(trace, sink);
    writeTasksCsv(trace, sink);
    writeBarriersCsv(barriers, sink, ticksPerSecond(trace));
    {
        std::ofstream out(scratch, std::ios::binary | std::ios::trunc);
        writeNative(trace, out);
    }
    const auto back = readNative(scratch);
    std::filesystem::remove(scratch);
    volatile std::size_t keep = sink.str().size() + stats.lanes.size() + summary.barrierCount;
    (void)keep;
    // The reader names a native file's format when the trace does not.
    auto expected = trace;
    expected.metadata.try_emplace("format", "native");
    return back && *back == expected;
}

} // namespace starscope::hardening
