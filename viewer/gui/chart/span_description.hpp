#pragma once
// What the chart says about one span, in rich text: the tooltip over it and the fuller account
// of the details panel. Apart from the plot widget because it reads only the trace and the
// barriers drawn over it, never the mouse, the axes or the zoom.

#include "viewer/core/document/task_graph.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <QString>
#include <cstddef>

namespace starscope::viewer {

// The barriers the chart shows (either may be null): a span names those it starts in.
struct ShownBarriers {
    const Barriers* job = nullptr;
    const Barriers* ranks = nullptr; // each rank's own (JobAndRankBarriers::ranks)
};

// Codelet and job (or state), worker, start, duration, batch, the barriers the span starts in
// with their causes, and a hint when `nearby` spans share the cursor's fold width.
QString describeSpan(const TraceDocument& document, const ShownBarriers& barriers,
                     const SpanRef& span, std::size_t nearby);
// describeSpan's text, then the span's state and end and, for a task, its footprint, submission
// and dependencies (links: dependencyHtml).
QString spanDetails(const TraceDocument& document, const ShownBarriers& barriers,
                    const SpanRef& span, std::size_t nearby);

} // namespace starscope::viewer
