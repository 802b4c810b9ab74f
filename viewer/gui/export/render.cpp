#include "viewer/gui/export/render.hpp"

#include "common/file_writer.hpp"
#include "tracer/model/time_unit.hpp"
#include "viewer/core/format/time_format.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/export/png_encoder.hpp"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QTemporaryDir>
#include <algorithm>
#include <string>
#include <string_view>

namespace starscope::viewer {

namespace {

constexpr double kPngDotsPerInch = 96.0;

void prepare(GanttPlot& plot, std::shared_ptr<const TraceDocument> document, std::shared_ptr<const Barriers> barriers,
             const RenderRequest& request) {
    plot.resize(request.size.width, request.size.height);
    plot.setDocument(std::move(document));
    plot.setBarriers(std::move(barriers));
    plot.setRankBarriers(request.rankBarriers);
    plot.setMessagesVisible(request.messages);
    plot.setTransfersVisible(request.transfers);
    plot.setCriticalPathVisible(request.criticalPath);
    if (plot.document()) {
        plot.setFoldedGroups(foldedBy(plot.document()->rows, request.fold));
    }
    // Lay out once at the final size so the view maps onto the real plot area.
    plot.layOutForPicture();
    if (request.range) {
        // --range is real time; the plot's axis is in the trace's ticks (time_unit.hpp).
        const TimeScale time = plot.document() ? plot.document()->time : TimeScale{};
        plot.setView(time.tickAt(request.range->startNs), time.tickAt(request.range->endNs));
    }
}

// A --range that misses the trace altogether would draw the part of it nearest the range (the
// plot keeps its view on the trace, as it must when scrolling), under an axis the user did not
// ask for: refused, with the trace's extent. One shorter than a tick of the trace (its
// resolution) holds no time the trace can tell apart: the picture came out empty, and exit 0.
// A range that overlaps the trace and spans a tick is drawn as given.
ViewerResult<Done> checkRange(const TraceDocument* document, const RenderRequest& request) {
    if (!request.range || document == nullptr) {
        return Done{};
    }
    const double nsPerTick = tracer::nsPerTick(document->trace);
    if (request.range->endNs - request.range->startNs < nsPerTick) {
        return fail(ViewerError{ViewerErrorCode::InvalidArgument,
                                "--range is shorter than the trace's resolution, " + formatDuration(nsPerTick)
                                    + ": nothing in it to draw"});
    }
    const double begin = document->time.timeNs(static_cast<double>(document->trace.begin));
    const double end = document->time.timeNs(static_cast<double>(document->trace.end));
    if (request.range->endNs > begin && request.range->startNs < end) {
        return Done{};
    }
    return fail(ViewerError{ViewerErrorCode::InvalidArgument,
                            "--range " + formatDuration(request.range->startNs) + " to "
                                + formatDuration(request.range->endNs) + " lies outside the trace, which runs from "
                                + formatDuration(begin) + " to " + formatDuration(end)});
}

// A --fold of a rank the trace does not have would fold nothing and draw the picture as if the
// flag were not there: refused, with the ranks there are.
ViewerResult<Done> checkFold(const TraceDocument* document, const RenderRequest& request) {
    if (document == nullptr) {
        return Done{};
    }
    const auto ranks = laneRanks(document->rows);
    for (const std::int32_t rank : request.fold.ranks) {
        if (std::find(ranks.begin(), ranks.end(), rank) != ranks.end()) {
            continue;
        }
        std::string held;
        for (const std::int32_t r : ranks) {
            held += (held.empty() ? "" : ", ") + std::to_string(r);
        }
        return fail(
            ViewerError{ViewerErrorCode::InvalidArgument,
                        "--fold: rank " + std::to_string(rank) + " is not in the trace, "
                            + (ranks.empty() ? std::string("which is one process without ranks")
                                             : "whose ranks are " + held)});
    }
    return Done{};
}

// A picture is drawn again in a moment: replaced whole, but not synced to the disk.
ViewerResult<Done> writePicture(const QString& output, const QByteArray& bytes) {
    const auto written = files::writeFile(output.toStdString(),
                                          std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                                          files::Durability::Atomic);
    if (!written) {
        return fail(ViewerError{ViewerErrorCode::Io, written.error().describe()});
    }
    return Done{};
}

} // namespace

QImage renderImage(std::shared_ptr<const TraceDocument> document, std::shared_ptr<const Barriers> barriers,
                   const RenderRequest& request) {
    GanttPlot plot;
    prepare(plot, std::move(document), std::move(barriers), request);
    return plot.toPixmap(request.size.width, request.size.height, 1.0).toImage();
}

ViewerResult<Done> savePicture(const QString& output, const std::function<bool(const QString& file)>& save) {
    const QTemporaryDir scratch;
    if (!scratch.isValid()) {
        return fail(ViewerError{ViewerErrorCode::Io,
                                output.toStdString() + ": cannot make a temporary folder to draw in: "
                                    + scratch.errorString().toStdString()});
    }
    const QString drawn = scratch.filePath(QStringLiteral("picture.") + QFileInfo(output).suffix());
    if (!save(drawn)) {
        return fail(ViewerError{ViewerErrorCode::Io, output.toStdString() + ": cannot draw the picture"});
    }
    QFile file(drawn);
    if (!file.open(QIODevice::ReadOnly)) {
        return fail(ViewerError{ViewerErrorCode::Io,
                                output.toStdString() + ": cannot read the drawn picture back: "
                                    + file.errorString().toStdString()});
    }
    return writePicture(output, file.readAll());
}

ViewerResult<Done> exportPlot(GanttPlot& plot, const QString& output) {
    const QString suffix = QFileInfo(output).suffix().toLower();
    std::function<bool(const QString&)> save;
    if (suffix == QLatin1String("png")) {
        // Our encoder (png_encoder.hpp), straight to the file: Qt's writer tried all five row
        // filters on every row, and zlib's fastest level still took a sixth of a headless render.
        QImage image = plot.toPixmap(plot.width(), plot.height(), 1.0).toImage();
        // The resolution QCustomPlot's savePng gives a picture: 96 dots per inch.
        image.setDotsPerMeterX(static_cast<int>(kPngDotsPerInch / 0.0254));
        image.setDotsPerMeterY(static_cast<int>(kPngDotsPerInch / 0.0254));
        const QByteArray png = encodePngRuns(image);
        if (png.isEmpty()) {
            return fail(ViewerError{ViewerErrorCode::Io, output.toStdString() + ": cannot draw the picture"});
        }
        return writePicture(output, png);
    } else if (suffix == QLatin1String("jpg") || suffix == QLatin1String("jpeg")) {
        save = [&plot](const QString& file) { return plot.saveJpg(file, plot.width(), plot.height(), 1.0, 95); };
    } else if (suffix == QLatin1String("pdf")) {
        save = [&plot](const QString& file) {
            return plot.savePdf(file, plot.width(), plot.height(), QCP::epNoCosmetic);
        };
    } else if (suffix == QLatin1String("svg")) {
        // QCustomPlot has no SVG writer of its own: it paints into Qt's SVG generator as it
        // would into a PDF, so the picture stays vector (bars, bands and text).
        save = [&plot](const QString& file) {
            QSvgGenerator generator;
            generator.setFileName(file);
            generator.setSize(QSize(plot.width(), plot.height()));
            generator.setViewBox(QRect(0, 0, plot.width(), plot.height()));
            generator.setTitle(QStringLiteral("starscope"));
            QCPPainter painter;
            if (!painter.begin(&generator)) {
                return false;
            }
            painter.setMode(QCPPainter::pmVectorized);
            painter.setMode(QCPPainter::pmNoCaching);
            plot.toPainter(&painter, plot.width(), plot.height());
            return painter.end();
        };
    } else {
        return fail(pictureFormatError(output, ".png, .jpg, .pdf or .svg"));
    }
    return savePicture(output, save);
}

ViewerError pictureFormatError(const QString& output, std::string_view formats) {
    const QString suffix = QFileInfo(output).suffix();
    if (suffix.isEmpty()) {
        return ViewerError{ViewerErrorCode::Unsupported,
                           output.toStdString()
                               + " has no extension to tell the picture format: name it "
                               + std::string(formats)};
    }
    return ViewerError{ViewerErrorCode::Unsupported,
                       output.toStdString() + ": unsupported picture format '."
                           + suffix.toStdString() + "' (use " + std::string(formats) + ")"};
}

QString withFilterSuffix(const QString& path, const QString& selectedFilter) {
    if (path.isEmpty() || !QFileInfo(path).suffix().isEmpty()) {
        return path;
    }
    // "PNG image (*.png)": the first pattern's extension.
    static const QRegularExpression pattern(QStringLiteral(R"(\*\.([A-Za-z0-9]+))"));
    const QRegularExpressionMatch match = pattern.match(selectedFilter);
    if (!match.hasMatch()) {
        return path;
    }
    return path + QLatin1Char('.') + match.captured(1);
}

ViewerResult<Done> renderToFile(std::shared_ptr<const TraceDocument> document,
                                std::shared_ptr<const Barriers> barriers, const RenderRequest& request,
                                const QString& output) {
    GanttPlot plot;
    return renderToFile(plot, std::move(document), std::move(barriers), request, output);
}

ViewerResult<Done> renderToFile(GanttPlot& plot, std::shared_ptr<const TraceDocument> document,
                                std::shared_ptr<const Barriers> barriers, const RenderRequest& request,
                                const QString& output) {
    if (auto met = checkRange(document.get(), request); !met) {
        return met;
    }
    if (auto met = checkFold(document.get(), request); !met) {
        return met;
    }
    prepare(plot, std::move(document), std::move(barriers), request);
    return exportPlot(plot, output);
}

} // namespace starscope::viewer
