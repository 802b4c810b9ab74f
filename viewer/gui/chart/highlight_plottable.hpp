#pragma once
// Frames around marks of the chart: each box spans [startTime, endTime] on one row (a row's
// centre being its index on the row axis) and is framed in two tones, dark outside and white
// inside, so it reads on any state colour. A box narrower than a few pixels is widened about
// its centre: a selected 1 us task stays visible at fit-all.

#include "viewer/gui/chart/decoration_plottable.hpp"

#include <vector>

namespace starscope::viewer {

struct HighlightBox {
    double startTime = 0.0;
    double endTime = 0.0;
    double row = 0.0;
    double halfHeight = 0.5;   // in rows

    bool operator==(const HighlightBox&) const = default;
};

inline const QColor kHighlightFrame(15, 15, 15);
inline const QColor kHighlightInner(255, 255, 255);

class HighlightPlottable : public DecorationPlottable {
    Q_OBJECT
public:
    HighlightPlottable(QCPAxis* timeAxis, QCPAxis* rowAxis);

    void setBoxes(std::vector<HighlightBox> boxes) { m_boxes = std::move(boxes); }
    const std::vector<HighlightBox>& boxes() const { return m_boxes; }
    // The frame's outer rectangle of a box in widget pixels, as drawn.
    QRect frameRect(const HighlightBox& box) const;

protected:
    void draw(QCPPainter* painter) override;

private:
    std::vector<HighlightBox> m_boxes;
};

} // namespace starscope::viewer
