#include "viewer/core/format/command_line.hpp"

#include "common/text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

namespace starscope::viewer {

namespace {

ViewerError bad(std::string_view flag, std::string_view text, std::string_view why) {
    return {ViewerErrorCode::InvalidArgument,
            std::string(flag) + ": '" + std::string(text) + "' " + std::string(why)};
}

} // namespace

ViewerResult<double> parseTime(std::string_view text, std::string_view flag) {
    std::string_view number = text;
    double scale = 1.0;
    struct Suffix {
        std::string_view name;
        double scale;
    };
    // Longest suffixes first so "ms" is not read as "s".
    for (const Suffix& s : {Suffix{"ns", 1.0}, Suffix{"us", 1e3}, Suffix{"ms", 1e6}, Suffix{"s", 1e9}}) {
        if (number.ends_with(s.name)) {
            number.remove_suffix(s.name.size());
            scale = s.scale;
            break;
        }
    }
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (number.empty() || ec != std::errc{} || ptr != number.data() + number.size() || !std::isfinite(value)) {
        return fail(bad(flag, text, "is not a time (expected a number with an optional unit ns, us, ms or s)"));
    }
    if (value < 0.0) {
        return fail(bad(flag, text, "is negative"));
    }
    return value * scale;
}

ViewerResult<TimeRange> parseRange(std::string_view text, std::string_view flag) {
    const auto colon = text.find(':');
    if (colon == std::string_view::npos) {
        return fail(bad(flag, text, "is not a range (expected START:END, for example 0:2.5ms)"));
    }
    auto start = parseTime(text.substr(0, colon), flag);
    if (!start) {
        return fail(start.error());
    }
    auto end = parseTime(text.substr(colon + 1), flag);
    if (!end) {
        return fail(end.error());
    }
    if (*end <= *start) {
        return fail(bad(flag, text, "is empty: END must be after START"));
    }
    return TimeRange{*start, *end};
}

ViewerResult<PixelSize> parseSize(std::string_view text, std::string_view flag) {
    const auto x = text.find('x');
    const auto side = [&](std::string_view part, int& out) {
        const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), out);
        return !part.empty() && ec == std::errc{} && ptr == part.data() + part.size();
    };
    PixelSize size;
    if (x == std::string_view::npos || !side(text.substr(0, x), size.width) || !side(text.substr(x + 1), size.height)) {
        return fail(bad(flag, text, "is not a size (expected WIDTHxHEIGHT in pixels, for example 1600x900)"));
    }
    if (size.width < kMinRenderSide || size.height < kMinRenderSide || size.width > kMaxRenderSide
        || size.height > kMaxRenderSide) {
        return fail(bad(flag, text, "is out of range: each side must be between " + std::to_string(kMinRenderSide)
                                        + " and " + std::to_string(kMaxRenderSide) + " pixels"));
    }
    return size;
}

ViewerResult<FoldRequest> parseFold(std::string_view text, std::string_view flag) {
    FoldRequest request;
    for (std::size_t from = 0; from <= text.size();) {
        const auto comma = std::min(text.find(',', from), text.size());
        const std::string term = lowered(trimmed(text.substr(from, comma - from)));
        from = comma + 1;
        std::int32_t rank = -1;
        if (term.empty()) {
            continue;
        }
        if (term == "all") {
            request.kinds.insert({LaneGroup::CpuWorkers, LaneGroup::CudaWorkers, LaneGroup::OtherWorkers, LaneGroup::MemoryNodes});
        } else if (term == "cpu") {
            request.kinds.insert(LaneGroup::CpuWorkers);
        } else if (term == "cuda") {
            request.kinds.insert(LaneGroup::CudaWorkers);
        } else if (term == "other") {
            request.kinds.insert(LaneGroup::OtherWorkers);
        } else if (term == "memory") {
            request.kinds.insert(LaneGroup::MemoryNodes);
        } else if (const std::string_view number = std::string_view(term).substr(std::min<std::size_t>(5, term.size()));
                   term.starts_with("rank ") && std::from_chars(number.data(), number.data() + number.size(), rank).ptr
                                                    == number.data() + number.size()
                   && rank >= 0) {
            request.ranks.insert(rank);
        } else {
            return fail(bad(flag, text, "names no lane group (expected all, or a list of cpu, cuda, other, memory, rank N)"));
        }
    }
    if (request.kinds.empty() && request.ranks.empty()) {
        return fail(bad(flag, text, "names no lane group (expected all, or a list of cpu, cuda, other, memory, rank N)"));
    }
    return request;
}

} // namespace starscope::viewer
