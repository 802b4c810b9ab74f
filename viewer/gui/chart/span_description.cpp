#include "viewer/gui/chart/span_description.hpp"

#include "tracer/analysis/machine.hpp"
#include "tracer/model/names.hpp"
#include "viewer/core/layout/lane_layout.hpp"
#include "viewer/core/drawing/span_folding.hpp"
#include "viewer/core/format/time_format.hpp"
#include "viewer/gui/chart/qt_support.hpp"
#include "viewer/gui/chart/span_selection.hpp"

#include <algorithm>
#include <span>

namespace starscope::viewer {

namespace {

// Trace times are ticks, read through the document's scale (TraceDocument::time).
QString duration(const TraceDocument& document, double ticks) {
    return QString::fromStdString(formatDuration(document.time.durationNs(ticks)));
}

// Points in time to the tick: a task's start and end must differ wherever it sits.
QString instant(const TraceDocument& document, double tick) {
    return QString::fromStdString(formatInstant(document.time.timeNs(tick), document.time.nsPerTick));
}

} // namespace

QString describeSpan(const TraceDocument& document, const ShownBarriers& barriers,
                     const SpanRef& ref, std::size_t nearby) {
    const auto& trace = document.trace;
    const auto& span = trace.lanes[ref.lane].levels[ref.level][ref.span];
    const auto& state = trace.states[span.state];
    QString text;
    if (const tracer::Task* running = trace.taskOf(trace.lanes[ref.lane], span)) {
        const auto& task = *running;
        text = QStringLiteral("<b>%1</b><br>%2")
                   .arg(toQString(tracer::taskName(trace, task)).toHtmlEscaped(),
                        toQString(tracer::jobName(trace, task.jobId)));
    } else if (state.name == tracer::kFetchingInputState && trace.lanes[ref.lane].isWorker()) {
        // As the key names it: the state's StarPU name means little to a user.
        text = QStringLiteral("<b>%1</b> (%2)")
                   .arg(toQString(std::string(kWaitingForDataLabel)), toQString(state.name).toHtmlEscaped());
    } else {
        text = QStringLiteral("<b>%1</b>").arg(toQString(state.name).toHtmlEscaped());
    }
    const auto& lane = trace.lanes[ref.lane];
    if (lane.kind == tracer::LaneKind::MemoryNode) {
        text += QStringLiteral("<br>memory node: %1 (node %2)")
                    .arg(toQString(memoryNodeLabel(trace, lane)).toHtmlEscaped())
                    .arg(lane.memoryNode);
    } else {
        text += QStringLiteral("<br>worker: %1").arg(toQString(lane.name).toHtmlEscaped());
    }
    text += QStringLiteral("<br>start: %1<br>duration: %2")
                .arg(instant(document, static_cast<double>(span.start)),
                     duration(document, static_cast<double>(span.duration())));
    if (const auto* batch = document.batchAt(span.start)) {
        text += QStringLiteral("<br>batch: %1").arg(toQString(batchLabel(trace.markerOf(*batch))));
    }
    // The job's barrier the span starts in, and its rank's own: each with its cause.
    const auto inBarrier = [&](std::span<const tracer::Barrier> shown, const QString& what) {
        const auto it =
            std::partition_point(shown.begin(), shown.end(),
                                 [&](const tracer::Barrier& b) { return b.end <= span.start; });
        if (it == shown.end() || it->start > span.start) {
            return;
        }
        text += QStringLiteral("<br>in %1 of %2")
                    .arg(what, duration(document, static_cast<double>(it->duration())));
        if (!it->transitionLabel.empty()) {
            text += QStringLiteral(" (%1)").arg(toQString(it->transitionLabel).toHtmlEscaped());
        }
        if (it->cause != tracer::BarrierCause::Unattributed) {
            text += QStringLiteral(": %1").arg(
                toQString(tracer::describeCause(trace, *it)).toHtmlEscaped());
        }
    };
    if (barriers.job != nullptr) {
        inBarrier(*barriers.job, QStringLiteral("a barrier"));
    }
    const std::int32_t rank = trace.lanes[ref.lane].rank;
    if (barriers.ranks != nullptr && rank >= 0) {
        inBarrier(barriersOfRank(*barriers.ranks, rank),
                  QStringLiteral("a barrier of rank %1").arg(rank));
    }
    if (nearby > 1) {
        text += QStringLiteral("<br><i>%1 spans within %2 px here: zoom in to separate them</i>")
                    .arg(nearby)
                    .arg(2 * kDefaultFoldPx);
    }
    return text;
}

QString spanDetails(const TraceDocument& document, const ShownBarriers& barriers,
                    const SpanRef& ref, std::size_t nearby) {
    const auto& trace = document.trace;
    const auto& span = trace.lanes[ref.lane].levels[ref.level][ref.span];
    QString text = describeSpan(document, barriers, ref, nearby);
    text += QStringLiteral("<br>state: %1<br>end: %2")
                .arg(toQString(trace.states[span.state].name).toHtmlEscaped(),
                     instant(document, static_cast<double>(span.end)));
    if (const auto index = trace.taskIndexOf(trace.lanes[ref.lane], span);
        index != tracer::kNoTask) {
        const auto& task = trace.tasks[index];
        text += QStringLiteral("<br>footprint: %1")
                    .arg(trace.footprintOf(task), 8, 16, QLatin1Char('0'));
        if (task.submit >= 0) {
            text += QStringLiteral("<br>submitted: %1 (waited %2)")
                        .arg(instant(document, static_cast<double>(task.submit)),
                             duration(document, static_cast<double>(std::max<tracer::TimeNs>(
                                                 0, task.start - task.submit))));
        }
        text += dependencyHtml(document, index);
    }
    return text;
}

} // namespace starscope::viewer
