#pragma once
// The critical path on the chart (tracer::criticalPath, kept in the document): each task of the
// chain underlined by a bar along its row, and an arrow from each task's end to the start of the
// next that ran, which waited for it: on a StarPU-MPI job, across ranks, through the message. Off
// by default (View > Show critical path); only the part of the chain in view is laid out, so a
// frame costs what the view holds, not the chain's length.

#include "viewer/core/time_view.hpp"
#include "viewer/core/trace_document.hpp"

#include <QColor>
#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

class QCPAxis;

namespace starscope::viewer {

class LinkPlottable;

inline const QColor kCriticalPath(214, 0, 140);

class CriticalPathLinks {
public:
    // Adds its plottable to the axes' plot, on layer.
    CriticalPathLinks(QCPAxis* timeAxis, QCPAxis* rowAxis, const QString& layer);

    void setDocument(std::shared_ptr<const TraceDocument> document);
    void setVisible(bool visible);
    bool isVisible() const { return m_visible; }
    // Lays the path out for the view; laneRows maps a lane to its chart row (-1: not shown).
    void refresh(const TimeView& view, const std::vector<std::int32_t>& laneRows);

    LinkPlottable* links() const { return m_links; }

private:
    std::shared_ptr<const TraceDocument> m_document;
    LinkPlottable* m_links = nullptr;
    bool m_visible = false;
};

} // namespace starscope::viewer
