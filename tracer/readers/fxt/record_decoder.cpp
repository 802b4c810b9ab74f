#include "tracer/readers/fxt/record_decoder.hpp"

#include "tracer/model/fxt_event_set.hpp"
#include "tracer/model/names.hpp"
#include "tracer/readers/fxt/starpu_mpi_codes.hpp"
#include "tracer/readers/fxt/starpu_record_decoding.hpp"

#include <algorithm>
#include <cstdio>

namespace starscope::tracer::detail {

RecordDecoder::RecordDecoder(TraceBuilder& builder, ModelOpSink& ops, const StarpuFxtLayout& layout,
                             std::string lanePrefix, std::string warningPrefix,
                             std::uint64_t jobBase, DataUse& dataUse, const RankClock* clock,
                             RankTraffic* traffic)
    : m_b(builder), m_ops(ops), m_layout(layout), m_prefix(std::move(lanePrefix)),
      m_warningPrefix(std::move(warningPrefix)), m_jobBase(jobBase), m_dataUse(dataUse),
      m_clock(clock), m_traffic(traffic) {
    m_workerStates.assign(layout.states.size(), -1);
    m_userStates.assign(layout.states.size(), -1);
    m_memoryNodeStates.assign(std::size(kStarpuMemoryNodeStates), -1);
}

bool RecordDecoder::handle(const RawEvent& ev) {
    m_now = mapTime(ev.time, ev.origin);
    m_starpuEvents += ev.code < kFutStopFlushCode ? 1U : 0U;
    decodeStarpuEvent(ev, m_layout, *this);
    return true;
}

std::uint32_t RecordDecoder::lookupState(std::string_view alias, LaneKind kind) {
    auto& cache = kind == LaneKind::MainThread ? m_userStates : m_workerStates;
    const auto& table = m_layout.states;
    std::size_t i = 0;
    while (i < table.size() && table[i].alias != alias) {
        ++i;
    }
    if (i == table.size()) {
        return m_b.state(alias, kind);
    }
    if (cache[i] < 0) {
        cache[i] = static_cast<std::int64_t>(m_b.state(table[i].name, kind));
    }
    return static_cast<std::uint32_t>(cache[i]);
}

std::uint32_t RecordDecoder::ownState(std::string_view name, LaneKind kind,
                                      std::int64_t& workerCache, std::int64_t& userCache) {
    auto& cached = kind == LaneKind::MainThread ? userCache : workerCache;
    if (cached < 0) {
        cached = static_cast<std::int64_t>(m_b.state(name, kind));
    }
    return static_cast<std::uint32_t>(cached);
}

void RecordDecoder::showFlush(std::int32_t lane) {
    if (const auto flush = m_flushes.threadEvent(lane)) {
        // The writing thread recorded nothing since before the write: its lane's states so far
        // all end before it.
        const auto kind = m_b.trace().lanes[static_cast<std::size_t>(lane)].kind;
        m_ops.interrupt(lane, flush->start, flush->end,
                        ownState(kTraceFlushState, kind, m_traceFlushWorker, m_traceFlushUser));
    }
}

std::int32_t RecordDecoder::userLane(std::uint64_t tid) {
    // Every push and pop of the main thread asks: the last answer first.
    if (m_lastUserLane >= 0 && m_lastUserTid == tid) {
        return m_lastUserLane;
    }
    std::int32_t lane = -1;
    if (const auto it = m_userLanes.find(tid); it != m_userLanes.end()) {
        lane = it->second;
    } else {
        lane = m_b.addLane(m_prefix + userThreadName(m_userLanes.size() + 1), LaneKind::MainThread, -1, -1);
        m_userLanes.emplace(tid, lane);
    }
    m_lastUserTid = tid;
    m_lastUserLane = lane;
    return lane;
}

std::int32_t RecordDecoder::memoryNodeLane(std::int32_t node) {
    // StarPU has at most STARPU_MAXNODES (a few dozen) memory nodes: a larger number is damage.
    constexpr std::int32_t kMaxNodes = 1024;
    if (node < 0 || node >= kMaxNodes) {
        return -1;
    }
    const auto at = static_cast<std::size_t>(node);
    if (m_memoryNodeLanes.size() <= at) {
        m_memoryNodeLanes.resize(at + 1, -1);
    }
    if (m_memoryNodeLanes[at] < 0) {
        m_memoryNodeLanes[at] =
            m_b.addLane(m_prefix + "Memory node " + std::to_string(node), LaneKind::MemoryNode, node, -1);
    }
    return m_memoryNodeLanes[at];
}

// starpu_fxt_tool's memnode_push_state and memnode_pop_state: whatever the key mask, as there.
void RecordDecoder::on(const starpu::MemoryNodePush& r) {
    const auto lane = memoryNodeLane(r.node);
    if (lane < 0) {
        ++m_badEvents;
        return;
    }
    std::size_t i = 0;
    while (i < std::size(kStarpuMemoryNodeStates) && kStarpuMemoryNodeStates[i].alias != r.state) {
        ++i;
    }
    if (i == std::size(kStarpuMemoryNodeStates)) {
        m_ops.push(lane, m_now, m_b.state(r.state, LaneKind::MemoryNode));
        return;
    }
    if (m_memoryNodeStates[i] < 0) {
        m_memoryNodeStates[i] = m_b.state(kStarpuMemoryNodeStates[i].name, LaneKind::MemoryNode);
    }
    m_ops.push(lane, m_now, static_cast<std::uint32_t>(m_memoryNodeStates[i]));
}

void RecordDecoder::on(const starpu::MemoryNodePop& r) {
    if (const auto lane = memoryNodeLane(r.node); lane >= 0) {
        m_ops.pop(lane, m_now);
    }
}

void RecordDecoder::threadPush(std::uint64_t tid, std::string_view alias) {
    if (const auto* t = worker(tid)) {
        if (t->sync) {
            push(t->lane, m_now, workerState(alias));
        }
        return;
    }
    if (!m_stopped) {
        push(userLane(tid), m_now, cachedState(alias, LaneKind::MainThread));
    }
}

void RecordDecoder::threadPop(std::uint64_t tid) {
    if (const auto* t = worker(tid)) {
        if (t->sync) {
            pop(t->lane, m_now);
        }
        return;
    }
    if (!m_stopped) {
        pop(userLane(tid), m_now);
    }
}

std::uint32_t RecordDecoder::commState(std::string_view alias) {
    for (const auto& s : starpu_mpi::kCommStates) {
        if (s.alias == alias) {
            return m_b.state(s.name, LaneKind::MpiThread);
        }
    }
    return m_b.state(alias, LaneKind::MpiThread);
}

void RecordDecoder::keymask(std::uint64_t mask, TimeNs time) {
    const bool stopped = StarpuFxtLayout::profilingStopped(mask);
    if (!stopped) {
        m_recordedMask |= mask;
        m_maskSeen = true;
    }
    if (stopped == m_stopped) {
        return;
    }
    if (stopped) {
        // Whatever each thread was doing is no longer recorded: every lane is "Not profiled".
        ++m_profilingStops;
        for (const auto& [workerId, lane] : m_workerLanes) {
            m_ops.reset(lane, time);
            m_ops.set(lane, time, notProfiledState(LaneKind::CpuWorker));
        }
        for (const auto& [tid, lane] : m_userLanes) {
            m_ops.reset(lane, time);
            m_ops.set(lane, time, notProfiledState(LaneKind::MainThread));
        }
    } else {
        // A worker's state stays unknown until its next change; a user thread's states are
        // all pushed, so from here on its base level is simply application code.
        for (const auto& [tid, lane] : m_userLanes) {
            m_ops.reset(lane, time);
        }
    }
    m_stopped = stopped;
}

void RecordDecoder::on(const starpu::WorkerStart& r) {
    if (!r.kind) {
        ++m_unknownWorkers;
        m_unknownKinds.insert(r.kindKey);
        return;
    }
    std::int32_t lane = workerLane(r.workerId);
    if (lane < 0) {
        // starpu_fxt_tool numbers a CUDA device's workers (its streams) "CUDA0_0", "CUDA0_1":
        // its first is "CUDA 0" here, the others "CUDA 0_1"... (the Paje reader's names too).
        std::string name = m_prefix + std::string(r.kind->name) + " " + std::to_string(r.devId);
        if (r.kind->lane == LaneKind::CudaWorker) {
            if (const auto stream = m_cudaStreams[r.devId]++; stream > 0) {
                name += "_" + std::to_string(stream);
            }
        }
        lane = m_b.addLane(std::move(name), r.kind->lane, r.memNode, static_cast<std::int32_t>(r.workerId));
        m_workerLanes.emplace(r.workerId, lane);
        if (r.workerId < kDenseWorkers) {
            m_laneByWorker.resize(std::max<std::size_t>(m_laneByWorker.size(), r.workerId + 1), -1);
            m_laneByWorker[r.workerId] = lane;
        }
        if (m_stopped) {
            m_ops.set(lane, m_now, notProfiledState(LaneKind::CpuWorker));
        }
    }
    m_threads[r.tid] = Thread{lane, r.sync};
    m_lastKnown = false;
    threadSet(r.tid, starpu::kInitializing);
}

void RecordDecoder::on(const starpu::WorkerReady& r) {
    const Thread* th = worker(r.tid);
    const std::int32_t lane = r.workerId ? workerLane(*r.workerId) : (th ? th->lane : -1);
    threadSet(r.tid, starpu::kOverhead);
    if (lane >= 0) {
        set(lane, m_now, workerState(starpu::kIdle));
    }
}

void RecordDecoder::on(const starpu::WorkerEnd& r) {
    // starpu_fxt_tool destroys the thread's container: its worker's states end here.
    if (const auto* th = worker(r.tid)) {
        threadEvent(th->lane);
        m_ops.reset(th->lane, m_now);
    }
}

void RecordDecoder::on(const starpu::CodeletStart& r) {
    const auto lane = workerLane(r.workerId);
    if (lane < 0) {
        return;
    }
    const auto id = job(r.job);
    if (r.codelet) {
        m_ops.taskCodelet(id, *r.codelet);
    } else {
        m_ops.taskNameIfUnset(id, "unknown"); // named at submission (TaskName)
    }
    if (m_executing < 0) {
        m_executing = m_b.state(kExecutingState, LaneKind::CpuWorker);
    }
    ++m_executedTasks;
    threadEvent(lane);
    if (!m_stopped) {
        m_ops.setTask(lane, m_now, static_cast<std::uint32_t>(m_executing), id);
    }
}

void RecordDecoder::on(const starpu::CodeletEnd& r) {
    const auto lane = workerLane(r.workerId);
    if (lane < 0) {
        return;
    }
    const auto* th = worker(r.tid);
    set(lane, m_now, workerState(th != nullptr && th->sync ? starpu::kOverhead : starpu::kIdle));
    m_ops.taskFootprint(job(r.job), r.footprint);
}

void RecordDecoder::on(const starpu::Callback& r) {
    if (worker(r.tid) != nullptr) {
        threadSet(r.tid, r.start ? starpu::kCallback : starpu::kOverhead);
    } else if (r.start) {
        on(starpu::SubmitPush{r.tid, starpu::kCallback});
    } else {
        on(starpu::SubmitPop{r.tid});
    }
}

void RecordDecoder::on(const starpu::WorkerSet& r) {
    if (const auto lane = workerLane(r.workerId); lane >= 0) {
        set(lane, m_now, workerState(r.state));
    }
}

void RecordDecoder::on(const starpu::SubmitPush& r) {
    if (commThread(r.tid)) {
        push(m_commLane, m_now, commState(r.state));
    } else {
        threadPush(r.tid, r.state);
    }
}

void RecordDecoder::on(const starpu::SubmitPop& r) {
    if (commThread(r.tid)) {
        pop(m_commLane, m_now);
    } else {
        threadPop(r.tid);
    }
}

void RecordDecoder::on(const starpu::DriverCopy& r) {
    if (!r.kind) {
        ++m_badEvents;
        return;
    }
    if (m_stopped) {
        return;
    }
    if (r.start) {
        m_copies[r.comId] = CopyStart{m_now, r.fromNode, r.toNode, r.size, *r.kind, r.handle};
        return;
    }
    const auto it = m_copies.find(r.comId);
    if (it == m_copies.end()) {
        return; // started before the trace (or profiling) did: starpu_fxt_tool draws no link either
    }
    const auto& start = it->second;
    Transfer transfer;
    transfer.fromNode = start.fromNode;
    transfer.toNode = start.toNode;
    transfer.kind = start.kind;
    transfer.start = start.time;
    transfer.end = std::max(m_now, start.time);
    transfer.size = start.size;
    if (start.handle != 0) {
        m_dataUse.copied(m_b.trace().transfers.size(), start.handle);
    }
    m_b.trace().transfers.push_back(transfer);
    m_copies.erase(it);
}

void RecordDecoder::on(const starpu::UserString& r) {
    if (r.text == kStopProfilingEvent) {
        keymask(0, m_now);
    } else if (r.text == kFxtFlushEvent) {
        m_flushes.callback();
    }
    m_ops.marker(m_now, -1, r.text);
}

void RecordDecoder::on(const starpu::ThreadString& r) {
    const auto* th = worker(r.tid);
    const auto user = m_userLanes.find(r.tid);
    const std::int32_t lane = th ? th->lane : user != m_userLanes.end() ? user->second : -1;
    threadEvent(lane);
    m_ops.marker(m_now, lane, r.text);
}

void RecordDecoder::on(const starpu::UserValue& r) {
    const auto* th = worker(r.tid);
    threadEvent(th ? th->lane : -1);
    m_ops.marker(m_now, th ? th->lane : -1, std::to_string(r.value));
}

// starpu_fxt_tool's handle_mpi_*: the communication thread's states, and the sends and
// receives it matches into messages when it reads several ranks.
void RecordDecoder::on(const starpu::MpiStart& r) {
    if (r.tid && m_commLane < 0) {
        m_commTid = *r.tid;
        m_commLane = m_b.addLane(m_prefix + "MPI thread", LaneKind::MpiThread, -1, -1);
        if (m_traffic != nullptr) {
            m_traffic->commLane = m_commLane;
        }
    }
    commSet(starpu::kSleeping);
}

void RecordDecoder::on(const starpu::MpiStop&) {
    // starpu_fxt_tool destroys the thread's container here.
    if (m_commLane >= 0) {
        threadEvent(m_commLane);
        m_ops.reset(m_commLane, m_now);
    }
}

void RecordDecoder::on(const starpu::MpiCommPush& r) {
    if (m_commLane >= 0) {
        push(m_commLane, m_now, commState(r.state));
    }
}

void RecordDecoder::on(const starpu::MpiCommPop&) {
    if (m_commLane >= 0) {
        pop(m_commLane, m_now);
    }
}

void RecordDecoder::on(const starpu::SendSubmitted& r) {
    if (m_traffic != nullptr) {
        m_traffic->sends.push_back(MpiSend{r.dest, r.mpiTag, r.size, m_now,
                                           r.job > 0 ? job(static_cast<std::uint64_t>(r.job)) : 0});
    }
}

void RecordDecoder::on(const starpu::ReceiveTerminated& r) {
    if (m_traffic != nullptr) {
        m_traffic->receives.push_back(MpiReceive{
            r.source, r.mpiTag, m_now, r.job > 0 ? job(static_cast<std::uint64_t>(r.job)) : 0});
    }
}

void RecordDecoder::finish() {
    m_flushes.finish();
    for (const auto& [child, father] : m_tagDeps) {
        const auto c = m_tagJobs.find(child);
        const auto f = m_tagJobs.find(father);
        if (c != m_tagJobs.end() && f != m_tagJobs.end()) {
            m_ops.dependency(c->second, f->second);
        }
    }
    m_ops.drain();
    if (m_ops.unbalancedPops() > 0) {
        m_b.warn(m_warningPrefix + std::to_string(m_ops.unbalancedPops())
                 + " state pops without a matching push were ignored");
    }
    if (m_unknownWorkers > 0) {
        m_b.warn(m_warningPrefix + std::to_string(m_unknownWorkers)
                 + " workers of an unknown kind were dropped");
    }
    if (m_badEvents > 0) {
        m_b.warn(m_warningPrefix + std::to_string(m_badEvents)
                 + " events with too few parameters were dropped");
    }
    if (m_flushes.unattributed() > 0) {
        m_b.warn(
            m_warningPrefix + std::to_string(m_flushes.unattributed())
            + " FxT buffer flushes of no known thread are not shown (StarPU's \"fxt flush\" event "
              "after "
              "them missing: a libfxt without the flush callback, or user events not recorded)");
    }
    if (m_profilingStops > 0) {
        m_b.warn(m_warningPrefix + "FxT profiling was stopped " + std::to_string(m_profilingStops)
                 + (m_profilingStops == 1 ? " time" : " times")
                 + " (starpu_fxt_stop_profiling): that time is \"Not profiled\", not sleeping");
    }
    warnCategoriesLeftOut();
}

// What starscope shows from each category StarPU 1.4 can leave out of a trace
// (STARPU_FXT_EVENTS; bench/workloads/fxt_categories_1.4.12.md measured what goes without it):
// a trace without the category says so instead of showing a silent zero.
void RecordDecoder::warnCategoriesLeftOut() {
    struct Feeds {
        FxtCategory category;
        const char* what;
    };
    static constexpr Feeds kFeeds[] = {
        {FxtCategory::Task, "tasks not recorded (no executing time, dependency or critical path)"},
        {FxtCategory::TaskVerbose, "the main thread's submitting and waiting states not recorded"},
        {FxtCategory::Worker, "sleeping not recorded"},
        {FxtCategory::WorkerVerbose,
         "the workers' scheduling, progressing and fetching states not recorded"},
        {FxtCategory::Dsm, "transfers and the pushing-output state not recorded"},
        {FxtCategory::Event, "markers not recorded (no batch transition)"},
        {FxtCategory::User, "numeric user events (starpu_fxt_trace_user_event) not recorded"},
        {FxtCategory::Mpi, "StarPU-MPI messages not recorded"},
    };
    if (!m_layout.maskSelectsCategories || !m_maskSeen) {
        return;
    }
    const auto recorded = FxtEventSet::fromMask(m_recordedMask);
    for (const auto& feeds : kFeeds) {
        // A single process sends no StarPU-MPI message whatever it records.
        if (feeds.category == FxtCategory::Mpi && m_traffic == nullptr) {
            continue;
        }
        if (!recorded.has(feeds.category)) {
            m_b.warn(m_warningPrefix + feeds.what + ": the trace's FxT event set leaves out "
                     + std::string(fxtCategoryName(feeds.category)));
        }
    }
}

std::string RecordDecoder::noWorkerFound() const {
    std::string what = "no StarPU worker found in the FxT trace: ";
    if (m_unknownWorkers > 0) {
        std::string keys;
        for (const auto key : m_unknownKinds) {
            char hex[24];
            std::snprintf(hex, sizeof hex, "%s0x%llx", keys.empty() ? "" : ", ",
                          static_cast<unsigned long long>(key));
            keys += hex;
        }
        what += std::to_string(m_unknownWorkers) + " worker starts of kinds StarPU "
                + std::string(m_layout.version) + " does not have (" + keys + ")";
    } else {
        what += std::to_string(m_starpuEvents) + " StarPU events but no worker start";
    }
    return what
           + "; starscope reads the FxT traces of StarPU 1.3 and 1.4 (is this another StarPU?)";
}

} // namespace starscope::tracer::detail
