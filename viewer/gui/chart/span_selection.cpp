#include "viewer/gui/chart/span_selection.hpp"

#include "tracer/model/names.hpp"
#include "viewer/gui/chart/gantt_plottable.hpp"
#include "viewer/gui/chart/highlight_plottable.hpp"
#include "viewer/gui/chart/link_plottable.hpp"
#include "viewer/gui/chart/qt_support.hpp"

#include <QStringList>

#include <algorithm>

namespace starscope::viewer {

namespace {

// A task read by hundreds of others (weights, a batch's input) would cover the chart in
// arrows; past this many per direction the details list says how many more there are.
constexpr std::size_t kMaxArrows = 200;
constexpr std::size_t kMaxListed = 16;
const QLatin1String kAnchorScheme("task");

} // namespace

SpanSelection::SpanSelection(QCPAxis* timeAxis, QCPAxis* rowAxis, const QString& layer, RowOfLane rowOfLane)
    : m_rowOfLane(std::move(rowOfLane)) {
    m_highlight = new HighlightPlottable(timeAxis, rowAxis);
    m_highlight->setLayer(layer);
    m_links = new LinkPlottable(timeAxis, rowAxis);
    m_links->setLayer(layer);
}

void SpanSelection::setDocument(std::shared_ptr<const TraceDocument> document) {
    m_document = std::move(document);
    select(std::nullopt);
}

void SpanSelection::select(std::optional<SpanRef> span) {
    m_selected = m_document ? span : std::nullopt;
    refresh();
}

std::optional<tracer::TaskIndex> SpanSelection::selectedTask() const {
    if (!m_document || !m_selected) {
        return std::nullopt;
    }
    const auto& lane = m_document->trace.lanes[m_selected->lane];
    const auto task = m_document->trace.taskIndexOf(lane, lane.levels[m_selected->level][m_selected->span]);
    if (task == tracer::kNoTask) {
        return std::nullopt;
    }
    return task;
}

void SpanSelection::refresh() {
    m_highlight->setBoxes({});
    m_links->clearLinks();
    m_linked.clear();
    m_predecessorLinks = 0;
    if (!m_document || !m_selected) {
        return;
    }
    const auto& trace = m_document->trace;
    const auto& span = trace.lanes[m_selected->lane].levels[m_selected->level][m_selected->span];
    const auto row = m_rowOfLane(static_cast<std::int32_t>(m_selected->lane));
    if (!row) {
        return;
    }
    m_highlight->setBoxes({{static_cast<double>(span.start), static_cast<double>(span.end), *row, kRowHalfHeight}});
    const auto task = selectedTask();
    if (!task) {
        return;
    }
    const tracer::Task& selected = trace.tasks[*task];
    std::vector<Link> links;
    // An arrow per related task that ran and has a row: from the end of the one waited for
    // to the start of the one that waited.
    const auto add = [&](tracer::TaskIndex other, bool predecessor) {
        const tracer::Task& t = trace.tasks[other];
        const auto otherRow = t.start >= 0 ? m_rowOfLane(t.lane) : std::nullopt;
        if (!otherRow) {
            return;
        }
        if (predecessor) {
            links.push_back({static_cast<double>(t.end), *otherRow, static_cast<double>(selected.start), *row,
                             kPredecessorArrow});
        } else {
            links.push_back({static_cast<double>(selected.end), *row, static_cast<double>(t.start), *otherRow,
                             kSuccessorArrow});
        }
        m_linked.push_back(other);
    };
    const auto predecessors = m_document->taskGraph.predecessors(trace, *task);
    for (std::size_t i = 0; i < predecessors.size() && i < kMaxArrows; ++i) {
        add(predecessors[i], true);
    }
    m_predecessorLinks = links.size();
    const auto successors = m_document->taskGraph.successors(trace, *task);
    for (std::size_t i = 0; i < successors.size() && i < kMaxArrows; ++i) {
        add(successors[i], false);
    }
    m_links->setLinks(std::move(links));
}

std::optional<std::size_t> SpanSelection::linkAt(const QPointF& pos) const {
    const auto hit = m_links->hitTest(pos);
    if (!hit) {
        return std::nullopt;
    }
    // Predecessor arrows end at the selected task, successor arrows start there.
    const LinkPart own = hit->link < m_predecessorLinks ? LinkPart::To : LinkPart::From;
    if (hit->part == own) {
        return std::nullopt;
    }
    return hit->link;
}

std::optional<tracer::TaskIndex> SpanSelection::followAt(const QPointF& pos) const {
    const auto link = linkAt(pos);
    if (!link) {
        return std::nullopt;
    }
    return m_linked[*link];
}

QString SpanSelection::tooltipAt(const QPointF& pos) const {
    const auto link = linkAt(pos);
    if (!link || !m_document) {
        return {};
    }
    const QString name = taskName(*m_document, m_linked[*link]).toHtmlEscaped();
    return *link < m_predecessorLinks
               ? QStringLiteral("<b>%1</b><br>the selected task waited for it<br><i>click to select it</i>").arg(name)
               : QStringLiteral("<b>%1</b><br>it waited for the selected task<br><i>click to select it</i>").arg(name);
}

QString taskName(const TraceDocument& document, tracer::TaskIndex task) {
    const auto& t = document.trace.tasks[task];
    const std::string_view codelet = document.trace.codeletOf(t);
    return codelet.empty() ? toQString(tracer::taskName(document.trace, t))
                           : toQString(tracer::jobName(document.trace, t.jobId) + " " + std::string(codelet));
}

QString taskAnchor(tracer::TaskIndex task) { return QStringLiteral("%1:%2").arg(kAnchorScheme).arg(task); }

std::optional<tracer::TaskIndex> taskOfAnchor(const QUrl& url) {
    if (url.scheme() != kAnchorScheme) {
        return std::nullopt;
    }
    bool ok = false;
    const qulonglong task = url.path().toULongLong(&ok);
    if (!ok || task >= tracer::kNoTask) {
        return std::nullopt;
    }
    return static_cast<tracer::TaskIndex>(task);
}

QString dependencyHtml(const TraceDocument& document, tracer::TaskIndex task) {
    const auto& trace = document.trace;
    if (task >= trace.tasks.size()) {
        return {};
    }
    const auto link = [&](tracer::TaskIndex other) {
        const QString name = taskName(document, other).toHtmlEscaped();
        return trace.tasks[other].start >= 0 ? QStringLiteral("<a href=\"%1\">%2</a>").arg(taskAnchor(other), name)
                                             : QStringLiteral("%1 (never ran)").arg(name);
    };
    const auto list = [&](const QString& title, const QColor& colour, const QStringList& items, std::size_t total) {
        QStringList shown = items.mid(0, static_cast<qsizetype>(kMaxListed));
        if (total > static_cast<std::size_t>(shown.size())) {
            shown << QStringLiteral("and %1 more").arg(total - static_cast<std::size_t>(shown.size()));
        }
        return QStringLiteral("<br><span style=\"color:%1\">&#9632;</span> %2: %3")
            .arg(colour.name(), title, shown.join(QStringLiteral(", ")));
    };
    QString html;
    // Dependencies by job id, those the trace does not hold included: a job of another process
    // or one the trace lost is still named.
    const auto dependencies = trace.dependenciesOf(task);
    if (!dependencies.empty()) {
        QStringList items;
        for (std::size_t i = 0; i < dependencies.size() && i < kMaxListed; ++i) {
            const auto other = document.taskGraph.taskOfJob(trace, dependencies[i]);
            items << (other ? link(*other) : QStringLiteral("job %1 (not in the trace)").arg(dependencies[i]));
        }
        html += list(QStringLiteral("waited for"), kPredecessorArrow, items, dependencies.size());
    }
    const auto successors = document.taskGraph.successors(trace, task);
    if (!successors.empty()) {
        QStringList items;
        for (std::size_t i = 0; i < successors.size() && i < kMaxListed; ++i) {
            items << link(successors[i]);
        }
        html += list(QStringLiteral("needed by"), kSuccessorArrow, items, successors.size());
    }
    return html;
}

} // namespace starscope::viewer
