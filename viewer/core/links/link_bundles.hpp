#pragma once
// Arrows between chart rows that stand for one event each, or for a bundle of them: data
// transfers between memory nodes and StarPU-MPI messages between ranks both come by the
// thousand, and one arrow per event at fit-all is a solid comb in which none can be told
// apart. Past maxSingle events in view, those between the same rows (and of one category)
// starting in one bucketPx-wide slice of the chart become one arrow carrying their count and
// bytes, so the picture at fit-all keeps one arrow per pair of rows per slice, and zoomed in
// every event is its own arrow again. What an event is (a transfer, a message) is the caller's.

#include "tracer/model/trace.hpp"
#include "viewer/core/layout/time_view.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace starscope::viewer {

struct LinkArrow {
    std::size_t first = 0;        // index (into the caller's events) of the earliest it stands for
    std::size_t count = 1;        // events it stands for (1: one event)
    std::uint64_t bytes = 0;      // their bytes
    tracer::TimeNs start = 0;     // the earliest start and the latest end among them
    tracer::TimeNs end = 0;
    double fromRow = 0.0;         // chart rows (row r is centred on r)
    double toRow = 0.0;
    std::uint32_t category = 0;   // arrows of different categories never share a bundle (a transfer's kind)

    bool operator==(const LinkArrow&) const = default;
};

struct LinkBundling {
    std::size_t maxSingle = 40;   // more events in view than this: bundled
    double bucketPx = 64.0;       // the width of a slice when bundled
};

// The arrows of the events in view, given one event at a time in event order: each event its
// own arrow while there are at most options.maxSingle of them; past that, one arrow per pair of
// rows, category and slice of the view its first event starts in, in order of their first
// event. Bundled as they come, never holding an arrow per event: a 4-rank job's 552 k messages
// at fit-all, gathered into a vector before they were bundled, were a third of a frame.
class LinkBundler {
public:
    LinkBundler(const TimeView& view, const LinkBundling& options) : m_view(view), m_options(options) {}
    void add(const LinkArrow& one);
    std::vector<LinkArrow> take() && { return std::move(m_out); }

private:
    void addToBundle(const LinkArrow& one);

    TimeView m_view;
    LinkBundling m_options;
    bool m_bundling = false;
    std::vector<LinkArrow> m_out;
    std::map<std::tuple<double, double, std::uint32_t, double>, std::size_t> m_bundleOf;
};

// What a tooltip says of a bundle, one line each, times through scale: its count and what
// names its events and rows ("transfers (Fetch) RAM -> CUDA 0 memory"), their total bytes and
// time span, and "zoom in to see each":
//   "12 transfers (Fetch) RAM -> CUDA 0 memory" / "12.00 MB from 1.2 ms to 3.4 ms" / "zoom in to see each".
std::vector<std::string> describeBundle(const LinkArrow& arrow, const std::string& events, const TimeScale& scale);

} // namespace starscope::viewer
