#include "viewer/core/link_bundles.hpp"

#include "tracer/analysis/machine.hpp"
#include "viewer/core/time_format.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace starscope::viewer {

std::vector<LinkArrow> bundleArrows(std::vector<LinkArrow> single, const TimeView& view, const LinkBundling& options) {
    if (single.size() <= options.maxSingle) {
        return single;
    }
    const double bucket = std::max(options.bucketPx, 1.0);
    std::map<std::tuple<double, double, std::uint32_t, double>, std::size_t> bundleOf;
    std::vector<LinkArrow> out;
    for (const LinkArrow& one : single) {
        const double slice = std::floor(view.toPixel(static_cast<double>(one.start)) / bucket);
        const auto [it, added] = bundleOf.try_emplace({one.fromRow, one.toRow, one.category, slice}, out.size());
        if (added) {
            out.push_back(one);
            continue;
        }
        LinkArrow& bundle = out[it->second];
        bundle.count += one.count;
        bundle.bytes += one.bytes;
        bundle.start = std::min(bundle.start, one.start);
        bundle.end = std::max(bundle.end, one.end);
    }
    return out;
}

std::vector<std::string> describeBundle(const LinkArrow& arrow, const std::string& events, const TimeScale& scale) {
    const auto at = [&scale](tracer::TimeNs t) { return formatDuration(scale.timeNs(static_cast<double>(t))); };
    return {groupThousands(arrow.count) + " " + events,
            tracer::formatBytes(static_cast<double>(arrow.bytes)) + " from " + at(arrow.start) + " to " + at(arrow.end),
            "zoom in to see each"};
}

} // namespace starscope::viewer
