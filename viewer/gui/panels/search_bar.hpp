#pragma once
// The search field above the chart: a codelet name or a job id, Enter for the next match and
// Shift+Enter for the previous one (or the arrow buttons), each match selected on the chart and
// brought into view; what was found ("match 3 of 120") or "no match" said beside it.

#include "viewer/core/document/task_search.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QToolButton;

namespace starscope::viewer {

class GanttPlot;

class SearchBar : public QWidget {
    Q_OBJECT
public:
    SearchBar(GanttPlot* plot, QWidget* parent = nullptr);

    // A new trace: the search starts over.
    void setDocument(std::shared_ptr<const TraceDocument> document);
    QLineEdit* field() const { return m_field; }
    // What the last step found, as shown beside the field.
    QString status() const;

public slots:
    // Select the next / previous match after the selected task (or from the view's start).
    void findNext();
    void findPrevious();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void step(bool forward);
    void showStatus(const QString& text, bool failed);
    void elideStatus();

    GanttPlot* m_plot;
    std::shared_ptr<const TraceDocument> m_document;
    TaskSearch m_search;
    bool m_stale = true;   // the field changed since m_search was built
    QLineEdit* m_field = nullptr;
    QToolButton* m_previous = nullptr;
    QToolButton* m_next = nullptr;
    QLabel* m_status = nullptr;
    QString m_statusText;   // in full; the label shows what fits
};

} // namespace starscope::viewer
