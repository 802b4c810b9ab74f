#pragma once
// The "Codelets" dock: the codelet table of the whole trace, or of the range selected on the
// chart, and the duration histogram of the codelet selected in it. Activating a row (double
// click, Enter) asks for that codelet's tasks on the chart (the search bar finds them).

#include "viewer/core/document/trace_document.hpp"

#include <QWidget>

#include <memory>
#include <vector>

class QCustomPlot;
class QLabel;
class QTableView;

namespace starscope::viewer {

class CodeletStatsModel;

class CodeletPanel : public QWidget {
    Q_OBJECT
public:
    explicit CodeletPanel(QWidget* parent = nullptr);

    // A new trace: its whole table.
    void setDocument(std::shared_ptr<const TraceDocument> document);
    // The tasks that start in [from, to) (trace ticks); showWholeTrace goes back.
    void showRange(tracer::TimeNs from, tracer::TimeNs to);
    void showWholeTrace();

    CodeletStatsModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QCustomPlot* histogram() const { return m_histogram; }
    QString scope() const;

signals:
    void codeletActivated(const QString& codelet);

private:
    void showHistogram(const QString& codelet);
    // Labels every decade that fits at the histogram's width, a label's width apart; true when
    // the labelled decades changed.
    bool labelDecades();

    std::shared_ptr<const TraceDocument> m_document;
    tracer::TimeNs m_from = 0;
    tracer::TimeNs m_to = 0;
    QLabel* m_scope = nullptr;
    CodeletStatsModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    QCustomPlot* m_histogram = nullptr;
    std::vector<double> m_decades; // the histogram's ticks, one per decade of its range (ns)
    std::size_t m_decadeStep = 0;  // one label every this many decades (labelDecades)
};

} // namespace starscope::viewer
