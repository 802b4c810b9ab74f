#pragma once
// The whole trace squeezed into the overview strip's columns: per column, the time every
// worker together spent in each state, from the lanes' prefix sums (no span is visited), so
// the strip costs O(columns * workers * log(spans)) however long the trace.

#include "tracer/model/trace.hpp"
#include "viewer/core/trace_document.hpp"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace starscope::viewer {

struct OverviewProfile {
    double startNs = 0.0;
    double endNs = 0.0;
    std::size_t columns = 0;
    std::size_t states = 0;
    std::vector<tracer::TimeNs> times;    // [column * states + state], summed over the workers
    std::vector<tracer::TimeNs> extents;  // per column: its duration times the number of workers

    const tracer::TimeNs* column(std::size_t c) const { return times.data() + c * states; }
};

// Worker time per state in `columns` equal slices of [startNs, endNs] (level 0 of each worker
// lane; the main thread is left out: it is never "busy" in the workers' sense). With a rank,
// only that rank's workers: a collapsed rank's row on the chart shows that mix.
OverviewProfile workerProfile(const TraceDocument& document, double startNs, double endNs, std::size_t columns,
                              std::optional<std::int32_t> rank = std::nullopt);

// The window that shows all of the trace's activity with a small margin on each side: what
// "fit all" zooms to and what the overview strip spans.
inline constexpr double kFitMarginShare = 0.02;   // of the activity's length, on each side
inline constexpr double kMinWindowNs = 100.0;
std::pair<double, double> fitAllWindow(const TraceDocument& document);

} // namespace starscope::viewer
