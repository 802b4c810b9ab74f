#pragma once
// The critical path on the chart (tracer::criticalPath, kept in the document): each task of the
// chain underlined by a bar along its row, and an arrow from each task's end to the start of the
// next that ran, which waited for it: on a StarPU-MPI job, across ranks, through the message. Off
// by default (View > Show critical path); only the part of the chain in view is laid out, so a
// frame costs what the view holds, not the chain's length.

#include "viewer/gui/chart/arrow_layer.hpp"

#include <QColor>

namespace starscope::viewer {

inline const QColor kCriticalPath(214, 0, 140);

class CriticalPathLinks : public ArrowLayer {
public:
    // Adds its plottable to the axes' plot, on layer.
    CriticalPathLinks(QCPAxis* timeAxis, QCPAxis* rowAxis, const QString& layer);

protected:
    std::vector<Link> layOut(const TimeView& view, const std::vector<Row>& rows,
                             const std::vector<std::int32_t>& laneRows) override;
};

} // namespace starscope::viewer
