#include "viewer/core/layout/label_layout.hpp"

#include <algorithm>

namespace starscope::viewer {

LabelLine::LabelLine(double minPx, double maxPx, double gapPx) : m_min(minPx), m_max(maxPx), m_gap(gapPx) {}

bool LabelLine::place(const LabelBox& box) {
    if (box.left < m_min || box.right > m_max || box.right < box.left) {
        return false;
    }
    // Kept boxes are disjoint and sorted, so only the neighbours around box.left can overlap it.
    const auto next = std::partition_point(m_boxes.begin(), m_boxes.end(),
                                           [&box](const LabelBox& kept) { return kept.left < box.left; });
    if (next != m_boxes.end() && next->overlaps(box, m_gap)) {
        return false;
    }
    if (next != m_boxes.begin() && std::prev(next)->overlaps(box, m_gap)) {
        return false;
    }
    m_boxes.insert(next, box);
    return true;
}

bool LabelLine::blocked(double x) const {
    if (x < m_min || x > m_max) {
        return true;
    }
    const auto next = std::partition_point(m_boxes.begin(), m_boxes.end(),
                                           [x](const LabelBox& kept) { return kept.left <= x; });
    return next != m_boxes.begin() && x < std::prev(next)->right + m_gap;
}

} // namespace starscope::viewer
