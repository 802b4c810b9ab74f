#pragma once
// A trace made ready for drawing, built once off the UI thread after reading: rows, per-lane
// prefix sums for folded colours, palette, batch transitions and batch markers. Immutable once
// built, so widgets share it through std::shared_ptr<const TraceDocument>; barriers depend on
// the UI's threshold and live beside it.

#include "tracer/analysis/barriers.hpp"
#include "tracer/model/error.hpp"
#include "tracer/model/trace.hpp"
#include "tracer/readers/read_trace.hpp"
#include "viewer/core/lane_index.hpp"
#include "viewer/core/lane_layout.hpp"
#include "viewer/core/palette.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace starscope::viewer {

struct TraceDocument {
    tracer::Trace trace;
    std::string source;                             // what was opened, for titles and messages
    std::vector<Row> rows;
    std::vector<std::vector<LaneIndex>> laneIndex;  // [lane][level]
    Palette palette;
    std::vector<tracer::BatchTransition> transitions;
    std::vector<std::size_t> batchMarkers;          // indices of batch_begin markers, by time
    // Where the spans are: StarPU's initialisation often leaves a long empty start.
    tracer::TimeNs activityBegin = 0;
    tracer::TimeNs activityEnd = 0;

    // The batch (from its batch_begin marker) running at timeNs; nullptr before the first.
    const tracer::MarkerEvent* batchAt(tracer::TimeNs timeNs) const;
};

using Barriers = std::vector<tracer::Barrier>;

std::shared_ptr<const TraceDocument> prepareDocument(tracer::Trace trace, std::string source);
// Reads any input readTrace knows (run folder, prof file, Paje, native) and prepares it.
// Errors are the reader's, verbatim (file, byte offset, what was wrong).
tracer::TraceResult<std::shared_ptr<const TraceDocument>> loadDocument(const std::filesystem::path& input,
                                                                       const tracer::ReadOptions& options = {});
Barriers computeBarriers(const TraceDocument& document, tracer::TimeNs thresholdNs);
// Index of the first barrier ending after timeNs (barriers sorted by start, disjoint).
std::size_t firstBarrierEndingAfter(const Barriers& barriers, double timeNs);

// "epoch 0 batch 3" for a batch_begin marker.
std::string batchLabel(const markers::Marker& marker);

} // namespace starscope::viewer
