#include "viewer/gui/comparison/comparison_view.hpp"

#include "viewer/core/comparison/rank_comparison.hpp"
#include "viewer/core/format/time_format.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/comparison/comparison_charts.hpp"
#include "viewer/gui/comparison/comparison_model.hpp"
#include "viewer/gui/export/offscreen_messages.hpp"
#include "viewer/gui/export/render.hpp"
#include "viewer/gui/panels/group_table_model.hpp"

#include <QCoreApplication>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPdfWriter>
#include <QSplitter>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace starscope::viewer {

namespace {

// A PDF's unit: a pixel of the picture is a point of its page.
constexpr int kPointsPerInch = 72;

// Normalized alignment maps each makespan onto kNormalizedSpanNs ticks from the shared zero:
// label ticks in percent.
class ShareTicker : public QCPAxisTicker {
public:
    explicit ShareTicker(tracer::TimeNs zeroTick) : m_zero(static_cast<double>(zeroTick)) { setTickOrigin(m_zero); }

protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return QStringLiteral("%1 %").arg((tick - m_zero) / kNormalizedSpanNs * 100.0, 0, 'f', 0);
    }

private:
    double m_zero;
};

} // namespace

ComparisonView::ComparisonView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_splitter = new QSplitter(Qt::Vertical, this);
    layout->addWidget(m_splitter);

    m_panelArea = new QWidget(m_splitter);
    m_panelLayout = new QVBoxLayout(m_panelArea);
    m_panelLayout->setContentsMargins(0, 0, 0, 0);
    m_panelLayout->setSpacing(2);

    m_bottom = new QSplitter(Qt::Horizontal, m_splitter);
    auto* tablesPanel = new QWidget(m_bottom);
    auto* tablesLayout = new QVBoxLayout(tablesPanel);
    tablesLayout->setContentsMargins(0, 0, 0, 0);
    m_tables = new QTabWidget(tablesPanel);
    tablesLayout->addWidget(m_tables, 1);
    m_note = new QLabel(tablesPanel);
    m_note->setWordWrap(true);
    m_note->hide();
    tablesLayout->addWidget(m_note);
    const auto addTable = [this](QAbstractItemModel* model, const QString& title) {
        auto* view = new QTableView(m_tables);
        view->setModel(model);
        view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        view->setAlternatingRowColors(true);
        m_tables->addTab(view, title);
        return view;
    };
    m_model = new ComparisonModel(this);
    m_table = addTable(m_model, QStringLiteral("Runs"));
    // The scaling table's columns are the run model's (`compare` prints the same); the
    // strategies per rank count leave them out, since they compare across rank counts.
    m_scalingModel = new GroupTableModel({tracer::run::kScalingMetrics.begin(), tracer::run::kScalingMetrics.end()},
                                         false, this);
    addTable(m_scalingModel, QStringLiteral("Scaling"));
    std::vector<std::string_view> strategyKeys;
    for (const auto& metric : tracer::run::metrics()) {
        if (std::find(tracer::run::kScalingMetrics.begin(), tracer::run::kScalingMetrics.end(), metric.key)
            == tracer::run::kScalingMetrics.end()) {
            strategyKeys.push_back(metric.key);
        }
    }
    m_strategyModel = new GroupTableModel(std::move(strategyKeys), true, this);
    addTable(m_strategyModel, QStringLiteral("Strategies per rank count"));
    m_charts = new ComparisonCharts(m_bottom);
    m_bottom->setStretchFactor(0, 1);
    m_bottom->setStretchFactor(1, 1);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
}

ComparisonView::~ComparisonView() = default;

QString ComparisonView::comparisonNote() const { return m_note->text(); }

ViewerResult<Done> ComparisonView::setRuns(std::vector<ComparedRun> runs, std::vector<RunFigures> figures,
                                           const Alignment& alignment) {
    auto aligned = alignRuns(runs, alignment);
    if (!aligned) {
        return fail(aligned.error());
    }
    m_runs = std::move(runs);
    m_alignment = alignment;
    m_charts->setRuns(figures);
    RankComparison byRanks = compareRankCounts(figures);
    m_scalingModel->setRows(std::move(byRanks.scalingRows));
    m_strategyModel->setRows(std::move(byRanks.strategyRows));
    QStringList note;
    if (!byRanks.problem.empty()) {
        note << QString::fromStdString(byRanks.problem);
    }
    for (const auto& warning : byRanks.warnings) {
        note << QString::fromStdString(warning);
    }
    m_note->setText(note.join(QLatin1Char('\n')));
    m_note->setVisible(!note.isEmpty());
    // Runs of several rank counts are compared for how they scale first.
    m_tables->setTabEnabled(1, byRanks.scaling);
    m_tables->setCurrentIndex(byRanks.scaling ? 1 : 0);
    m_model->setRuns(std::move(figures));
    rebuildPanels(std::move(*aligned));
    return Done{};
}

ViewerResult<Done> ComparisonView::setAlignment(const Alignment& alignment) {
    auto aligned = alignRuns(m_runs, alignment);
    if (!aligned) {
        return fail(aligned.error());
    }
    m_alignment = alignment;
    rebuildPanels(std::move(*aligned));
    return Done{};
}

void ComparisonView::rebuildPanels(std::vector<ComparedRun> aligned) {
    for (GanttPlot* panel : m_panels) {
        m_panelLayout->removeWidget(panel);
        delete panel;
    }
    m_panels.clear();
    for (auto& run : aligned) {
        auto* panel = new GanttPlot(m_panelArea);
        panel->setDocument(run.document);
        panel->setBarriers(run.barriers);
        panel->setRankBarriers(run.rankBarriers);
        panel->setTransfersVisible(m_transfers);
        panel->setRowScrolling(m_rowScrolling);
        panel->xAxis->setLabel(QString::fromStdString(describeAlignment(m_alignment, run.document.get())));
        if (m_alignment.mode == AlignMode::Normalized) {
            panel->xAxis->setTicker(QSharedPointer<ShareTicker>::create(run.document->time.zeroTick));
        }
        m_panelLayout->addWidget(panel, 1);
        connect(panel, &GanttPlot::viewChanged, this,
                [this, panel](double startNs, double endNs) { onPanelView(panel, startNs, endNs); });
        m_panels.push_back(panel);
    }
    fitAll();
}

void ComparisonView::setTransfersVisible(bool visible) {
    m_transfers = visible;
    for (GanttPlot* panel : m_panels) {
        panel->setTransfersVisible(visible);
    }
}

void ComparisonView::setRowScrolling(bool enabled) {
    m_rowScrolling = enabled;
    for (GanttPlot* panel : m_panels) {
        panel->setRowScrolling(enabled);
    }
}

void ComparisonView::onPanelView(GanttPlot* source, double startNs, double endNs) {
    if (m_syncing) {
        return;
    }
    m_syncing = true;
    for (GanttPlot* panel : m_panels) {
        if (panel != source) {
            panel->setView(startNs, endNs);
        }
    }
    m_syncing = false;
}

void ComparisonView::setView(double startNs, double endNs) {
    if (!m_panels.empty()) {
        // Every aligned trace has the same bounds, so one panel's clamped view fits all.
        m_panels.front()->setView(startNs, endNs);
    }
}

void ComparisonView::fitAll() {
    double begin = std::numeric_limits<double>::max();
    double end = std::numeric_limits<double>::lowest();
    for (GanttPlot* panel : m_panels) {
        begin = std::min(begin, static_cast<double>(panel->document()->activityBegin));
        end = std::max(end, static_cast<double>(panel->document()->activityEnd));
    }
    if (begin < end) {
        const double margin = 0.02 * (end - begin);
        setView(begin - margin, end + margin);
    }
}

ViewerResult<Done> ComparisonView::showRange(const TimeRange& range) {
    if (m_panels.empty()) {
        return Done{};
    }
    // Every panel's ticks read as the same time from the shared zero: the first one's scale
    // places the range for all.
    const TimeScale& time = m_panels.front()->document()->time;
    double begin = std::numeric_limits<double>::max();
    double end = std::numeric_limits<double>::lowest();
    for (GanttPlot* panel : m_panels) {
        const TraceDocument& document = *panel->document();
        begin = std::min(begin, document.time.timeNs(static_cast<double>(document.trace.begin)));
        end = std::max(end, document.time.timeNs(static_cast<double>(document.trace.end)));
    }
    if (range.endNs <= begin || range.startNs >= end) {
        return fail(ViewerError{
            ViewerErrorCode::InvalidArgument,
            "--range " + formatDuration(range.startNs) + " to " + formatDuration(range.endNs)
                + " lies outside the runs, which run from " + formatDuration(begin) + " to "
                + formatDuration(end) + " on the aligned axis"});
    }
    setView(time.tickAt(range.startNs), time.tickAt(range.endNs));
    return Done{};
}

void ComparisonView::replotNow() {
    if (QLayout* l = layout()) {
        l->activate();
    }
    m_panelLayout->activate();
    for (GanttPlot* panel : m_panels) {
        panel->replot(QCustomPlot::rpImmediateRefresh);
    }
    m_charts->replot(QCustomPlot::rpImmediateRefresh);
}

QImage ComparisonView::grabImage() {
    replotNow();
    return grab().toImage();
}

bool ComparisonView::paintVectors(QCPPainter& painter) {
    replotNow();
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    return paintTree(painter, this, QPoint(0, 0));
}

// A widget drawn alone, then its shown children at their places: a plot draws itself into the
// painter (QCustomPlot::toPainter: lines and text), where QWidget::render would paint the
// plot's pixel buffers into the picture.
bool ComparisonView::paintTree(QCPPainter& painter, QWidget* widget, const QPoint& at) {
    if (auto* plot = qobject_cast<QCustomPlot*>(widget)) {
        painter.save();
        painter.translate(at);
        plot->toPainter(&painter, plot->width(), plot->height());
        painter.restore();
        return painter.isActive();
    }
    widget->render(&painter, at, QRegion(), QWidget::DrawWindowBackground);
    for (QObject* child : widget->children()) {
        auto* shown = qobject_cast<QWidget*>(child);
        if (shown != nullptr && shown->isVisible() && !shown->isWindow()
            && !paintTree(painter, shown, at + shown->pos())) {
            return false;
        }
    }
    return true;
}

} // namespace starscope::viewer

namespace starscope::viewer {

ViewerResult<Done> renderComparison(const LoadedComparison& loaded, const Alignment& alignment,
                                    const ComparisonPicture& picture, const QString& output) {
    const QString suffix = QFileInfo(output).suffix().toLower();
    const bool vectors = suffix == QLatin1String("svg") || suffix == QLatin1String("pdf");
    if (!vectors && suffix != QLatin1String("png") && suffix != QLatin1String("jpg")
        && suffix != QLatin1String("jpeg")) {
        return fail(pictureFormatError(output, ".png, .jpg, .svg or .pdf for --compare"));
    }
    if (picture.range && alignment.mode == AlignMode::Normalized) {
        return fail(ViewerError{
            ViewerErrorCode::InvalidArgument,
            "--range is a time, and --align normalized shows shares of each run's makespan: "
            "use --align start or marker:K with --range"});
    }
    const int width = picture.size.width;
    const int height = picture.size.height;
    ComparisonView view;
    // The picture is exactly the size asked: the view's layout must not grow it to what its
    // panels and tables would like (a 1600x1000 picture of three runs came out 1600x1044).
    view.layout()->setSizeConstraint(QLayout::SetNoConstraint);
    view.resize(width, height);
    view.setTransfersVisible(picture.transfers);
    auto set = view.setRuns(loaded.runs, loaded.figures, alignment);
    if (!set) {
        return fail(set.error());
    }
    // Laid out like a shown window, without a display.
    const OffscreenSizeHintsWarningFilter quiet;
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.show();
    QCoreApplication::processEvents();
    view.resize(width, height);
    view.fitAll();
    if (picture.range) {
        if (auto shown = view.showRange(*picture.range); !shown) {
            return shown;
        }
    }
    if (!vectors) {
        const QImage image = view.grabImage();
        return savePicture(output, [&image](const QString& file) { return image.save(file); });
    }
    return savePicture(output, [&view, &suffix, width, height](const QString& file) {
        QCPPainter painter;
        if (suffix == QLatin1String("svg")) {
            QSvgGenerator generator;
            generator.setFileName(file);
            generator.setSize(QSize(width, height));
            generator.setViewBox(QRect(0, 0, width, height));
            generator.setTitle(QStringLiteral("starscope comparison"));
            return painter.begin(&generator) && view.paintVectors(painter) && painter.end();
        }
        // A point per pixel: the page is the picture's size.
        QPdfWriter writer(file);
        writer.setResolution(kPointsPerInch);
        writer.setPageSize(QPageSize(QSizeF(width, height), QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setTitle(QStringLiteral("starscope comparison"));
        return painter.begin(&writer) && view.paintVectors(painter) && painter.end();
    });
}

} // namespace starscope::viewer
