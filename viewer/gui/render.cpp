#include "viewer/gui/render.hpp"

#include "tracer/model/time_unit.hpp"
#include "viewer/gui/gantt_plot.hpp"

#include <QFileInfo>

namespace starscope::viewer {

namespace {

void prepare(GanttPlot& plot, std::shared_ptr<const TraceDocument> document, std::shared_ptr<const Barriers> barriers,
             const RenderRequest& request) {
    plot.resize(request.size.width, request.size.height);
    plot.setDocument(std::move(document));
    plot.setBarriers(std::move(barriers));
    // Lay out once at the final size so the view maps onto the real plot area.
    plot.replot(QCustomPlot::rpImmediateRefresh);
    if (request.range) {
        // --range is real time; the plot's axis is in the trace's ticks (time_unit.hpp).
        const double nsPerTick = plot.document() ? tracer::nsPerTick(plot.document()->trace) : 1.0;
        plot.setView(request.range->startNs / nsPerTick, request.range->endNs / nsPerTick);
    }
}

} // namespace

QImage renderImage(std::shared_ptr<const TraceDocument> document, std::shared_ptr<const Barriers> barriers,
                   const RenderRequest& request) {
    GanttPlot plot;
    prepare(plot, std::move(document), std::move(barriers), request);
    return plot.toPixmap(request.size.width, request.size.height, 1.0).toImage();
}

ViewerResult<Done> exportPlot(GanttPlot& plot, const QString& output) {
    const QString suffix = QFileInfo(output).suffix().toLower();
    bool written = false;
    if (suffix == QLatin1String("png")) {
        written = plot.savePng(output, plot.width(), plot.height(), 1.0);
    } else if (suffix == QLatin1String("jpg") || suffix == QLatin1String("jpeg")) {
        written = plot.saveJpg(output, plot.width(), plot.height(), 1.0, 95);
    } else if (suffix == QLatin1String("pdf")) {
        written = plot.savePdf(output, plot.width(), plot.height(), QCP::epNoCosmetic);
    } else {
        return fail(ViewerError{output.toStdString() + ": unsupported picture format '." + suffix.toStdString()
                                + "' (use .png, .jpg or .pdf)"});
    }
    if (!written) {
        return fail(ViewerError{output.toStdString() + ": cannot write the picture (check the folder exists and is writable)"});
    }
    return Done{};
}

ViewerResult<Done> renderToFile(std::shared_ptr<const TraceDocument> document,
                                std::shared_ptr<const Barriers> barriers, const RenderRequest& request,
                                const QString& output) {
    GanttPlot plot;
    prepare(plot, std::move(document), std::move(barriers), request);
    return exportPlot(plot, output);
}

} // namespace starscope::viewer
