// TraceBuilder::absorb: the per-rank partial models of a job, decoded each on a thread of its
// own, appended into one in rank order. The result is the model the files give when decoded one
// after another into one builder (the FxT reader's tests compare the two): every table a part
// numbers by first use (states, names, codelet keys) is renumbered into this one's in the part's
// order, and what points into a table (lanes, tasks, spans) moves by the count before it.

#include "tracer/readers/trace_builder.hpp"

#include <utility>

namespace starscope::tracer::detail {

void TraceBuilder::absorb(TraceBuilder&& part) {
    auto& from = part.m_trace;
    auto& to = m_trace;
    const auto laneOffset = static_cast<std::int32_t>(to.lanes.size());
    const auto taskOffset = static_cast<TaskIndex>(to.tasks.size());
    const auto movedLane = [laneOffset](std::int16_t lane) {
        return lane < 0 ? lane : Trace::shortIndex(lane + laneOffset);
    };

    // States by the key state() gives them, in the part's numbering order.
    std::vector<const std::string*> keyOf(from.states.size(), nullptr);
    for (const auto& [key, id] : part.m_stateByName) {
        keyOf[id] = &key;
    }
    std::vector<std::uint32_t> stateOf(from.states.size());
    bool sameStates = true;
    for (std::uint32_t id = 0; id < from.states.size(); ++id) {
        const auto [it, added] = m_stateByName.try_emplace(*keyOf[id], static_cast<std::uint32_t>(to.states.size()));
        if (added) {
            to.states.push_back(std::move(from.states[id]));
        }
        stateOf[id] = it->second;
        sameStates = sameStates && it->second == id;
    }
    std::vector<NameId> nameOf(from.names.size());
    for (NameId id = 0; id < from.names.size(); ++id) {
        nameOf[id] = to.names.intern(from.names.name(id));
    }
    const auto movedName = [&nameOf](NameId name) { return name == kNoName ? name : nameOf[name]; };
    std::vector<CodeletKeyId> codeletOf(from.codeletKeys.size());
    for (CodeletKeyId id = 0; id < from.codeletKeys.size(); ++id) {
        const auto& key = from.codeletKeys.at(id);
        codeletOf[id] = to.codeletKeys.intern({movedName(key.codelet), key.footprint});
    }

    for (auto& lane : from.lanes) {
        to.lanes.push_back(std::move(lane));
    }
    m_laneBuilds.resize(static_cast<std::size_t>(laneOffset));
    for (auto& build : part.m_laneBuilds) {
        for (auto& open : build.stack) {
            open.state = stateOf[open.state];
            open.task = open.task == kNoTask ? kNoTask : open.task + taskOffset;
        }
        if (!sameStates) {
            // Beyond kMaxStates together (each part within it), readTrace refuses the trace
            // whatever its spans say: cut as the span's own constructor cuts.
            for (auto& level : build.levels) {
                for (auto& span : level) {
                    span = Span(span.start, span.end, stateOf[span.state], span.runsTask != 0);
                }
            }
        }
        m_laneBuilds.push_back(std::move(build));
    }

    to.tasks.reserve(to.tasks.size() + from.tasks.size());
    for (auto& task : from.tasks.edit()) {
        task.lane = movedLane(task.lane);
        task.codeletKey = task.codeletKey == kNoCodeletKey ? kNoCodeletKey : codeletOf[task.codeletKey];
        to.tasks.push_back(task);
    }
    // Job ids to tasks: a part's tables are of its own bases.
    if (m_denseTasks.size() < part.m_denseTasks.size()) {
        m_denseTasks.resize(part.m_denseTasks.size());
    }
    for (std::size_t base = 0; base < part.m_denseTasks.size(); ++base) {
        auto& theirs = part.m_denseTasks[base];
        auto& ours = m_denseTasks[base];
        if (ours.size() < theirs.size()) {
            ours.resize(theirs.size(), kNoTask);
        }
        for (std::size_t local = 0; local < theirs.size(); ++local) {
            if (theirs[local] != kNoTask) {
                ours[local] = theirs[local] + taskOffset;
            }
        }
    }
    for (const auto& [job, index] : part.m_taskByJob) {
        m_taskByJob[job] = index + taskOffset;
    }
    for (const auto task : part.m_dependencyTasks) {
        m_dependencyTasks.push_back(task + taskOffset);
    }
    m_dependencyJobs.insert(m_dependencyJobs.end(), part.m_dependencyJobs.begin(), part.m_dependencyJobs.end());

    for (auto marker : from.markers) {
        marker.lane = movedLane(marker.lane);
        marker.arena = movedName(marker.arena);
        marker.rawText = movedName(marker.rawText);
        to.markers.push_back(marker);
    }
    to.transfers.insert(to.transfers.end(), from.transfers.begin(), from.transfers.end());
    for (auto& warning : from.warnings) {
        warn(std::move(warning));
    }
    for (auto& [key, value] : from.metadata) {
        to.metadata.insert_or_assign(key, std::move(value));
    }
    m_clamped += part.m_clamped;
    m_latest = std::max(m_latest, part.m_latest);
    m_outOfRange += part.m_outOfRange;
    m_rerunTasks += part.m_rerunTasks;
    m_droppedMarkers += part.m_droppedMarkers;
    part = TraceBuilder();
}

} // namespace starscope::tracer::detail
