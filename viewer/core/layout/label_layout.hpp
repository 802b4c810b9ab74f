#pragma once
// Where labels go on one line of the chart (batch labels along the top, barrier durations
// along the bottom) so that none overlaps another: callers offer labels in order of importance
// (the longest barriers first) and each is kept only where it is clear of those already kept.
// The rest stay reachable by hovering. Pixels only, no Qt, so tests check the boxes directly.

#include <vector>

namespace starscope::viewer {

struct LabelBox {
    double left = 0.0;
    double right = 0.0;

    bool overlaps(const LabelBox& other, double gapPx) const {
        return left < other.right + gapPx && other.left < right + gapPx;
    }
    bool operator==(const LabelBox&) const = default;
};

class LabelLine {
public:
    // Labels must lie inside [minPx, maxPx] and keep gapPx from each other.
    LabelLine(double minPx, double maxPx, double gapPx);

    // Keeps box when it fits and is clear of every kept box; returns whether it was kept.
    bool place(const LabelBox& box);
    // Whether a label anchored at x could not be kept whatever its width (x inside a kept box
    // or its gap, or outside the line): lets a caller skip measuring its text.
    bool blocked(double x) const;
    // Kept boxes, sorted by position.
    const std::vector<LabelBox>& boxes() const { return m_boxes; }

private:
    double m_min;
    double m_max;
    double m_gap;
    std::vector<LabelBox> m_boxes;
};

} // namespace starscope::viewer
