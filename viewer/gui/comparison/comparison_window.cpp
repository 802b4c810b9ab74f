#include "viewer/gui/comparison/comparison_window.hpp"

#include "viewer/gui/comparison/comparison_view.hpp"
#include "viewer/gui/window/layer_toggle.hpp"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QSpinBox>
#include <QStatusBar>
#include <QToolBar>

#include <algorithm>

namespace starscope::viewer {

ComparisonWindow::ComparisonWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(QStringLiteral("starscope - compare runs"));
    m_view = new ComparisonView(this);
    setCentralWidget(m_view);

    auto* bar = addToolBar(QStringLiteral("Alignment"));
    bar->addWidget(new QLabel(QStringLiteral(" Align: "), bar));
    m_mode = new QComboBox(bar);
    m_mode->addItem(QStringLiteral("time since first task"), static_cast<int>(AlignMode::Start));
    m_mode->addItem(QStringLiteral("batch marker"), static_cast<int>(AlignMode::Marker));
    m_mode->addItem(QStringLiteral("share of makespan"), static_cast<int>(AlignMode::Normalized));
    bar->addWidget(m_mode);
    m_marker = new QSpinBox(bar);
    // The marker's number as --align marker:K takes it: counted from 0, as the batch numbers
    // on the chart's marker lines (e0 b0 is marker 0).
    m_marker->setPrefix(QStringLiteral("marker "));
    m_marker->setRange(0, 1'000'000);
    m_marker->setToolTip(QStringLiteral("The batch_begin marker at 0, counted from 0 as the batch numbers (e0 b0, e0 b1, ...) "
                                        "and --align marker:K"));
    bar->addWidget(m_marker);
    bar->addAction(QStringLiteral("Fit all (Home)"), m_view, &ComparisonView::fitAll);
    m_transfersAction = setUpLayerToggle(bar->addAction(QStringLiteral("Transfers (T)")),
                                         QStringLiteral("transfersAction"), m_view->transfersVisible(), Qt::Key_T);
    m_transfersAction->setToolTip(QStringLiteral("Show data transfers between memory nodes as arrows"));
    connect(m_transfersAction, &QAction::toggled, m_view, &ComparisonView::setTransfersVisible);
    m_view->setRowScrolling(true);
    m_status = new QLabel(this);
    statusBar()->addWidget(m_status, 1);

    connect(m_mode, &QComboBox::currentIndexChanged, this, &ComparisonWindow::applyAlignment);
    connect(m_marker, &QSpinBox::valueChanged, this, &ComparisonWindow::applyAlignment);
    resize(1500, 1000);
}

ViewerResult<Done> ComparisonWindow::setComparison(const LoadedComparison& loaded, const Alignment& alignment) {
    auto set = m_view->setRuns(loaded.runs, loaded.figures, alignment);
    if (!set) {
        return set;
    }
    const QSignalBlocker blockMode(m_mode);
    const QSignalBlocker blockMarker(m_marker);
    m_mode->setCurrentIndex(m_mode->findData(static_cast<int>(alignment.mode)));
    m_marker->setValue(static_cast<int>(alignment.marker));
    m_marker->setEnabled(alignment.mode == AlignMode::Marker);
    m_status->setText(QStringLiteral("%1 runs").arg(loaded.runs.size()));
    m_transfersAction->setEnabled(std::any_of(loaded.runs.begin(), loaded.runs.end(), [](const ComparedRun& run) {
        return !run.document->trace.transfers.empty();
    }));
    return Done{};
}

void ComparisonWindow::applyAlignment() {
    Alignment alignment;
    alignment.mode = static_cast<AlignMode>(m_mode->currentData().toInt());
    alignment.marker = static_cast<std::size_t>(m_marker->value());
    m_marker->setEnabled(alignment.mode == AlignMode::Marker);
    // A run without that many markers keeps the previous alignment and says why.
    if (auto set = m_view->setAlignment(alignment); !set) {
        m_status->setText(QString::fromStdString(set.error().message));
    } else {
        m_status->setText(QString::fromStdString(describeAlignment(alignment)));
    }
}

} // namespace starscope::viewer
