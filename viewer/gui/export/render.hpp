#pragma once
// Headless pictures of a trace with the interactive widget's own drawing code: the
// --render mode of starscope-viewer, File > Export and the render tests all come here.

#include "viewer/core/format/command_line.hpp"
#include "viewer/core/error.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <QImage>
#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>

namespace starscope::viewer {

class GanttPlot;

struct RenderRequest {
    PixelSize size{1600, 900};
    std::optional<TimeRange> range;   // whole trace when empty
    // Each rank's own barriers (JobAndRankBarriers::ranks), banded in its rows; none when empty.
    std::shared_ptr<const Barriers> rankBarriers;
    bool messages = true;   // StarPU-MPI messages as arrows (--no-messages leaves them out)
    bool transfers = true;  // data transfers between memory nodes as arrows (--no-transfers)
    bool criticalPath = false;   // the critical path drawn over the rows (--critical-path)
    FoldRequest fold;            // lane groups drawn as their header row alone (--fold)
};

// The picture as an image (used by tests to check colours at known positions).
QImage renderImage(std::shared_ptr<const TraceDocument> document, std::shared_ptr<const Barriers> barriers,
                   const RenderRequest& request);
// Writes the picture to output; the format follows the suffix (.png, .jpg, .pdf, .svg).
ViewerResult<Done> renderToFile(std::shared_ptr<const TraceDocument> document,
                                std::shared_ptr<const Barriers> barriers, const RenderRequest& request,
                                const QString& output);
// The same into a plot made beforehand (a headless render makes it, fonts and all, while the
// trace is still being read); plot is left showing the picture.
ViewerResult<Done> renderToFile(GanttPlot& plot, std::shared_ptr<const TraceDocument> document,
                                std::shared_ptr<const Barriers> barriers, const RenderRequest& request,
                                const QString& output);
// Saves what plot shows, at its current size, to output (.png, .jpg, .pdf or .svg).
ViewerResult<Done> exportPlot(GanttPlot& plot, const QString& output);
// The error for a picture name whose extension is none of formats (".png or .jpg"): one without
// an extension is told so, not "unsupported picture format '.'".
ViewerError pictureFormatError(const QString& output, std::string_view formats);
// A save dialog returns the name as typed: without an extension the format would be unknown,
// so the selected filter's ("PNG image (*.png)") is appended. A name with a suffix is kept.
QString withFilterSuffix(const QString& path, const QString& selectedFilter);
// Qt writes a picture by file name, which would replace a symlink and turn a FIFO or device
// into a regular file: save draws it into a private temporary file instead, and the project's
// one writer (common/file_writer.hpp) puts the bytes where output names.
ViewerResult<Done> savePicture(const QString& output, const std::function<bool(const QString& file)>& save);

} // namespace starscope::viewer
