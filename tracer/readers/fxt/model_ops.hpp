#pragma once
// The FxT decoder's requests to the model (state changes, task fields, dependencies, markers),
// applied in order to a TraceBuilder: by the decoding thread itself as each is given, or as
// compact records in batches by a thread of its own while the decoding thread walks and decodes
// the next events. Building the model (spans, tasks, markers: most of the memory a trace needs, and so
// most of the page faults) is then done on the second core, the walk and the decoding of
// StarPU's events on the first.
//
// While a thread of its own applies them, the decoding thread may still add lanes and states
// and read or write the trace's transfers, which the ops never touch (trace_builder.hpp says
// which calls may run beside the state changes); everything else waits for drain().

#include "tracer/readers/trace_builder.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace starscope::tracer::detail {

enum class ModelOpKind : std::uint8_t {
    Set,               // lane, time, state
    SetTask,           // lane, time, state, job: the state runs the job's task
    Push,              // lane, time, state
    Pop,               // lane, time
    Reset,             // lane, time
    Interrupt,         // lane, time, state, job: the interruption's end (a time)
    TaskCodelet,       // job, text: the task's codelet name
    TaskNameIfUnset,   // job, text: the codelet name unless the task has one
    TaskFootprint,     // job, arg
    TaskSubmit,        // job, time
    Dependency,        // job waited for time (a job id)
    Marker,            // lane, time, text
};

// 32 bytes.
struct ModelOp {
    TimeNs time = 0;
    std::uint64_t job = 0;
    std::int32_t lane = -1;
    std::uint32_t arg = 0;      // state, footprint or the text's length
    std::uint32_t textAt = 0;   // where the text starts in its batch's characters
    ModelOpKind kind = ModelOpKind::Set;
};
static_assert(sizeof(ModelOp) == 32, "ops must stay compact");

// What an op of kind Kind does to the builder (text: its text, for the ops that have one); a pop
// of an empty stack adds to unbalancedPops.
template <ModelOpKind Kind>
void applyOp(TraceBuilder& b, const ModelOp& op, std::string_view text, std::size_t& unbalancedPops) {
    using enum ModelOpKind;
    if constexpr (Kind == Set) {
        b.setState(op.lane, op.time, op.arg);
    } else if constexpr (Kind == SetTask) {
        b.setState(op.lane, op.time, op.arg, b.task(op.job));
    } else if constexpr (Kind == Push) {
        b.pushState(op.lane, op.time, op.arg);
    } else if constexpr (Kind == Pop) {
        unbalancedPops += b.popState(op.lane, op.time) ? 0U : 1U;
    } else if constexpr (Kind == Reset) {
        b.resetState(op.lane, op.time);
    } else if constexpr (Kind == Interrupt) {
        b.interruptState(op.lane, op.time, static_cast<TimeNs>(op.job), op.arg);
    } else if constexpr (Kind == TaskCodelet) {
        const auto index = b.task(op.job);
        b.setCodelet(index, b.intern(text));
    } else if constexpr (Kind == TaskNameIfUnset) {
        const auto index = b.task(op.job);
        if (b.codeletOf(index) == kNoName) {
            b.setCodelet(index, b.intern(text));
        }
    } else if constexpr (Kind == TaskFootprint) {
        b.setFootprint(b.task(op.job), op.arg);
    } else if constexpr (Kind == TaskSubmit) {
        b.taskAt(b.task(op.job)).submit = op.time;
    } else if constexpr (Kind == Dependency) {
        b.addDependency(op.job, static_cast<std::uint64_t>(op.time));
    } else {
        static_assert(Kind == Marker);
        b.addMarker(op.time, op.lane, text);
    }
    (void)text;
    (void)unbalancedPops;
}

struct ModelOpBatch {
    std::vector<ModelOp> ops;   // ops[0, used)
    std::size_t used = 0;
    std::string text;           // the texts of its ops
};

class ModelOpSink {
public:
    // threaded: a thread of its own applies the batches; else each op is applied as it is given.
    ModelOpSink(TraceBuilder& builder, bool threaded);
    // Stops the applying thread (what it has not applied yet is dropped: the reader gave up).
    ~ModelOpSink();
    ModelOpSink(const ModelOpSink&) = delete;
    ModelOpSink& operator=(const ModelOpSink&) = delete;

    void set(std::int32_t lane, TimeNs time, std::uint32_t state) { put<ModelOpKind::Set>(time, 0, lane, state); }
    void setTask(std::int32_t lane, TimeNs time, std::uint32_t state, std::uint64_t job) {
        put<ModelOpKind::SetTask>(time, job, lane, state);
    }
    void push(std::int32_t lane, TimeNs time, std::uint32_t state) { put<ModelOpKind::Push>(time, 0, lane, state); }
    void pop(std::int32_t lane, TimeNs time) { put<ModelOpKind::Pop>(time, 0, lane, 0); }
    void reset(std::int32_t lane, TimeNs time) { put<ModelOpKind::Reset>(time, 0, lane, 0); }
    void interrupt(std::int32_t lane, TimeNs from, TimeNs to, std::uint32_t state) {
        // Modular both ways, as a dependency's job: any time comes back unchanged.
        put<ModelOpKind::Interrupt>(from, static_cast<std::uint64_t>(to), lane, state);
    }
    void taskCodelet(std::uint64_t job, std::string_view name) { putText<ModelOpKind::TaskCodelet>(0, job, -1, name); }
    void taskNameIfUnset(std::uint64_t job, std::string_view name) {
        putText<ModelOpKind::TaskNameIfUnset>(0, job, -1, name);
    }
    void taskFootprint(std::uint64_t job, std::uint32_t footprint) {
        put<ModelOpKind::TaskFootprint>(0, job, -1, footprint);
    }
    void taskSubmit(std::uint64_t job, TimeNs time) { put<ModelOpKind::TaskSubmit>(time, job, -1, 0); }
    void dependency(std::uint64_t job, std::uint64_t dependsOn) {
        // Modular both ways: any job id comes back unchanged.
        put<ModelOpKind::Dependency>(static_cast<TimeNs>(dependsOn), job, -1, 0);
    }
    void marker(TimeNs time, std::int32_t lane, std::string_view text) {
        putText<ModelOpKind::Marker>(time, 0, lane, text);
    }

    // Applies or waits for every op given so far: the builder is the caller's alone again.
    void drain();
    // State pops of an empty stack, ignored (complete after drain()).
    std::size_t unbalancedPops() const { return m_unbalancedPops; }

private:
    struct Pipe;
    // Without an applying thread an op is applied as it is given, in the decoder's code, where
    // its kind is known: a batch of them cost its stores, loads and a dispatch per op.
    template <ModelOpKind Kind>
    void put(TimeNs time, std::uint64_t job, std::int32_t lane, std::uint32_t arg) {
        if (m_pipe == nullptr) {
            applyOp<Kind>(m_builder, ModelOp{time, job, lane, arg, 0, Kind}, {}, m_unbalancedPops);
            return;
        }
        put(Kind, time, job, lane, arg, 0);
    }
    template <ModelOpKind Kind>
    void putText(TimeNs time, std::uint64_t job, std::int32_t lane, std::string_view text) {
        const auto size = static_cast<std::uint32_t>(text.size());
        if (m_pipe == nullptr) {
            applyOp<Kind>(m_builder, ModelOp{time, job, lane, size, 0, Kind}, text, m_unbalancedPops);
            return;
        }
        const auto at = static_cast<std::uint32_t>(m_batch->text.size());
        m_batch->text.append(text);
        put(Kind, time, job, lane, size, at);
    }
    void put(ModelOpKind kind, TimeNs time, std::uint64_t job, std::int32_t lane, std::uint32_t arg,
             std::uint32_t textAt) {
        auto& op = m_batch->ops[m_batch->used];
        op.time = time;
        op.job = job;
        op.lane = lane;
        op.arg = arg;
        op.textAt = textAt;
        op.kind = kind;
        if (++m_batch->used == m_batch->ops.size()) {
            flush();
        }
    }
    // Hands the batch being filled over (or applies it) and starts the next one.
    void flush();

    TraceBuilder& m_builder;
    ModelOpBatch* m_batch = nullptr;   // being filled by the decoding thread (none without a pipe)
    std::size_t m_unbalancedPops = 0;  // the applier's, read after drain()
    std::unique_ptr<Pipe> m_pipe;      // null when ops are applied as their batch fills
};

} // namespace starscope::tracer::detail
