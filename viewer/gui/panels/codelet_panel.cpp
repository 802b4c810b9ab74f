#include "viewer/gui/panels/codelet_panel.hpp"

#include "tracer/analysis/codelet_stats.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/report/duration_format.hpp"
#include "viewer/gui/panels/codelet_stats_model.hpp"

#include <QFontMetricsF>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace starscope::viewer {

namespace {

// Buckets of the histogram: enough to show a spread, few enough to read in a dock.
constexpr std::size_t kHistogramBins = 24;
// The table and the histogram share the dock 3:2, whatever their size hints (the plot's is
// tiny: it was left 100 px, its duration labels on top of each other).
constexpr int kTableShare = 3;
constexpr int kHistogramShare = 2;
// Room between two duration labels of the histogram's axis, in the width of this text.
const char* const kLabelGap = "  ";

} // namespace

CodeletPanel::CodeletPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    m_scope = new QLabel(this);
    m_scope->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(m_scope);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    m_model = new CodeletStatsModel(this);
    m_table = new QTableView(splitter);
    m_table->setObjectName(QStringLiteral("codeletTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setToolTip(tr("Double-click a codelet to find its tasks on the chart"));
    m_histogram = new QCustomPlot(splitter);
    m_histogram->setObjectName(QStringLiteral("codeletHistogram"));
    // The dock shares the bottom of the window with the others and asks for no more height than
    // they do: a plot's own minimum (its axes' labels, ~100 px) made the bottom area taller and
    // left the chart of a 900x600 window too short for its key. A nonzero minimum overrides it.
    m_histogram->setMinimumSize(1, 1);
    m_histogram->xAxis->setScaleType(QCPAxis::stLogarithmic);
    m_histogram->xAxis->setLabel(tr("task duration"));
    m_histogram->yAxis->setLabel(tr("tasks"));
    splitter->addWidget(m_table);
    splitter->addWidget(m_histogram);
    splitter->setStretchFactor(0, kTableShare);
    splitter->setStretchFactor(1, kHistogramShare);
    // Sizes in proportion: the splitter shares its width by these weights.
    splitter->setSizes({kTableShare * 1000, kHistogramShare * 1000});
    layout->addWidget(splitter);
    // The labels that fit are known once the axis has its width: a change draws the plot again,
    // with the new ticks.
    connect(m_histogram, &QCustomPlot::afterLayout, this, [this] {
        if (labelDecades()) {
            m_histogram->replot(QCustomPlot::rpQueuedReplot);
        }
    });

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                showHistogram(current.data(CodeletStatsModel::CodeletRole).toString());
            });
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex& index) {
        emit codeletActivated(index.data(CodeletStatsModel::CodeletRole).toString());
    });
}

void CodeletPanel::setDocument(std::shared_ptr<const TraceDocument> document) {
    m_document = std::move(document);
    showWholeTrace();
}

void CodeletPanel::showWholeTrace() {
    if (!m_document) {
        m_model->clear();
        showHistogram({});
        return;
    }
    const auto& trace = m_document->trace;
    showRange(trace.begin, std::max(trace.begin, trace.end) + 1);
}

void CodeletPanel::showRange(tracer::TimeNs from, tracer::TimeNs to) {
    if (!m_document) {
        return;
    }
    m_from = from;
    m_to = to;
    const auto& trace = m_document->trace;
    const QString current = m_table->currentIndex().data(CodeletStatsModel::CodeletRole).toString();
    m_model->setStats(m_document, tracer::computeCodeletStats(trace, from, to));
    m_scope->setText(scope());
    // The codelet looked at stays selected when the range changes.
    int row = 0;
    for (int r = 0; r < m_model->rowCount(); ++r) {
        if (m_model->index(r, 0).data(CodeletStatsModel::CodeletRole).toString() == current) {
            row = r;
            break;
        }
    }
    if (m_model->rowCount() > 0) {
        m_table->setCurrentIndex(m_model->index(row, 0));
    }
    showHistogram(m_model->rowCount() > 0 ? m_model->index(row, 0).data(CodeletStatsModel::CodeletRole).toString()
                                          : QString());
}

QString CodeletPanel::scope() const {
    if (!m_document) {
        return tr("No trace");
    }
    const auto& trace = m_document->trace;
    const auto tps = tracer::ticksPerSecond(trace);
    std::uint64_t tasks = 0;
    for (const auto& c : m_model->codelets()) {
        tasks += c.all.count;
    }
    const bool whole = m_from <= trace.begin && m_to > trace.end;
    const QString where = whole ? tr("whole trace")
                                : tr("tasks starting in %1 .. %2")
                                      .arg(QString::fromStdString(tracer::formatDuration(m_from, tps)),
                                           QString::fromStdString(tracer::formatDuration(m_to, tps)));
    return tr("%1: %2 codelets, %3 tasks").arg(where).arg(m_model->codelets().size()).arg(tasks);
}

void CodeletPanel::showHistogram(const QString& codelet) {
    m_histogram->clearPlottables();
    m_histogram->plotLayout()->setAutoMargins(QCP::msAll);
    if (!m_document || codelet.isNull()) {
        m_histogram->replot();
        return;
    }
    const auto& trace = m_document->trace;
    const auto h = tracer::codeletDurationHistogram(trace, codelet.toStdString(), m_from, m_to, kHistogramBins);
    if (h.counts.empty()) {
        m_histogram->replot();
        return;
    }
    const double nsPerTick = tracer::nsPerTick(trace);
    // One bar per bucket, centred on its geometric middle, as wide as the bucket.
    QVector<double> keys;
    QVector<double> values;
    double most = 0;
    for (std::size_t i = 0; i < h.counts.size(); ++i) {
        const double lo = std::max(1.0, static_cast<double>(h.edges[i]) * nsPerTick);
        const double hi = std::max(lo, static_cast<double>(h.edges[i + 1]) * nsPerTick);
        keys << std::sqrt(lo * hi);
        values << static_cast<double>(h.counts[i]);
        most = std::max(most, values.back());
    }
    const double lower = std::max(1.0, static_cast<double>(h.edges.front()) * nsPerTick / 1.5);
    const double upper = std::max(2.0, static_cast<double>(h.edges.back()) * nsPerTick * 1.5);
    auto* bars = new QCPBars(m_histogram->xAxis, m_histogram->yAxis);
    // Buckets are evenly spaced on the logarithmic axis: every bar is the same share of its width.
    const double bucket = std::log(std::max(1.0, static_cast<double>(h.edges.back()))
                                   / std::max(1.0, static_cast<double>(h.edges.front())))
                          / static_cast<double>(h.counts.size());
    bars->setWidthType(QCPBars::wtAxisRectRatio);
    bars->setWidth(bucket > 0 ? 0.9 * bucket / std::log(upper / lower) : 0.04);
    bars->setData(keys, values, true);
    bars->setBrush(QColor(46, 139, 87));
    bars->setPen(Qt::NoPen);
    bars->setName(codelet);
    // A tick per decade of the range, labelled as durations ("10 us", "1 ms") as far as they fit.
    m_decades.clear();
    for (double decade = std::pow(10.0, std::floor(std::log10(lower))); decade <= upper;
         decade *= 10.0) {
        if (decade >= lower) {
            m_decades.push_back(decade);
        }
    }
    m_decadeStep = 0;
    m_histogram->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    m_histogram->xAxis->setLabel(tr("%1: task duration").arg(codelet));
    m_histogram->xAxis->setRange(lower, upper);
    m_histogram->yAxis->ticker()->setTickCount(3);
    m_histogram->yAxis->setRange(0, std::max(1.0, most * 1.1));
    labelDecades();
    m_histogram->replot();
}

bool CodeletPanel::labelDecades() {
    auto ticker = m_histogram->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    const QCPRange range = m_histogram->xAxis->range();
    if (!ticker || m_decades.empty() || range.lower <= 0.0 || range.upper <= range.lower) {
        return false;
    }
    // Decades are evenly spaced on the logarithmic axis.
    const double decadePx =
        m_histogram->axisRect()->width() / std::log10(range.upper / range.lower);
    const QFontMetricsF metrics(m_histogram->xAxis->tickLabelFont());
    double widest = 0.0;
    for (const double decade : m_decades) {
        widest = std::max(widest, metrics.horizontalAdvance(QString::fromStdString(
                                      tracer::formatDurationNs(decade, false))));
    }
    const double needed = widest + metrics.horizontalAdvance(QLatin1String(kLabelGap));
    const auto step =
        static_cast<std::size_t>(std::max(1.0, std::ceil(needed / std::max(1.0, decadePx))));
    if (step == m_decadeStep) {
        return false;
    }
    m_decadeStep = step;
    ticker->clear();
    // Every decade keeps its tick; the ones between labels go unlabelled.
    for (std::size_t i = 0; i < m_decades.size(); ++i) {
        ticker->addTick(m_decades[i], i % step == 0 ? QString::fromStdString(
                                          tracer::formatDurationNs(m_decades[i], false))
                                                    : QString());
    }
    return true;
}

} // namespace starscope::viewer
