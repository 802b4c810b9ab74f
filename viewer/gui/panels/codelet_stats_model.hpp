#pragma once
// The codelet table of the trace or of the selected range (tracer/analysis/codelet_stats.hpp):
// a row per codelet, and a row per kind of worker under it when several kinds ran it. StarPU's
// own codelets come last, greyed, as the chart mutes them.

#include "tracer/analysis/codelet_stats.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace starscope::viewer {

class CodeletStatsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { CodeletColumn, KindColumn, TasksColumn, TotalColumn, MeanColumn, MedianColumn, MinColumn,
                  MaxColumn, ColumnCount };
    // Numbers as numbers (tasks, ticks) for sorting; the codelet's name on every row of it.
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int CodeletRole = Qt::UserRole + 2;

    explicit CodeletStatsModel(QObject* parent = nullptr);

    void setStats(std::shared_ptr<const TraceDocument> document, std::vector<tracer::CodeletStats> codelets);
    void clear();
    const std::vector<tracer::CodeletStats>& codelets() const { return m_codelets; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // A table row: the codelet's, or one kind's under it (kind -1: all kinds).
    struct Row {
        std::size_t codelet = 0;
        int kind = -1;
    };
    const tracer::DurationSummary& durationsOf(const Row& row) const;

    std::shared_ptr<const TraceDocument> m_document;
    std::vector<tracer::CodeletStats> m_codelets;
    std::vector<Row> m_rows;
};

} // namespace starscope::viewer
