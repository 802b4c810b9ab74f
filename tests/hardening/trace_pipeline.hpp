#pragma once
// Everything a user can do with a trace a reader accepted: the analysis (summarize,
// findBarriers, computeStats), every exporter, and the native writer read back. The fuzzers
// run it on whatever they decode and FuzzRegressions replays kept inputs through it, since a
// reader that accepts an inconsistent trace crashes here, not in the reader.

#include "tracer/analysis/barriers.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/native/native_format.hpp"
#include "tracer/readers/read_trace.hpp"

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <sstream>

namespace starscope::hardening {

// What went wrong, or nullopt. scratch: a file the native copy may be written to (overwritten).
// Figures that are times summed over lanes are never negative (a negative one is an overflow
// or time counted twice), and the native copy reads back equal.
inline std::optional<std::string> runTracePipeline(const tracer::Trace& trace, const std::filesystem::path& scratch) {
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
    const auto negative = [](const ClassTimes& t) {
        return t.executing < 0 || t.sleeping < 0 || t.overhead < 0 || t.user < 0 || t.notProfiled < 0 || t.idle < 0;
    };
    if (negative(stats.workers) || negative(summary.workerTotals)) {
        return "a worker time total is negative";
    }
    for (const auto& lane : stats.lanes) {
        if (negative(lane.classes)) {
            return "a time of lane " + std::to_string(lane.lane) + " is negative";
        }
    }
    if (!back) {
        return "its native copy does not read: " + back.error().describe();
    }
    // The reader names a native file's format when the trace does not.
    auto expected = trace;
    expected.metadata.try_emplace("format", "native");
    if (*back != expected) {
        return "its native copy does not read back equal";
    }
    return std::nullopt;
}

} // namespace starscope::hardening
