#pragma once
// Headless pictures of a trace with the interactive widget's own drawing code: the
// --render mode of starscope-viewer, File > Export and the render tests all come here.

#include "viewer/core/command_line.hpp"
#include "viewer/core/error.hpp"
#include "viewer/core/trace_document.hpp"

#include <QImage>
#include <QString>

#include <memory>
#include <optional>

namespace starscope::viewer {

class GanttPlot;

struct RenderRequest {
    PixelSize size{1600, 900};
    std::optional<TimeRange> range;   // whole trace when empty
};

// The picture as an image (used by tests to check colours at known positions).
QImage renderImage(std::shared_ptr<const TraceDocument> document, std::shared_ptr<const Barriers> barriers,
                   const RenderRequest& request);
// Writes the picture to output; the format follows the suffix (.png, .jpg, .pdf).
ViewerResult<Done> renderToFile(std::shared_ptr<const TraceDocument> document,
                                std::shared_ptr<const Barriers> barriers, const RenderRequest& request,
                                const QString& output);
// Saves what plot shows, at its current size, to output (.png, .jpg or .pdf).
ViewerResult<Done> exportPlot(GanttPlot& plot, const QString& output);

} // namespace starscope::viewer
