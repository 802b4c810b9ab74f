#include "viewer/core/links/link_bundles.hpp"

#include "tracer/analysis/machine.hpp"
#include "viewer/core/format/time_format.hpp"

#include <algorithm>
#include <cmath>

namespace starscope::viewer {

void LinkBundler::add(const LinkArrow& one) {
    if (m_bundling) {
        addToBundle(one);
        return;
    }
    m_out.push_back(one);
    if (m_out.size() > m_options.maxSingle) {
        m_bundling = true;
        const std::vector<LinkArrow> single = std::move(m_out);
        m_out.clear();
        for (const LinkArrow& each : single) {
            addToBundle(each);
        }
    }
}

void LinkBundler::addToBundle(const LinkArrow& one) {
    const double slice = std::floor(m_view.toPixel(static_cast<double>(one.start)) / std::max(m_options.bucketPx, 1.0));
    const auto [it, added] = m_bundleOf.try_emplace({one.fromRow, one.toRow, one.category, slice}, m_out.size());
    if (added) {
        m_out.push_back(one);
        return;
    }
    LinkArrow& bundle = m_out[it->second];
    bundle.count += one.count;
    bundle.bytes += one.bytes;
    bundle.start = std::min(bundle.start, one.start);
    bundle.end = std::max(bundle.end, one.end);
}

std::vector<std::string> describeBundle(const LinkArrow& arrow, const std::string& events, const TimeScale& scale) {
    const auto at = [&scale](tracer::TimeNs t) { return formatDuration(scale.timeNs(static_cast<double>(t))); };
    return {groupThousands(arrow.count) + " " + events,
            tracer::formatBytes(static_cast<double>(arrow.bytes)) + " from " + at(arrow.start) + " to " + at(arrow.end),
            "zoom in to see each"};
}

} // namespace starscope::viewer
