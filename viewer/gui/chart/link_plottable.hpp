#pragma once
// Arrows between points of the chart: each link goes from (time, row) to (time, row) in plot
// coordinates (the time axis and the row axis, a row's centre being its index), in its own
// colour, with a head at its "to" end. It knows nothing of what a link stands for (a task's
// dependency, a StarPU-MPI message between ranks): the caller keeps that beside the links and
// finds it again by the index hitTest returns.

#include "viewer/gui/chart/decoration_plottable.hpp"

#include <QColor>
#include <QPointF>

#include <cstddef>
#include <optional>
#include <vector>

namespace starscope::viewer {

struct Link {
    double fromTime = 0.0;
    double fromRow = 0.0;
    double toTime = 0.0;
    double toRow = 0.0;
    QColor colour;
    double width = 0.0;   // its line width in pixels; 0: the plottable's

    bool operator==(const Link&) const = default;
};

// Which part of a link a point is on: one of its ends (within the tolerance) or its shaft.
enum class LinkPart { From, To, Shaft };

struct LinkHit {
    std::size_t link = 0;   // index into links()
    LinkPart part = LinkPart::Shaft;
    double distancePx = 0.0;

    bool operator==(const LinkHit&) const = default;
};

// The line width of an arrow standing for count events (a bundle of transfers or messages,
// link_bundles.hpp), one event's being single: thicker by the log of count, so a busy pair of
// rows reads as busy without one arrow covering its neighbours.
double bundleLineWidth(std::size_t count, double single);

// Distance in pixels from p to the segment [a, b].
double distanceToSegment(const QPointF& p, const QPointF& a, const QPointF& b);

class LinkPlottable : public DecorationPlottable {
    Q_OBJECT
public:
    LinkPlottable(QCPAxis* timeAxis, QCPAxis* rowAxis);

    void setLinks(std::vector<Link> links) { m_links = std::move(links); }
    const std::vector<Link>& links() const { return m_links; }
    void clearLinks() { m_links.clear(); }
    void setLineWidth(double pixels) { m_lineWidth = pixels; }

    // A link's ends in widget pixels, as drawn.
    QPointF fromPixel(const Link& link) const;
    QPointF toPixel(const Link& link) const;
    // The link nearest to pos within tolerancePx (ends before shafts: an end within the
    // tolerance wins over a shaft nearer still, since ends are what a click aims at).
    std::optional<LinkHit> hitTest(const QPointF& pos, double tolerancePx = 6.0) const;

protected:
    void draw(QCPPainter* painter) override;

private:
    std::vector<Link> m_links;
    double m_lineWidth = 2.0;
};

} // namespace starscope::viewer
