#pragma once
// The version-free half of the FxT reader: StarPU's events, once typed (starpu_records.hpp),
// become lanes, states, tasks, transfers, markers and MPI traffic. Follows starpu_fxt_tool's
// own interpretation (src/debug/traces/starpu_fxt.c of each version) so that the spans equal
// the states of its paje.trace: worker threads and their workers are one lane; a thread StarPU
// does not know as a worker is a user thread (the main thread submitting tasks).
//
// Where a thread wrote FxT's full buffer to the trace file (buffer_flushes.hpp), its lane is
// "Trace flush" for that time over whatever it was doing, which resumes after; a task running
// there is the longer of its parts (TraceBuilder::interruptState).
//
// Memory nodes get a lane when their manager first does something (a copy into the node, an
// allocation...), with its states pushed and popped as starpu_fxt_tool does.
//
// One exception: while FxT profiling is stopped (starpu_fxt_stop_profiling), starpu_fxt_tool
// keeps drawing each worker's last state; here every lane is "Not profiled" from the stop
// until its next state change after the restart, since nothing says what it did.

#include "tracer/readers/fxt/buffer_flushes.hpp"
#include "tracer/readers/fxt/data_use.hpp"
#include "tracer/readers/fxt/fxt_source.hpp"
#include "tracer/readers/fxt/model_ops.hpp"
#include "tracer/readers/fxt/mpi_merge.hpp"
#include "tracer/readers/fxt/starpu_layout.hpp"
#include "tracer/readers/fxt/starpu_records.hpp"
#include "tracer/readers/trace_builder.hpp"

#include <array>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace starscope::tracer::detail {

class RecordDecoder {
public:
    // clock and traffic for one rank of several (mpi_merge.hpp), null for one process alone.
    // The lanes, states and transfers are added to the builder, everything else goes through
    // ops; the data each transfer copied and each task accessed go to dataUse. lanePrefix starts
    // the name of each lane, warningPrefix each warning (the file's name, among several).
    RecordDecoder(TraceBuilder& builder, ModelOpSink& ops, const StarpuFxtLayout& layout,
                  std::string lanePrefix, std::string warningPrefix, std::uint64_t jobBase,
                  DataUse& dataUse, const RankClock* clock = nullptr,
                  RankTraffic* traffic = nullptr);

    // One event of the file, in file order: typed by its release's layout, then applied.
    bool handle(const RawEvent& ev);
    // After the last event: waits for the ops to be applied, then warns.
    void finish();
    std::size_t executedTasks() const { return m_executedTasks; }
    std::size_t workers() const { return m_workerLanes.size(); }
    // What a trace without any known worker holds instead, for the error that says so.
    std::string noWorkerFound() const;

    TimeNs mapTime(std::uint64_t time, std::uint64_t origin) const {
        // Unsigned difference: damaged timestamps may be anywhere in 64 bits, and a signed
        // one would overflow (the outlier filter drops such events later).
        return m_clock != nullptr ? m_clock->map(time) : static_cast<TimeNs>(time - origin);
    }

    // The records, each at the time of the event being handled.
    void on(const starpu::TooFewParameters&) { ++m_badEvents; }
    void on(const starpu::WorkerStart& r);
    void on(const starpu::WorkerReady& r);
    void on(const starpu::WorkerEnd& r);
    void on(const starpu::CodeletStart& r);
    void on(const starpu::CodeletEnd& r);
    void on(const starpu::Callback& r);
    void on(const starpu::ThreadSet& r) { threadSet(r.tid, r.state); }
    void on(const starpu::WorkerSet& r);
    void on(const starpu::ThreadPush& r) { threadPush(r.tid, r.state); }
    void on(const starpu::ThreadPop& r) { threadPop(r.tid); }
    void on(const starpu::SubmitPush& r);
    void on(const starpu::SubmitPop& r);
    void on(const starpu::TaskSubmitted& r) { m_ops.taskSubmit(job(r.job), m_now); }
    void on(const starpu::TaskName& r) { m_ops.taskNameIfUnset(job(r.job), r.name); }
    void on(const starpu::TaskFootprint& r) { m_ops.taskFootprint(job(r.job), r.footprint); }
    void on(const starpu::TaskDependency& r) { m_ops.dependency(job(r.job), job(r.dependsOn)); }
    void on(const starpu::TagOfJob& r) { m_tagJobs[r.tag] = job(r.job); }
    void on(const starpu::TagDependency& r) { m_tagDeps.emplace_back(r.child, r.father); }
    void on(const starpu::DriverCopy& r);
    void on(const starpu::MemoryNodePush& r);
    void on(const starpu::MemoryNodePop& r);
    void on(const starpu::DataAccess& r) { m_dataUse.accessed(job(r.job), r.handle); }
    void on(const starpu::UserString& r);
    void on(const starpu::ThreadString& r);
    void on(const starpu::UserValue& r);
    void on(const starpu::KeyMask& r) { keymask(r.mask, m_now); }
    void on(const starpu::BufferFlush& r) {
        if (r.start) {
            m_flushes.start(m_now);
        } else {
            m_flushes.stop(m_now);
        }
    }
    void on(const starpu::MpiStart& r);
    void on(const starpu::MpiStop& r);
    void on(const starpu::MpiCommSet& r) { commSet(r.state); }
    void on(const starpu::MpiCommPush& r);
    void on(const starpu::MpiCommPop& r);
    void on(const starpu::SendSubmitted& r);
    void on(const starpu::ReceiveTerminated& r);

private:
    struct Thread {
        std::int32_t lane = -1;
        bool sync = true;
    };

    std::uint64_t job(std::uint64_t id) const { return m_jobBase + id; }
    const Thread* worker(std::uint64_t tid) const {
        // Most events come in runs from one thread: the last tid asked is answered again first,
        // found or not (the main thread is no worker and asks as often as the workers). An
        // entry, once added, stays where it is; a worker start forgets the answer when it adds one.
        if (m_lastKnown && m_lastTid == tid) {
            return m_lastThread;
        }
        const auto it = m_threads.find(tid);
        m_lastTid = tid;
        m_lastKnown = true;
        m_lastThread = it == m_threads.end() ? nullptr : &it->second;
        return m_lastThread;
    }
    std::int32_t workerLane(std::uint64_t workerId) const {
        // StarPU numbers its workers from 0: a table for those ids, a hash lookup for others.
        if (workerId < kDenseWorkers) {
            return workerId < m_laneByWorker.size() ? m_laneByWorker[workerId] : -1;
        }
        const auto it = m_workerLanes.find(workerId);
        return it == m_workerLanes.end() ? -1 : it->second;
    }
    std::int32_t userLane(std::uint64_t tid);
    // The lane of a memory node, made on first use; -1 for a node number out of reason.
    std::int32_t memoryNodeLane(std::int32_t node);
    // State ids by alias, cached: this runs for most of the millions of events of a trace.
    std::uint32_t cachedState(std::string_view alias, LaneKind kind) {
        // The aliases are starpu_records.hpp's constants: by address first, without comparing
        // strings.
        const bool user = kind == LaneKind::MainThread;
        auto& recent =
            m_byLiteral[(reinterpret_cast<std::uintptr_t>(alias.data()) >> 1) % m_byLiteral.size()];
        if (recent.alias == alias.data() && recent.size == alias.size() && recent.user == user) {
            return recent.state;
        }
        const auto state = lookupState(alias, kind);
        recent = {alias.data(), alias.size(), user, state};
        return state;
    }
    std::uint32_t lookupState(std::string_view alias, LaneKind kind);
    std::uint32_t workerState(std::string_view alias) {
        return cachedState(alias, LaneKind::CpuWorker);
    }

    // An event of the thread of this lane: the buffer flush waiting for its thread may be its.
    void threadEvent(std::int32_t lane) {
        if (m_flushes.pending()) {
            showFlush(lane);
        }
    }
    void showFlush(std::int32_t lane);

    // Every state change of a thread's own events goes through these three: while profiling is
    // stopped there are none.
    void set(std::int32_t lane, TimeNs time, std::uint32_t state) {
        threadEvent(lane);
        if (!m_stopped) {
            m_ops.set(lane, time, state);
        }
    }
    void push(std::int32_t lane, TimeNs time, std::uint32_t state) {
        threadEvent(lane);
        if (!m_stopped) {
            m_ops.push(lane, time, state);
        }
    }
    void pop(std::int32_t lane, TimeNs time) {
        threadEvent(lane);
        if (!m_stopped) {
            m_ops.pop(lane, time);
        }
    }

    // starpu_fxt_tool's thread_set_state: only threads running one worker ("sync") show
    // their state on the worker.
    void threadSet(std::uint64_t tid, std::string_view alias) {
        if (const auto* t = worker(tid); t != nullptr && t->sync) {
            set(t->lane, m_now, workerState(alias));
        }
    }
    // Pushes and pops of a known worker go to it, of any other thread to a user thread.
    void threadPush(std::uint64_t tid, std::string_view alias);
    void threadPop(std::uint64_t tid);
    // StarPU-MPI's communication thread: callbacks and task submissions it runs are pushed on
    // its lane, as starpu_fxt_tool does (its other pushes go to a user thread, as there too).
    bool commThread(std::uint64_t tid) const { return m_commLane >= 0 && tid == m_commTid; }
    std::uint32_t commState(std::string_view alias);
    void commSet(std::string_view alias) {
        if (m_commLane >= 0) {
            set(m_commLane, m_now, commState(alias));
        }
    }
    void keymask(std::uint64_t mask, TimeNs time);
    // The states readers add of their own ("Not profiled", "Trace flush"), by lane kind, cached.
    std::uint32_t ownState(std::string_view name, LaneKind kind, std::int64_t& workerCache,
                           std::int64_t& userCache);
    std::uint32_t notProfiledState(LaneKind kind) {
        return ownState(kNotProfiledState, kind, m_notProfiledWorker, m_notProfiledUser);
    }

    TraceBuilder& m_b;
    ModelOpSink& m_ops;
    const StarpuFxtLayout& m_layout;
    std::string m_prefix;
    std::string m_warningPrefix;
    std::uint64_t m_jobBase;
    DataUse& m_dataUse;
    const RankClock* m_clock;
    RankTraffic* m_traffic;
    TimeNs m_now = 0; // the time of the event being handled
    std::int32_t m_commLane = -1;
    std::uint64_t m_commTid = 0;
    std::unordered_map<std::uint64_t, Thread> m_threads; // by tid
    mutable std::uint64_t m_lastTid = 0;
    mutable const Thread* m_lastThread = nullptr;
    mutable bool m_lastKnown = false;                              // m_lastThread answers m_lastTid
    std::unordered_map<std::uint64_t, std::int32_t> m_workerLanes; // by StarPU worker id
    static constexpr std::uint64_t kDenseWorkers = 4096;
    std::vector<std::int32_t> m_laneByWorker; // m_workerLanes' ids below kDenseWorkers, -1 between
    std::unordered_map<std::uint64_t, std::int32_t> m_userLanes; // by tid
    std::unordered_map<std::int64_t, std::int32_t> m_cudaStreams; // CUDA workers so far, by device
    std::vector<std::int32_t> m_memoryNodeLanes;                 // by node, -1 before its first state
    std::vector<std::int64_t> m_memoryNodeStates;                // state id by kStarpuMemoryNodeStates index
    std::uint64_t m_lastUserTid = 0;
    std::int32_t m_lastUserLane = -1; // m_userLanes' answer for m_lastUserTid
    std::unordered_map<std::uint64_t, std::uint64_t> m_tagJobs;     // tag -> job
    std::vector<std::pair<std::uint64_t, std::uint64_t>> m_tagDeps; // child, father tags
    std::vector<std::int64_t> m_workerStates; // state id by index in m_layout.states
    std::vector<std::int64_t> m_userStates;
    struct LiteralState {
        const char* alias = nullptr;
        std::size_t size = 0;
        bool user = false;
        std::uint32_t state = 0;
    };
    std::array<LiteralState, 64> m_byLiteral{};
    std::int64_t m_executing = -1;
    std::int64_t m_notProfiledWorker = -1;
    std::int64_t m_notProfiledUser = -1;
    std::int64_t m_traceFlushWorker = -1;
    std::int64_t m_traceFlushUser = -1;
    BufferFlushes m_flushes;
    bool m_stopped = false; // FxT profiling stopped by the key mask
    // Every category the key mask had on while profiling was on (setup and changes), and
    // whether the trace said at all: finish() names the figures the missing ones feed.
    std::uint64_t m_recordedMask = 0;
    bool m_maskSeen = false;
    void warnCategoriesLeftOut();
    std::size_t m_profilingStops = 0;
    std::size_t m_executedTasks = 0;
    std::size_t m_unknownWorkers = 0;
    std::set<std::uint64_t> m_unknownKinds;
    std::size_t m_starpuEvents = 0;
    std::size_t m_badEvents = 0;
    // starpu_fxt_tool's handle_start/end_driver_copy: a copy's start waits here for the end of
    // the same request id (com id).
    struct CopyStart {
        TimeNs time = 0;
        std::int32_t fromNode = -1;
        std::int32_t toNode = -1;
        std::uint64_t size = 0;
        TransferKind kind = TransferKind::Fetch;
        std::uint64_t handle = 0;
    };
    std::unordered_map<std::uint64_t, CopyStart> m_copies;
};

} // namespace starscope::tracer::detail
