#pragma once
// StarPU-MPI messages as arrows on the chart: which messages to draw in a view and between
// which rows. An arrow runs from the sender's MPI communication thread row at the send to the
// receiver's at the receive's end (a collapsed rank's header row stands for its lanes).
// Zoomed out, a run of messages whose arrows would land on the same pixels between the same
// rows is drawn once, so the number of arrows follows the chart's width, not the run's length.

#include "tracer/model/trace.hpp"
#include "viewer/core/lane_layout.hpp"
#include "viewer/core/time_view.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace starscope::viewer {

struct MessageArrow {
    std::size_t message = 0;   // index into Trace::messages
    double fromRow = 0.0;      // chart rows (row r is centred on r)
    double toRow = 0.0;

    bool operator==(const MessageArrow&) const = default;
};

// The row an end of a message is drawn on: its lane's row (rowOfLanes), else its rank's
// first row; -1 when neither is shown.
std::int32_t messageEndRow(const std::vector<Row>& rows, const std::vector<std::int32_t>& laneRows,
                           std::int32_t lane, std::int32_t rank);

// The messages in flight during the view with both ends on a row, in message order; one of
// those whose ends round to the same pixels (within minSeparationPx) on the same rows as an
// arrow kept before is left out.
std::vector<MessageArrow> visibleMessages(const tracer::Trace& trace, const std::vector<Row>& rows,
                                          const std::vector<std::int32_t>& laneRows, const TimeView& view,
                                          double minSeparationPx = 2.0);

} // namespace starscope::viewer
