#pragma once
// Values of starscope-viewer's flags: times with units ("1.5ms", "250us", "2s", plain ns),
// --range START:END and --size WxH. Errors name the flag and quote the bad value.

#include "viewer/core/error.hpp"
#include "viewer/core/layout/lane_layout.hpp"

#include <string_view>

namespace starscope::viewer {

struct TimeRange {
    double startNs = 0.0;
    double endNs = 0.0;

    bool operator==(const TimeRange&) const = default;
};

struct PixelSize {
    int width = 0;
    int height = 0;

    bool operator==(const PixelSize&) const = default;
};

inline constexpr int kMinRenderSide = 64;
inline constexpr int kMaxRenderSide = 16384;

// A time in ns from a number with an optional unit ns, us, ms or s.
ViewerResult<double> parseTime(std::string_view text, std::string_view flag);
// "START:END", START < END.
ViewerResult<TimeRange> parseRange(std::string_view text, std::string_view flag);
// "WxH", each side within [kMinRenderSide, kMaxRenderSide].
ViewerResult<PixelSize> parseSize(std::string_view text, std::string_view flag);

// "all" (every kind of lanes) or comma-separated "cpu", "cuda", "other", "memory", "rank N".
ViewerResult<FoldRequest> parseFold(std::string_view text, std::string_view flag);

} // namespace starscope::viewer
