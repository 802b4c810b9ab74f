#pragma once
// The whole trace squeezed into the overview strip's columns: per column, the time every
// worker together spent in each state, from the lanes' prefix sums (no span is visited), so
// the strip costs O(columns * workers * log(spans)) however long the trace.

#include "tracer/model/trace.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <cstdint>
#include <span>
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

// Each lane's own time per state in `columns` equal slices of [startNs, endNs] (level 0), each
// lane once whatever number of profiles use it, lanes spread over the cores: a rank's header
// row and its kinds' rows share their lanes, and summed the same times whatever their order.
class LaneColumns {
public:
    LaneColumns(const TraceDocument& document, double startNs, double endNs, std::size_t columns,
                std::span<const std::int32_t> lanes);
    // The profile of some of those lanes (laneProfile of them), from their columns.
    OverviewProfile profile(const TraceDocument& document, std::span<const std::int32_t> lanes) const;

private:
    double m_startNs = 0.0;
    double m_endNs = 0.0;
    std::size_t m_columns = 0;
    std::size_t m_states = 0;
    std::vector<tracer::TimeNs> m_boundaries;             // m_columns + 1
    std::vector<std::int32_t> m_lanes;                    // those with spans, once each
    std::vector<std::vector<tracer::TimeNs>> m_times;     // per lane: [column * states + state]
};

// Time per state of `lanes` (indices into the trace's lanes, level 0 of each) in `columns`
// equal slices of [startNs, endNs]: a folded group's header row on the chart shows that mix.
OverviewProfile laneProfile(const TraceDocument& document, double startNs, double endNs, std::size_t columns,
                            std::span<const std::int32_t> lanes);

// laneProfile of every worker lane (the main thread is left out: it is never "busy" in the
// workers' sense): what the overview strip shows.
OverviewProfile workerProfile(const TraceDocument& document, double startNs, double endNs, std::size_t columns);

// The window that shows all of the trace's activity with a small margin on each side: what
// "fit all" zooms to and what the overview strip spans.
inline constexpr double kFitMarginShare = 0.02;   // of the activity's length, on each side
inline constexpr double kMinWindowNs = 100.0;
std::pair<double, double> fitAllWindow(const TraceDocument& document);

} // namespace starscope::viewer
