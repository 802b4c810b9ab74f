#include "viewer/gui/chart/critical_path_links.hpp"

#include "viewer/gui/chart/link_plottable.hpp"

#include <vector>

namespace starscope::viewer {

namespace {

// A task's bar sits this far below its row's centre (rows are one unit apart), under the spans'
// colours so a codelet stays recognisable.
constexpr double kUnderline = 0.3;

} // namespace

CriticalPathLinks::CriticalPathLinks(QCPAxis* timeAxis, QCPAxis* rowAxis, const QString& layer)
    : ArrowLayer(timeAxis, rowAxis, layer, {QStringLiteral("critical path"), 2.5, false}) {}

std::vector<Link> CriticalPathLinks::layOut(const TimeView& view, const std::vector<Row>& /*rows*/,
                                            const std::vector<std::int32_t>& laneRows) {
    std::vector<Link> links;
    const auto& trace = document().trace;
    const auto& path = document().criticalPath;
    const auto rowOf = [&](const tracer::Task& task) -> double {
        const tracer::Lane* lane = trace.laneAt(task.lane);
        const auto index = lane == nullptr ? laneRows.size() : static_cast<std::size_t>(lane - trace.lanes.data());
        return index < laneRows.size() ? laneRows[index] : -1;
    };
    // The chain's tasks that ran: it also goes through jobs that never run (StarPU-MPI's
    // around a message to another rank, StarPU's synchronisation jobs), which have no row;
    // the arrow goes over them, from a rank's task to the one of the other rank it fed.
    std::vector<const tracer::Task*> ran;
    ran.reserve(path.size());
    for (const auto index : path) {
        const tracer::Task& task = trace.tasks[index];
        if (task.start >= 0 && trace.laneAt(task.lane) != nullptr) {
            ran.push_back(&task);
        }
    }
    for (std::size_t i = 0; i < ran.size(); ++i) {
        const tracer::Task& task = *ran[i];
        const auto start = static_cast<double>(task.start);
        const auto end = static_cast<double>(task.end);
        const double row = rowOf(task);
        // The chain runs forward in time: the next task starts after this one ends.
        const tracer::Task* next = i + 1 < ran.size() ? ran[i + 1] : nullptr;
        const double reach = next != nullptr ? std::max(end, static_cast<double>(next->start)) : end;
        if (reach < view.startNs || start > view.endNs || row < 0) {
            continue;
        }
        links.push_back({start, row + kUnderline, end, row + kUnderline, kCriticalPath});
        if (next != nullptr && rowOf(*next) >= 0) {
            links.push_back({end, row + kUnderline, static_cast<double>(next->start), rowOf(*next) + kUnderline,
                             kCriticalPath});
        }
    }
    return links;
}

} // namespace starscope::viewer
