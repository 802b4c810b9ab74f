#include "viewer/gui/panels/search_bar.hpp"

#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/chart/span_selection.hpp"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

namespace starscope::viewer {

SearchBar::SearchBar(GanttPlot* plot, QWidget* parent) : QWidget(parent), m_plot(plot) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    m_field = new QLineEdit(this);
    m_field->setObjectName(QStringLiteral("searchField"));
    m_field->setPlaceholderText(tr("Find a task: codelet name or job id (Enter: next, Shift+Enter: previous)"));
    m_field->setClearButtonEnabled(true);
    m_field->installEventFilter(this);
    m_previous = new QToolButton(this);
    m_previous->setObjectName(QStringLiteral("searchPrevious"));
    m_previous->setArrowType(Qt::UpArrow);
    m_previous->setToolTip(tr("Previous match (Shift+Enter)"));
    m_next = new QToolButton(this);
    m_next->setObjectName(QStringLiteral("searchNext"));
    m_next->setArrowType(Qt::DownArrow);
    m_next->setToolTip(tr("Next match (Enter)"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("searchStatus"));
    // The bar sits in the menu bar's corner, which sizes it once, by its first size hint: the
    // status has room for the longest count from the start ("match 1 of 2,074" was cut to
    // "match 1 of 2"), and a task name past it is elided, in full in the tooltip.
    m_status->setMinimumWidth(m_status->fontMetrics().horizontalAdvance(QStringLiteral("match 8,888,888 of 8,888,888: job 88888")));
    layout->addWidget(m_field, 1);
    layout->addWidget(m_previous);
    layout->addWidget(m_next);
    layout->addWidget(m_status, 1);
    connect(m_previous, &QToolButton::clicked, this, &SearchBar::findPrevious);
    connect(m_next, &QToolButton::clicked, this, &SearchBar::findNext);
    connect(m_field, &QLineEdit::textChanged, this, [this] {
        m_stale = true;
        showStatus(QString(), false);
    });
}

void SearchBar::setDocument(std::shared_ptr<const TraceDocument> document) {
    m_document = std::move(document);
    m_search = {};
    m_stale = true;
    showStatus(QString(), false);
}

QString SearchBar::status() const { return m_statusText; }

void SearchBar::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    elideStatus();
}

void SearchBar::elideStatus() {
    m_status->setText(m_status->fontMetrics().elidedText(m_statusText, Qt::ElideRight, m_status->width()));
    m_status->setToolTip(m_status->text() == m_statusText ? QString() : m_statusText);
}

void SearchBar::findNext() { step(true); }

void SearchBar::findPrevious() { step(false); }

bool SearchBar::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_field && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            step(!(key->modifiers() & Qt::ShiftModifier));
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void SearchBar::step(bool forward) {
    const QString query = m_field->text().trimmed();
    if (!m_document) {
        showStatus(tr("open a trace first"), true);
        return;
    }
    if (query.isEmpty()) {
        showStatus(tr("type a codelet name or a job id"), true);
        return;
    }
    if (m_stale) {
        m_search = TaskSearch(m_document->trace, query.toStdString());
        m_stale = false;
    }
    const auto& trace = m_document->trace;
    const double from = m_plot->view().startNs;
    const auto selected = m_plot->selectedTask();
    const auto position = forward ? m_search.next(trace, selected, from) : m_search.previous(trace, selected, from);
    if (!position) {
        showStatus(parseJobQuery(query.toStdString()) ? tr("no match: no task ran as job %1").arg(query)
                                                      : tr("no match: no task's codelet contains \"%1\"").arg(query),
                   true);
        return;
    }
    const tracer::TaskIndex task = m_search.matches()[*position];
    if (!m_plot->selectTask(task)) {
        showStatus(tr("match %1 of %2 (%3) is on no row of the chart")
                       .arg(QString::fromStdString(groupThousands(*position + 1)))
                       .arg(QString::fromStdString(groupThousands(m_search.size())))
                       .arg(taskName(*m_document, task)),
                   true);
        return;
    }
    showStatus(tr("match %1 of %2: %3")
                   .arg(QString::fromStdString(groupThousands(*position + 1)))
                   .arg(QString::fromStdString(groupThousands(m_search.size())))
                   .arg(taskName(*m_document, task)),
               false);
}

void SearchBar::showStatus(const QString& text, bool failed) {
    m_statusText = text;
    elideStatus();
    m_status->setStyleSheet(failed ? QStringLiteral("color: #b00000") : QString());
}

} // namespace starscope::viewer
