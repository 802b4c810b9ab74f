// The chart's tooltip describes what is under the cursor: once the view zooms, pans or the rows
// fold, scroll or zoom, that is something else, and the tooltip goes (it stayed, naming a span
// no longer there).
#include "tests/support/synthetic_trace.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "viewer/core/document/trace_document.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"

#include <QMouseEvent>
#include <QTest>
#include <QToolTip>
#include <functional>
#include <gtest/gtest.h>

using namespace starscope::viewer;

namespace {

// A chart of a trace with a group to fold, its tooltip shown over a span.
class ChartTooltip : public ::testing::Test {
protected:
    void SetUp() override {
        SyntheticOptions options;
        options.cpuWorkers = 64; // more rows than fit: they scroll
        options.batchesPerEpoch = 2;
        m_plot.setRowScrolling(true);
        m_plot.resize(1200, 700);
        m_plot.setDocument(prepareDocument(makeSyntheticTrace(options), "tooltips"));
        m_plot.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&m_plot));
        m_plot.replot(QCustomPlot::rpImmediateRefresh);
    }

    // Moves the mouse over spans until one shows a tooltip.
    bool showTooltip() {
        const QRect rect = m_plot.axisRect()->rect();
        for (int x = rect.left() + 5; x < rect.right(); x += 7) {
            const QPointF at(x, m_plot.yAxis->coordToPixel(m_plot.rowWindow().first + 3.0));
            QMouseEvent move(QEvent::MouseMove, at, m_plot.mapToGlobal(at), Qt::NoButton,
                             Qt::NoButton, Qt::NoModifier);
            QApplication::sendEvent(&m_plot, &move);
            if (m_plot.hitTest(at) && QToolTip::isVisible()) {
                return true;
            }
        }
        return false;
    }

    GanttPlot m_plot;
};

// QToolTip::hideText hides the tip on a short timer of its own; the tip expires by itself only
// after 10 s, so a tip still up after kHiddenWithinMs was never told to go.
constexpr int kHiddenWithinMs = 3'000;

bool tooltipGoes() {
    return QTest::qWaitFor([] { return !QToolTip::isVisible(); }, kHiddenWithinMs);
}

} // namespace

TEST_F(ChartTooltip, GoesWhenTheViewZoomsOrPans) {
    ASSERT_TRUE(showTooltip());
    const TimeView v = m_plot.view();
    m_plot.zoomBy(1.5, v.leftPx + v.widthPx / 2.0);
    EXPECT_TRUE(tooltipGoes()) << "after a zoom";
    ASSERT_TRUE(showTooltip());
    m_plot.panByFraction(0.1);
    EXPECT_TRUE(tooltipGoes()) << "after a pan";
}

TEST_F(ChartTooltip, GoesWhenTheRowsFoldScrollOrZoom) {
    const std::vector<std::pair<const char*, std::function<void()>>> changes{
        {"a scroll", [this] { m_plot.scrollRows(5.0); }},
        {"a row zoom", [this] { m_plot.zoomRows(0.5, m_plot.axisRect()->rect().center().y()); }},
        {"a fold", [this] { m_plot.setAllGroupsFolded(true); }},
    };
    for (const auto& [what, change] : changes) {
        ASSERT_TRUE(showTooltip()) << "before " << what;
        change();
        EXPECT_TRUE(tooltipGoes()) << "after " << what;
    }
}
