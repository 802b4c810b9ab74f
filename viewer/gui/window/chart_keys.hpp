#pragma once
// The chart's keys and gestures: listed once (for the keyboard help), and delivered to the
// chart from the window's panels. A table view takes letters for its own type-ahead search, so
// after a click in the barrier list W/A/S/D went nowhere; the panels hand those keys on.

#include <QObject>
#include <QString>

#include <vector>

namespace starscope::viewer {

class GanttPlot;

struct ShortcutEntry {
    QString keys;   // as the user types or does it: "W", "Shift+drag"
    QString what;
};

// What the chart does with each key and mouse gesture (GanttPlot's event handlers).
std::vector<ShortcutEntry> chartShortcuts();

// Installed on a panel (installEventFilter), it sends the chart's navigation keys (W/A/S/D
// without modifiers) to the chart; every other key stays the panel's (arrows in the barrier list).
class ChartKeyForwarder : public QObject {
    Q_OBJECT
public:
    ChartKeyForwarder(GanttPlot* plot, QObject* parent);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    GanttPlot* m_plot;
};

} // namespace starscope::viewer
