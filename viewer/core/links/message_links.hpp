#pragma once
// StarPU-MPI messages as arrows on the chart: which messages to draw in a view, between which
// rows, and what a tooltip says of one. An arrow runs from the sender's MPI communication
// thread row at the send to the receiver's at the receive's end (a collapsed rank's header row
// stands for its lanes). A multi-rank epoch exchanges thousands of messages: past
// LinkBundling::maxSingle in view, those between the same rows starting in one slice of the
// chart are drawn as one arrow carrying their count and bytes (link_bundles.hpp, shared with
// the data transfers), so the number of arrows follows the chart's width, not the run's length,
// and zoomed in every message is its own arrow.

#include "tracer/model/trace.hpp"
#include "viewer/core/layout/lane_layout.hpp"
#include "viewer/core/links/link_bundles.hpp"
#include "viewer/core/layout/time_view.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace starscope::viewer {

// An arrow of messages: first indexes Trace::messages.
using MessageArrow = LinkArrow;

// The row an end of a message is drawn on: its lane's row (rowOfLanes), else its rank's
// first row; -1 when neither is shown.
std::int32_t messageEndRow(const std::vector<Row>& rows, const std::vector<std::int32_t>& laneRows,
                           std::int32_t lane, std::int32_t rank);

// Where a look for the messages of a view can start. Messages are sorted by start, not by end:
// one sent long before a view can still be in flight in it, so the look went through every
// message from the first (8 % of a 1/100 frame of a job of 552 k messages). The running
// maximum of their ends tells, by a binary search, the first message not known to end before
// the view.
class MessageReach {
public:
    MessageReach() = default;
    explicit MessageReach(const tracer::Trace& trace);
    // The first message that, or one before which, ends at startNs or later: every message
    // before it ends before startNs.
    std::size_t firstReaching(double startNs) const;

private:
    std::vector<tracer::TimeNs> m_reach;   // [i]: the latest end of messages [0, i]
};

// The messages in flight during the view with both ends on a row: one arrow each, in message
// order, when at most options.maxSingle; otherwise one per pair of rows per slice, in order of
// their first message (LinkBundler). reach (built from this trace) spares the look at the
// messages that end before the view.
std::vector<MessageArrow> visibleMessages(const tracer::Trace& trace, const std::vector<Row>& rows,
                                          const std::vector<std::int32_t>& laneRows, const TimeView& view,
                                          const LinkBundling& options = {}, const MessageReach* reach = nullptr);

// What a tooltip says of an arrow, one line each, times through scale:
//   "message rank 1 -> rank 0" / "4,096 B, tag 7" / "sent at 1.2 ms, received 40.0 us later";
// a bundle: "12 messages rank 1 -> rank 0" / "49.15 KB from 1.2 ms to 3.4 ms" /
// "zoom in to see each".
std::vector<std::string> describeMessageArrow(const tracer::Trace& trace, const MessageArrow& arrow,
                                              const TimeScale& scale);

} // namespace starscope::viewer
