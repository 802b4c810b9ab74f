// StarPU 1.3 and 1.4 FxT events -> trace model. Follows starpu_fxt_tool's own
// interpretation (src/debug/traces/starpu_fxt.c of each version) so that the spans equal the
// states of its paje.trace: worker threads and their workers are one lane; a thread StarPU
// does not know as a worker is a user thread (the main thread submitting tasks).
//
// One exception: while FxT profiling is stopped (starpu_fxt_stop_profiling), starpu_fxt_tool
// keeps drawing each worker's last state; here every lane is "Not profiled" from the stop
// until its next state change after the restart, since nothing says what it did.

#include "tracer/readers/fxt/fxt_source.hpp"
#include "tracer/readers/fxt/model_ops.hpp"
#include "tracer/readers/fxt/mpi_merge.hpp"
#include "tracer/readers/fxt/starpu_mpi_codes.hpp"
#include "tracer/readers/fxt/starpu_1_4_12_codes.hpp"
#include "tracer/readers/fxt/starpu_layout.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/readers/trace_builder.hpp"

#include "tracer/readers/fxt/fxt_direct.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>

namespace starscope::tracer {

namespace {

// The codes both versions share (starpu_layout.cpp checks they are equal); what differs is
// read from the StarpuFxtLayout.
namespace codes = detail::starpu_1_4_12;
using detail::ModelOpSink;
using detail::RawEvent;
using detail::StarpuFxtLayout;
using detail::TraceBuilder;

// A string packed into the parameters from index `from` on (NUL-terminated, or cut at the
// end of the event as starpu_fxt_tool does), valid while the event is.
std::string_view paramString(const RawEvent& ev, std::uint32_t from) {
    if (ev.paramCount <= from) {
        return {};
    }
    const auto* bytes = reinterpret_cast<const char*>(ev.params + from);
    const std::size_t max = (ev.paramCount - from) * sizeof(std::uint64_t);
    return {bytes, strnlen(bytes, max)};
}

class FileDecoder {
public:
    // clock and traffic for one rank of several (mpi_merge.hpp), null for one process alone.
    // The lanes and states are added to the builder, everything else goes through ops.
    FileDecoder(TraceBuilder& builder, ModelOpSink& ops, const StarpuFxtLayout& layout, std::string lanePrefix,
                std::uint64_t jobBase, const detail::RankClock* clock = nullptr,
                detail::RankTraffic* traffic = nullptr)
        : m_b(builder), m_ops(ops), m_layout(layout), m_prefix(std::move(lanePrefix)), m_jobBase(jobBase),
          m_clock(clock), m_traffic(traffic) {
        m_workerStates.assign(layout.states.size(), -1);
        m_userStates.assign(layout.states.size(), -1);
    }

    bool handle(const RawEvent& ev);
    // After the last event: waits for the ops to be applied, then warns.
    void finish();
    std::size_t executedTasks() const { return m_executedTasks; }
    std::size_t workers() const { return m_workerLanes.size(); }
    // What a trace without any known worker holds instead, for the error that says so.
    std::string noWorkerFound() const;

private:
    struct Thread {
        std::int32_t lane = -1;
        bool sync = true;
    };
    TimeNs now(const RawEvent& ev) const { return mapTime(ev.time, ev.origin); }

public:
    TimeNs mapTime(std::uint64_t time, std::uint64_t origin) const {
        // Unsigned difference: damaged timestamps may be anywhere in 64 bits, and a signed
        // one would overflow (the outlier filter drops such events later).
        return m_clock != nullptr ? m_clock->map(time) : static_cast<TimeNs>(time - origin);
    }

private:
    std::uint64_t p(const RawEvent& ev, std::uint32_t i) const {
        return i < ev.paramCount ? ev.params[i] : 0;
    }
    std::uint64_t job(std::uint64_t id) const { return m_jobBase + id; }
    const Thread* worker(std::uint64_t tid) const {
        // Most events come in runs from one thread: the last tid asked is answered again first,
        // found or not (the main thread is no worker and asks as often as the workers). An
        // entry, once added, stays where it is; initStart forgets the answer when it adds one.
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
    std::int32_t userLane(std::uint64_t tid, TimeNs time);
    // State ids by alias, cached: this runs for most of the millions of events of a trace.
    std::uint32_t cachedState(std::string_view alias, LaneKind kind) {
        // The aliases are handle()'s literals: by address first, without comparing strings.
        const bool user = kind == LaneKind::MainThread;
        auto& recent = m_byLiteral[(reinterpret_cast<std::uintptr_t>(alias.data()) >> 1) % m_byLiteral.size()];
        if (recent.alias == alias.data() && recent.size == alias.size() && recent.user == user) {
            return recent.state;
        }
        const auto state = lookupState(alias, kind);
        recent = {alias.data(), alias.size(), user, state};
        return state;
    }
    std::uint32_t lookupState(std::string_view alias, LaneKind kind) {
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
    std::uint32_t workerState(std::string_view alias) { return cachedState(alias, LaneKind::CpuWorker); }

    // Every state change goes through these three: while profiling is stopped there are none.
    void set(std::int32_t lane, TimeNs time, std::uint32_t state) {
        if (!m_stopped) {
            m_ops.set(lane, time, state);
        }
    }
    void push(std::int32_t lane, TimeNs time, std::uint32_t state) {
        if (!m_stopped) {
            m_ops.push(lane, time, state);
        }
    }
    void pop(std::int32_t lane, TimeNs time) {
        if (!m_stopped) {
            m_ops.pop(lane, time);
        }
    }

    // starpu_fxt_tool's thread_set_state: only threads running one worker ("sync") show
    // their state on the worker.
    void threadSet(std::uint64_t tid, TimeNs time, std::string_view alias) {
        if (const auto* t = worker(tid); t != nullptr && t->sync) {
            set(t->lane, time, workerState(alias));
        }
    }
    // Pushes and pops of a known worker go to it, of any other thread to a user thread.
    void threadPush(std::uint64_t tid, TimeNs time, std::string_view alias) {
        if (const auto* t = worker(tid)) {
            if (t->sync) {
                push(t->lane, time, workerState(alias));
            }
            return;
        }
        if (!m_stopped) {
            push(userLane(tid, time), time, cachedState(alias, LaneKind::MainThread));
        }
    }
    void threadPop(std::uint64_t tid, TimeNs time) {
        if (const auto* t = worker(tid)) {
            if (t->sync) {
                pop(t->lane, time);
            }
            return;
        }
        if (!m_stopped) {
            pop(userLane(tid, time), time);
        }
    }
    // StarPU-MPI's communication thread: callbacks and task submissions it runs are pushed on
    // its lane, as starpu_fxt_tool does (its other pushes go to a user thread, as there too).
    bool commThread(std::uint64_t tid) const { return m_commLane >= 0 && tid == m_commTid; }
    void submitPush(std::uint64_t tid, TimeNs time, std::string_view alias) {
        if (commThread(tid)) {
            push(m_commLane, time, commState(alias));
        } else {
            threadPush(tid, time, alias);
        }
    }
    void submitPop(std::uint64_t tid, TimeNs time) {
        if (commThread(tid)) {
            pop(m_commLane, time);
        } else {
            threadPop(tid, time);
        }
    }
    std::uint32_t commState(std::string_view alias) {
        for (const auto& s : detail::starpu_mpi::kCommStates) {
            if (s.alias == alias) {
                return m_b.state(s.name, LaneKind::MpiThread);
            }
        }
        return m_b.state(alias, LaneKind::MpiThread);
    }
    void mpiEvent(const RawEvent& ev, TimeNs t);
    void initStart(const RawEvent& ev);
    void keymask(std::uint64_t mask, TimeNs time);
    std::uint32_t notProfiledState(LaneKind kind) {
        auto& cached = kind == LaneKind::MainThread ? m_notProfiledUser : m_notProfiledWorker;
        if (cached < 0) {
            cached = static_cast<std::int64_t>(m_b.state(kNotProfiledState, kind));
        }
        return static_cast<std::uint32_t>(cached);
    }

    TraceBuilder& m_b;
    ModelOpSink& m_ops;
    const StarpuFxtLayout& m_layout;
    std::string m_prefix;
    std::uint64_t m_jobBase;
    const detail::RankClock* m_clock;
    detail::RankTraffic* m_traffic;
    std::int32_t m_commLane = -1;
    std::uint64_t m_commTid = 0;
    std::unordered_map<std::uint64_t, Thread> m_threads;          // by tid
    mutable std::uint64_t m_lastTid = 0;
    mutable const Thread* m_lastThread = nullptr;
    mutable bool m_lastKnown = false;   // m_lastThread answers m_lastTid
    std::unordered_map<std::uint64_t, std::int32_t> m_workerLanes;  // by StarPU worker id
    static constexpr std::uint64_t kDenseWorkers = 4096;
    std::vector<std::int32_t> m_laneByWorker;   // m_workerLanes' ids below kDenseWorkers, -1 between
    std::unordered_map<std::uint64_t, std::int32_t> m_userLanes;    // by tid
    std::uint64_t m_lastUserTid = 0;
    std::int32_t m_lastUserLane = -1;   // m_userLanes' answer for m_lastUserTid
    std::unordered_map<std::uint64_t, std::uint64_t> m_tagJobs;     // tag -> job
    std::vector<std::pair<std::uint64_t, std::uint64_t>> m_tagDeps;   // child, father tags
    std::vector<std::int64_t> m_workerStates;   // state id by index in m_layout.states
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
    bool m_stopped = false;                     // FxT profiling stopped by the key mask
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
    };
    std::unordered_map<std::uint64_t, CopyStart> m_copies;
    void driverCopy(const RawEvent& ev, TimeNs t);
};

std::int32_t FileDecoder::userLane(std::uint64_t tid, TimeNs /*time*/) {
    // Every push and pop of the main thread asks: the last answer first.
    if (m_lastUserLane >= 0 && m_lastUserTid == tid) {
        return m_lastUserLane;
    }
    std::int32_t lane = -1;
    if (const auto it = m_userLanes.find(tid); it != m_userLanes.end()) {
        lane = it->second;
    } else {
        std::string name = m_userLanes.empty() ? "main" : "UserThread" + std::to_string(tid);
        lane = m_b.addLane(m_prefix + name, LaneKind::MainThread, -1, -1);
        m_userLanes.emplace(tid, lane);
    }
    m_lastUserTid = tid;
    m_lastUserLane = lane;
    return lane;
}

void FileDecoder::keymask(std::uint64_t mask, TimeNs time) {
    const bool stopped = StarpuFxtLayout::profilingStopped(mask);
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

void FileDecoder::initStart(const RawEvent& ev) {
    if (ev.paramCount < 7) {
        ++m_badEvents;
        return;
    }
    const auto workerId = p(ev, 1);
    const auto devid = static_cast<std::int64_t>(p(ev, 2));
    const auto node = static_cast<std::int32_t>(p(ev, 3));
    const bool sync = p(ev, 5) != 0;
    const auto tid = p(ev, 6);
    const auto kind = m_layout.workerKind(p(ev, 0));
    if (!kind) {
        ++m_unknownWorkers;
        m_unknownKinds.insert(p(ev, 0));
        return;
    }
    std::int32_t lane = workerLane(workerId);
    if (lane < 0) {
        lane = m_b.addLane(m_prefix + std::string(kind->name) + " " + std::to_string(devid), kind->lane, node,
                           static_cast<std::int32_t>(workerId));
        m_workerLanes.emplace(workerId, lane);
        if (workerId < kDenseWorkers) {
            m_laneByWorker.resize(std::max<std::size_t>(m_laneByWorker.size(), workerId + 1), -1);
            m_laneByWorker[workerId] = lane;
        }
        if (m_stopped) {
            m_ops.set(lane, now(ev), notProfiledState(LaneKind::CpuWorker));
        }
    }
    m_threads[tid] = Thread{lane, sync};
    m_lastKnown = false;
    threadSet(tid, now(ev), "In");
}

std::string FileDecoder::noWorkerFound() const {
    std::string what = "no StarPU worker found in the FxT trace: ";
    if (m_unknownWorkers > 0) {
        std::string keys;
        for (const auto key : m_unknownKinds) {
            char hex[24];
            std::snprintf(hex, sizeof hex, "%s0x%llx", keys.empty() ? "" : ", ", static_cast<unsigned long long>(key));
            keys += hex;
        }
        what += std::to_string(m_unknownWorkers) + " worker starts of kinds StarPU " + std::string(m_layout.version)
                + " does not have (" + keys + ")";
    } else {
        what += std::to_string(m_starpuEvents) + " StarPU events but no worker start";
    }
    return what + "; starscope reads the FxT traces of StarPU 1.3 and 1.4 (is this another StarPU?)";
}

bool FileDecoder::handle(const RawEvent& ev) {
    const TimeNs t = now(ev);
    m_starpuEvents += ev.code < detail::kFutKeychangeCode ? 1U : 0U;
    switch (ev.code) {
    case codes::WorkerInitStart: initStart(ev); break;
    case codes::WorkerInitEnd: {
        const Thread* th = worker(p(ev, 0));
        const std::int32_t lane = ev.paramCount >= 2 ? workerLane(p(ev, 1)) : (th ? th->lane : -1);
        threadSet(p(ev, 0), t, "B");
        if (lane >= 0) {
            set(lane, t, workerState("I"));
        }
        break;
    }
    case codes::WorkerDeinitStart: threadSet(p(ev, 0), t, "D"); break;
    case codes::WorkerDeinitEnd:
        // starpu_fxt_tool destroys the thread's container: its worker's states end here.
        if (const auto* th = worker(p(ev, 1))) {
            m_ops.reset(th->lane, t);
        }
        break;
    case codes::StartCodeletBody: {
        const auto lane = workerLane(p(ev, 2));
        if (lane < 0 || ev.paramCount < (m_layout.codeletBodyCarriesName ? 5U : 4U)) {
            break;
        }
        const auto id = job(p(ev, 0));
        if (m_layout.codeletBodyCarriesName) {
            m_ops.taskCodelet(id, p(ev, 4) != 0 ? paramString(ev, 5) : std::string_view("unknown"));
        } else {
            m_ops.taskNameIfUnset(id, "unknown");   // 1.4 names tasks at submission (TaskName)
        }
        if (m_executing < 0) {
            m_executing = m_b.state(detail::kExecutingState, LaneKind::CpuWorker);
        }
        ++m_executedTasks;
        if (!m_stopped) {
            m_ops.setTask(lane, t, static_cast<std::uint32_t>(m_executing), id);
        }
        break;
    }
    case codes::EndCodeletBody: {
        const auto lane = workerLane(p(ev, 3));
        if (lane < 0) {
            break;
        }
        const auto* th = worker(p(ev, 4));
        set(lane, t, workerState(th != nullptr && th->sync ? "B" : "I"));
        m_ops.taskFootprint(job(p(ev, 0)), static_cast<std::uint32_t>(p(ev, 2)));
        break;
    }
    case codes::StartCallback:
    case codes::EndCallback: {
        const bool start = ev.code == codes::StartCallback;
        if (worker(p(ev, 1)) != nullptr) {
            threadSet(p(ev, 1), t, start ? "C" : "B");
        } else if (start) {
            submitPush(p(ev, 1), t, "C");
        } else {
            submitPop(p(ev, 1), t);
        }
        break;
    }
    case codes::StartFetchInputOnTid:
    case codes::StartPushOutputOnTid:
    case codes::StartProgressOnTid:
    case codes::StartUnpartitionOnTid:
    case codes::EndFetchInputOnTid:
    case codes::EndPushOutputOnTid:
    case codes::EndProgressOnTid:
    case codes::EndUnpartitionOnTid: {
        const std::string_view alias = ev.code == codes::StartFetchInputOnTid    ? "Fi"
                                       : ev.code == codes::StartPushOutputOnTid  ? "Po"
                                       : ev.code == codes::StartProgressOnTid    ? "P"
                                       : ev.code == codes::StartUnpartitionOnTid ? "U"
                                                                                 : "B";
        threadSet(p(ev, 1), t, alias);
        break;
    }
    case codes::StartFetchInput:
    case codes::EndFetchInput: {
        const auto lane = workerLane(p(ev, 1));
        if (lane >= 0) {
            set(lane, t, workerState(ev.code == codes::StartFetchInput ? "Fi" : "B"));
        }
        break;
    }
    case codes::WorkerSchedulingStart: threadSet(p(ev, 0), t, "Sc"); break;
    case codes::WorkerSchedulingEnd: threadSet(p(ev, 0), t, "B"); break;
    case codes::WorkerSchedulingPush: threadPush(p(ev, 0), t, "Sc"); break;
    case codes::WorkerSchedulingPop: threadPop(p(ev, 0), t); break;
    case codes::WorkerSleepStart: threadSet(p(ev, 0), t, "Sl"); break;
    case codes::WorkerSleepEnd: threadSet(p(ev, 0), t, "B"); break;
    case codes::TaskBuildStart: submitPush(p(ev, 0), t, "Bu"); break;
    case codes::TaskSubmitStart: submitPush(p(ev, 0), t, "Su"); break;
    case codes::TaskThrottleStart: submitPush(p(ev, 0), t, "Th"); break;
    case codes::TaskMpiDecodeStart: submitPush(p(ev, 0), t, "MD"); break;
    case codes::TaskMpiPreStart: submitPush(p(ev, 0), t, "MPr"); break;
    case codes::TaskMpiPostStart: submitPush(p(ev, 0), t, "MPo"); break;
    case codes::TaskWaitStart: submitPush(p(ev, 1), t, "W"); break;
    case codes::TaskWaitForAllStart: submitPush(p(ev, 0), t, "WA"); break;
    case codes::TaskBuildEnd:
    case codes::TaskSubmitEnd:
    case codes::TaskThrottleEnd:
    case codes::TaskMpiDecodeEnd:
    case codes::TaskMpiPreEnd:
    case codes::TaskMpiPostEnd:
    case codes::TaskWaitForAllEnd:
    case codes::TaskWaitEnd: submitPop(p(ev, 0), t); break;
    case codes::TaskSubmit: m_ops.taskSubmit(job(p(ev, 0)), t); break;
    case codes::StartDriverCopy:
    case codes::EndDriverCopy: driverCopy(ev, t); break;
    case codes::TaskName:
        if (ev.paramCount > m_layout.taskNameAt) {
            m_ops.taskNameIfUnset(job(p(ev, 0)), paramString(ev, m_layout.taskNameAt));
        }
        break;
    case codes::CodeletDetails:
        if (ev.paramCount >= 7) {
            m_ops.taskFootprint(job(p(ev, 6)), static_cast<std::uint32_t>(p(ev, 2)));
        }
        break;
    case codes::TaskDeps: m_ops.dependency(job(p(ev, 1)), job(p(ev, 0))); break;
    case codes::Tag: m_tagJobs[p(ev, 0)] = job(p(ev, 1)); break;
    case codes::TagDeps: m_tagDeps.emplace_back(p(ev, 0), p(ev, 1)); break;
    case codes::Event: {
        const auto text = paramString(ev, 0);
        if (text == detail::kStopProfilingEvent) {
            keymask(0, t);
        }
        m_ops.marker(t, -1, text);
        break;
    }
    case codes::ThreadEvent: {
        const auto* th = worker(p(ev, 0));
        const auto user = m_userLanes.find(p(ev, 0));
        const std::int32_t lane = th ? th->lane : user != m_userLanes.end() ? user->second : -1;
        m_ops.marker(t, lane, paramString(ev, 1));
        break;
    }
    case codes::UserEvent: {
        const auto* th = worker(p(ev, 1));
        m_ops.marker(t, th ? th->lane : -1, std::to_string(p(ev, 0)));
        break;
    }
    case detail::kFutSetupCode:
    case detail::kFutKeychangeCode:
        if (ev.paramCount >= 1) {
            keymask(p(ev, 0), t);
        }
        break;
    default:
        if (ev.code >= detail::starpu_mpi::Start && ev.code <= detail::starpu_mpi::TestEnd) {
            mpiEvent(ev, t);
        }
        break;
    }
    return true;
}

// starpu_fxt_tool's handle_mpi_*: the communication thread's states, and the sends and
// receives it matches into messages when it reads several ranks.
void FileDecoder::mpiEvent(const RawEvent& ev, TimeNs t) {
    namespace mpi = detail::starpu_mpi;
    const auto commSet = [&](std::string_view alias) {
        if (m_commLane >= 0) {
            set(m_commLane, t, commState(alias));
        }
    };
    switch (ev.code) {
    case mpi::Start:
        if (ev.paramCount >= 3 && m_commLane < 0) {
            m_commTid = p(ev, 2);
            m_commLane = m_b.addLane(m_prefix + "MPI thread", LaneKind::MpiThread, -1, -1);
            if (m_traffic != nullptr) {
                m_traffic->commLane = m_commLane;
            }
        }
        commSet("Sl");
        break;
    case mpi::Stop:
        // starpu_fxt_tool destroys the thread's container here.
        if (m_commLane >= 0) {
            m_ops.reset(m_commLane, t);
        }
        break;
    case mpi::IsendSubmitBegin: commSet("SdS"); break;
    case mpi::IsendSubmitEnd:
        commSet("P");
        if (m_traffic != nullptr) {
            // 1.4 puts the request type first; the tool reads the tag as an int.
            const std::uint32_t at = ev.paramCount >= mpi::kIsendSubmitEndParams14 ? 1 : 0;
            const auto jobId = static_cast<std::int64_t>(p(ev, at + 3));
            m_traffic->sends.push_back(detail::MpiSend{static_cast<std::int32_t>(p(ev, at)),
                                                       static_cast<std::int32_t>(p(ev, at + 1)), p(ev, at + 2), t,
                                                       jobId > 0 ? job(static_cast<std::uint64_t>(jobId)) : 0});
        }
        break;
    case mpi::IrecvSubmitBegin: commSet("RvS"); break;
    case mpi::IsendCompleteBegin: commSet("SdC"); break;
    case mpi::IrecvCompleteBegin: commSet("RvC"); break;
    case mpi::IrecvSubmitEnd:
    case mpi::IsendCompleteEnd:
    case mpi::IrecvCompleteEnd:
    case mpi::DtestingEnd:
    case mpi::UtestingEnd:
    case mpi::UwaitEnd:
    case mpi::PollingEnd: commSet("P"); break;
    case mpi::IrecvTerminated:
        if (m_traffic != nullptr && ev.paramCount >= 3) {
            const auto jobId = static_cast<std::int64_t>(p(ev, 2));
            m_traffic->receives.push_back(detail::MpiReceive{static_cast<std::int32_t>(p(ev, 0)),
                                                             static_cast<std::int32_t>(p(ev, 1)), t,
                                                             jobId > 0 ? job(static_cast<std::uint64_t>(jobId)) : 0});
        }
        break;
    case mpi::SleepBegin: commSet("Sl"); break;
    case mpi::SleepEnd:
    case mpi::PollingBegin:
    case mpi::DriverRunEnd: commSet("Pl"); break;
    case mpi::DtestingBegin: commSet("DT"); break;
    case mpi::UtestingBegin: commSet("UT"); break;
    case mpi::UwaitBegin: commSet("UW"); break;
    case mpi::DriverRunBegin: commSet("Dr"); break;
    case mpi::TestingDetachedBegin:
    case mpi::TestBegin:
        if (m_commLane >= 0) {
            push(m_commLane, t, commState(ev.code == mpi::TestBegin ? "MT" : "TD"));
        }
        break;
    case mpi::TestingDetachedEnd:
    case mpi::TestEnd:
        if (m_commLane >= 0) {
            pop(m_commLane, t);
        }
        break;
    default: break;
    }
}

void FileDecoder::driverCopy(const RawEvent& ev, TimeNs t) {
    const auto kind = ev.paramCount >= 5 ? m_layout.transferKind(p(ev, 4)) : std::nullopt;
    if (!kind) {
        ++m_badEvents;
        return;
    }
    if (m_stopped) {
        return;
    }
    if (ev.code == codes::StartDriverCopy) {
        m_copies[p(ev, 3)] = CopyStart{t, static_cast<std::int32_t>(p(ev, 0)), static_cast<std::int32_t>(p(ev, 1)),
                                       p(ev, 2), *kind};
        return;
    }
    const auto it = m_copies.find(p(ev, 3));
    if (it == m_copies.end()) {
        return;   // started before the trace (or profiling) did: starpu_fxt_tool draws no link either
    }
    const auto& start = it->second;
    Transfer transfer;
    transfer.fromNode = start.fromNode;
    transfer.toNode = start.toNode;
    transfer.kind = start.kind;
    transfer.start = start.time;
    transfer.end = std::max(t, start.time);
    transfer.size = start.size;
    m_b.trace().transfers.push_back(transfer);
    m_copies.erase(it);
}

void FileDecoder::finish() {
    for (const auto& [child, father] : m_tagDeps) {
        const auto c = m_tagJobs.find(child);
        const auto f = m_tagJobs.find(father);
        if (c != m_tagJobs.end() && f != m_tagJobs.end()) {
            m_ops.dependency(c->second, f->second);
        }
    }
    m_ops.drain();
    if (m_ops.unbalancedPops() > 0) {
        m_b.warn(m_prefix + std::to_string(m_ops.unbalancedPops())
                 + " state pops without a matching push were ignored");
    }
    if (m_unknownWorkers > 0) {
        m_b.warn(m_prefix + std::to_string(m_unknownWorkers)
                 + " workers of an unknown kind were dropped");
    }
    if (m_badEvents > 0) {
        m_b.warn(m_prefix + std::to_string(m_badEvents) + " events with too few parameters were dropped");
    }
    if (m_profilingStops > 0) {
        m_b.warn(m_prefix + "FxT profiling was stopped " + std::to_string(m_profilingStops)
                 + (m_profilingStops == 1 ? " time" : " times")
                 + " (starpu_fxt_stop_profiling): that time is \"Not profiled\", not sleeping");
    }
}

// A damaged event can carry an absurd timestamp. Such an event is an isolated jump away from
// both its neighbours (a real pause moves all later events with it), so each event waits for
// the next one before it is decoded.
class OutlierFilter {
public:
    explicit OutlierFilter(FileDecoder& decoder) : m_decoder(decoder) {}

    bool push(const RawEvent& ev) {
        if (ev.time < ev.origin) {
            ++m_dropped;
            return true;
        }
        if (m_holding) {
            const std::uint64_t held = m_held.time;
            const bool up = m_hasPrev && held > m_prev + kJump && held > ev.time + kJump;
            const bool down = m_hasPrev && held + kJump < m_prev && held + kJump < ev.time;
            if (up || down) {
                ++m_dropped;
            } else if (!release()) {
                return false;
            }
        }
        m_held = ev;
        // Parameters that stay valid until the next event is handled are not copied; others go
        // into a fixed buffer (a vector's assign per event was a visible share of reading, and
        // so was this copy, a memmove call per event).
        if (!ev.paramsStay) {
            std::copy_n(ev.params, ev.paramCount, m_heldParams.begin());
            m_held.params = m_heldParams.data();
        }
        m_holding = true;
        return true;
    }
    bool flush() { return !m_holding || release(); }
    std::size_t dropped() const { return m_dropped; }
    TimeNs lastTime() const { return m_hasPrev ? m_decoder.mapTime(m_last, m_held.origin) : 0; }

private:
    static constexpr std::uint64_t kJump = 1'000'000'000;   // 1 s
    bool release() {
        m_holding = false;
        m_prev = m_held.time;
        m_last = std::max(m_last, m_held.time);
        m_hasPrev = true;
        return m_decoder.handle(m_held);
    }

    FileDecoder& m_decoder;
    RawEvent m_held;
    std::array<std::uint64_t, detail::fxt_direct::kMaxParams> m_heldParams{};
    bool m_holding = false;
    bool m_hasPrev = false;
    std::uint64_t m_prev = 0;
    std::uint64_t m_last = 0;
    std::size_t m_dropped = 0;
};

// StarPU writes no version into its traces: a first pass reads events until one of them
// tells the layout (usually one of the first: a worker's start or the first task).
struct SniffedLayout {
    const StarpuFxtLayout* layout = nullptr;
    std::string how;
};

SniffedLayout sniffLayout(const std::filesystem::path& file, bool direct) {
    detail::LayoutSniffer sniffer;
    const auto onEvent = [&sniffer](const RawEvent& ev) { return sniffer.feed(ev) == nullptr; };
    // Errors are the main pass's to report; a decision ends this one early ("cancelled").
    if (direct) {
        (void)detail::readFxtDirect(file, detail::kFirstDecodedCode, detail::kLastDecodedCode, onEvent, {});
    } else {
        (void)detail::streamFxtEvents(file, detail::kFirstDecodedCode, detail::kLastDecodedCode, onEvent, {});
    }
    if (sniffer.decided() != nullptr) {
        return {sniffer.decided(), std::string(sniffer.reason())};
    }
    // No task and no 1.4-only event or CPU key: the two layouts agree on what such a trace
    // holds (worker starts, states, user events).
    return {&detail::starpu13Layout(), "no event tells 1.3 from 1.4; they agree on what this trace holds"};
}

// StarPU writes about 1 KB of FxT events per task and 150 bytes per state (a CNN training run:
// 970 and 150), so the task table and the lanes are reserved from the files' sizes instead of
// growing by copies. Only address space until used, so the task table gets twice the count
// (at exactly 1 KB a CNN run's table fell short by 5 % and was copied whole at its last task);
// capped so that a huge file of something else asks for little.
std::uintmax_t inputBytes(const std::vector<std::filesystem::path>& files) {
    std::uintmax_t bytes = 0;
    for (const auto& file : files) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(file, ec);
        bytes += ec ? 0 : size;
    }
    return bytes;
}

// Below this size the model is built in the decoding thread: a second thread and its
// hand-overs would cost about what they save (a bound chosen, not measured).
constexpr std::uintmax_t kTwoThreadsMinBytes = std::uintmax_t{4} << 20;

// A big file's model is built by a thread of its own while this one walks and decodes the
// events (model_ops.hpp: the same model). STARSCOPE_FXT_THREADS=1 or 2 chooses.
bool buildInAThreadOfItsOwn(const std::filesystem::path& file) {
    const char* threads = std::getenv("STARSCOPE_FXT_THREADS");
    const std::string_view chosen = threads != nullptr ? threads : "";
    if (chosen == "1" || chosen == "2") {
        return chosen == "2";
    }
    std::error_code ec;
    const auto size = std::filesystem::file_size(file, ec);
    return !ec && size >= kTwoThreadsMinBytes && std::thread::hardware_concurrency() >= 2;
}

} // namespace

TraceResult<Done> checkFxtWhole(const std::filesystem::path& file) {
    if (!detail::isDirectFxtLayout(file)) {
        return fail(TraceError{ErrorCode::Corrupt, "the trace is cut short or not an FxT trace of libfxt 0.3",
                               file.string(), 0});
    }
    // An empty code range: the walk checks every block and event without decoding any.
    const auto walked = detail::readFxtDirect(file, 1, 0, [](const RawEvent&) { return true; }, {});
    if (!walked) {
        return fail(walked.error());
    }
    if (!walked->problems.empty()) {
        const auto& first = walked->problems.front();
        return fail(TraceError{ErrorCode::Corrupt, "the trace is cut short: " + first.what, file.string(),
                               first.offset});
    }
    return Done{};
}

TraceResult<Trace> readFxt(const std::vector<std::filesystem::path>& files,
                           const ReadOptions& options) {
    if (files.empty()) {
        return fail(TraceError{ErrorCode::InvalidArgument, "no FxT file to read", {}, {}});
    }
    TraceBuilder builder;
    const auto bytes = inputBytes(files);
    builder.reserveTasks(static_cast<std::size_t>(std::min<std::uintmax_t>(bytes / 512, std::uintmax_t{1} << 22)));
    builder.expectSpans(static_cast<std::size_t>(std::min<std::uintmax_t>(bytes / 128, std::uintmax_t{1} << 24)));
    // A CNN training run writes a marker per 3.2 KB (75,000 in a 240 MB trace of 10 epochs: at
    // one per 4 KB the table was copied once as it grew); a trace without them reserves
    // untouched pages.
    builder.reserveMarkers(static_cast<std::size_t>(std::min<std::uintmax_t>(bytes / 2048, std::uintmax_t{1} << 20)));
    TimeNs end = 0;
    std::string versions;
    std::size_t workers = 0;
    std::string noWorker;   // why the first file without workers has none
    // Several files are several processes of one StarPU-MPI run: in rank order, each on the
    // job's clock (mpi_merge.hpp).
    const bool multi = files.size() > 1;
    detail::RankPlan plan;
    if (multi) {
        auto planned = detail::planRanks(files);
        if (!planned) {
            return fail(planned.error());
        }
        plan = std::move(*planned);
        for (auto& note : plan.warnings) {
            builder.warn(std::move(note));
        }
    }
    const auto& ranks = plan.files;
    std::vector<detail::RankTraffic> traffic(ranks.size());
    for (std::size_t i = 0; i < files.size(); ++i) {
        const auto& file = multi ? ranks[i].file : files[i];
        const bool direct = detail::isDirectFxtLayout(file);
        const auto sniffed = sniffLayout(file, direct);
        // Lanes get the rank as prefix (as starpu_fxt_tool names them) and job ids a per-file
        // base, since each process numbers its jobs from 1.
        const std::int32_t rank = multi ? ranks[i].rank : -1;
        const std::string prefix = multi ? std::to_string(rank) + "_" : std::string();
        if (multi) {
            traffic[i].rank = rank;
        }
        const std::size_t lanesBefore = builder.laneCount();
        const std::size_t markersBefore = builder.trace().markers.size();
        const std::size_t transfersBefore = builder.trace().transfers.size();
        ModelOpSink ops(builder, buildInAThreadOfItsOwn(file));
        FileDecoder decoder(builder, ops, *sniffed.layout, prefix, multi ? (std::uint64_t{i} << 48) : 0,
                            multi ? &ranks[i].clock : nullptr, multi ? &traffic[i] : nullptr);
        std::function<bool(double)> progress;
        if (options.progress) {
            progress = [&](double fraction) {
                return options.progress((static_cast<double>(i) + fraction)
                                        / static_cast<double>(files.size()));
            };
        }
        OutlierFilter filter(decoder);
        const auto onEvent = [&filter](const RawEvent& ev) { return filter.push(ev); };
        // libfxt's own layout is read directly (fast, bounds-checked); any other FxT variant
        // goes through libfxt, isolated in a child process.
        std::optional<detail::FxtStreamSummary> summary;
        std::vector<detail::DirectFxtProblem> problems;
        if (direct) {
            auto read = detail::readFxtDirect(file, detail::kFirstDecodedCode, detail::kLastDecodedCode, onEvent,
                                              progress);
            if (!read) {
                return fail(read.error());
            }
            summary = read->stream;
            problems = std::move(read->problems);
        } else {
            auto streamed = detail::streamFxtEvents(file, detail::kFirstDecodedCode, detail::kLastDecodedCode,
                                                    onEvent, progress);
            if (!streamed) {
                return fail(streamed.error());
            }
            summary = *streamed;
        }
        if (summary->events == 0) {
            return fail(TraceError{ErrorCode::Corrupt,
                                   problems.empty() ? "the FxT trace holds no event" : problems.front().what,
                                   file.string(), problems.empty() ? summary->bytesRead : problems.front().offset});
        }
        filter.flush();
        decoder.finish();
        // One file: the caller names it already. Several: say which one.
        const std::string where = files.size() > 1 ? file.string() + ": " : std::string();
        if (filter.dropped() > 0) {
            builder.warn(where + std::to_string(filter.dropped())
                         + " events with impossible timestamps were dropped");
        }
        for (const auto& problem : problems) {
            builder.warn(where + "byte " + std::to_string(problem.offset) + ": " + problem.what
                         + "; the events after it are missing");
        }
        if (summary->endedEarly && problems.empty()) {
            builder.warn(where + "libfxt stopped at byte "
                         + std::to_string(summary->bytesRead)
                         + " on a damaged block: the events after it are missing");
        }
        if (summary->libfxtComplaints > 0) {
            builder.warn(where + "libfxt skipped "
                         + std::to_string(summary->libfxtComplaints) + " malformed events");
        }
        end = std::max(end, filter.lastTime());
        const std::string suffix = files.size() > 1 ? "." + std::to_string(i) : std::string();
        builder.setMetadata("source" + suffix, file.string());
        builder.setMetadata("starpu.layout" + suffix, std::string(sniffed.layout->version) + " (" + sniffed.how + ")");
        const std::string version(sniffed.layout->version);
        if (versions.find(version) == std::string::npos) {
            versions += (versions.empty() ? "" : ", ") + version;
        }
        if (decoder.workers() > 0 && decoder.executedTasks() == 0) {
            builder.warn(where + "the trace has " + std::to_string(decoder.workers())
                         + " workers but no task execution: profiling stopped for the whole run, task "
                           "events left out of STARPU_FXT_EVENTS, or a StarPU layout starscope misreads");
        }
        workers += decoder.workers();
        for (std::size_t l = lanesBefore; l < builder.laneCount(); ++l) {
            builder.trace().lanes[l].rank = rank;
        }
        for (std::size_t x = transfersBefore; x < builder.trace().transfers.size(); ++x) {
            builder.trace().transfers[x].rank = rank;
        }
        for (std::size_t m = markersBefore; m < builder.trace().markers.size(); ++m) {
            builder.trace().markers[m].rank = Trace::shortIndex(rank);   // readTrace refuses a rank beyond
        }
        if (decoder.workers() == 0 && noWorker.empty()) {
            noWorker = decoder.noWorkerFound();
        }
    }
    builder.setMetadata("format", "fxt");
    builder.setMetadata("starpu.codes", versions);
    auto trace = builder.finish(end);
    std::stable_sort(trace.transfers.begin(), trace.transfers.end(),
                     [](const Transfer& a, const Transfer& b) { return a.start < b.start; });
    for (const auto& x : trace.transfers) {
        trace.end = std::max(trace.end, x.end);
    }
    if (multi) {
        trace.ranks.clear();
        for (const auto& r : ranks) {
            trace.ranks.push_back(r.info);
        }
        std::size_t unmatched = 0;
        if (plan.oneRun) {
            trace.messages = detail::matchMessages(traffic, unmatched);
        }
        if (unmatched > 0) {
            trace.warnings.push_back(std::to_string(unmatched)
                                     + " MPI sends have no matching receive in the prof files (a rank's file missing?)");
        }
        for (const auto& m : trace.messages) {
            trace.end = std::max(trace.end, m.end);
        }
    }
    if (workers == 0) {
        return fail(TraceError{ErrorCode::Unsupported, noWorker, files.front().string(), {}});
    }
    if (versions.find(',') != std::string::npos) {
        trace.warnings.push_back("the prof files were written by different StarPU versions (" + versions + ")");
    }
    return trace;
}

} // namespace starscope::tracer
