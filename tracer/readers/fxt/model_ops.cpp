#include "tracer/readers/fxt/model_ops.hpp"

#include <array>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace starscope::tracer::detail {

namespace {

// 8,192 ops (256 KB) a batch, four batches: the applying thread works at most 1 MB of ops
// behind the decoding one, in the cache, and a 240 MB trace's 5 million events take about
// 600 hand-overs.
constexpr std::size_t kBatchOps = std::size_t{1} << 13;
constexpr std::size_t kSlots = 4;

std::string_view textOf(const ModelOpBatch& batch, const ModelOp& op) {
    return std::string_view(batch.text).substr(op.textAt, op.arg);
}

void apply(TraceBuilder& b, const ModelOpBatch& batch, std::size_t& unbalancedPops) {
    using enum ModelOpKind;
    for (std::size_t i = 0; i < batch.used; ++i) {
        const ModelOp& op = batch.ops[i];
        switch (op.kind) {
        case Set: applyOp<Set>(b, op, {}, unbalancedPops); break;
        case SetTask: applyOp<SetTask>(b, op, {}, unbalancedPops); break;
        case Push: applyOp<Push>(b, op, {}, unbalancedPops); break;
        case Pop: applyOp<Pop>(b, op, {}, unbalancedPops); break;
        case Reset: applyOp<Reset>(b, op, {}, unbalancedPops); break;
        case Interrupt: applyOp<Interrupt>(b, op, {}, unbalancedPops); break;
        case TaskCodelet: applyOp<TaskCodelet>(b, op, textOf(batch, op), unbalancedPops); break;
        case TaskNameIfUnset: applyOp<TaskNameIfUnset>(b, op, textOf(batch, op), unbalancedPops); break;
        case TaskFootprint: applyOp<TaskFootprint>(b, op, {}, unbalancedPops); break;
        case TaskSubmit: applyOp<TaskSubmit>(b, op, {}, unbalancedPops); break;
        case Dependency: applyOp<Dependency>(b, op, {}, unbalancedPops); break;
        case Marker: applyOp<Marker>(b, op, textOf(batch, op), unbalancedPops); break;
        }
    }
}

} // namespace

// The batches between the two threads; every hand-over goes through the mutex.
struct ModelOpSink::Pipe {
    std::array<ModelOpBatch, kSlots> slots;
    std::mutex mutex;
    std::condition_variable changed;
    std::size_t produced = 0;   // batches handed over (under mutex)
    std::size_t applied = 0;    // batches applied (under mutex)
    bool stop = false;          // the sink is going away (under mutex)
    std::thread applier;
};

ModelOpSink::ModelOpSink(TraceBuilder& builder, bool threaded) : m_builder(builder) {
    if (!threaded) {
        return;
    }
    m_pipe = std::make_unique<Pipe>();
    for (auto& slot : m_pipe->slots) {
        slot.ops.resize(kBatchOps);
    }
    m_batch = &m_pipe->slots[0];
    m_pipe->applier = std::thread([this] {
        auto& pipe = *m_pipe;
        std::size_t unbalanced = 0;
        std::unique_lock lock(pipe.mutex);
        for (;;) {
            pipe.changed.wait(lock, [&] { return pipe.stop || pipe.applied < pipe.produced; });
            if (pipe.stop) {
                break;
            }
            const auto& batch = pipe.slots[pipe.applied % kSlots];
            lock.unlock();
            apply(m_builder, batch, unbalanced);
            lock.lock();
            ++pipe.applied;
            m_unbalancedPops = unbalanced;
            pipe.changed.notify_all();
        }
    });
}

ModelOpSink::~ModelOpSink() {
    if (!m_pipe) {
        return;
    }
    {
        const std::lock_guard lock(m_pipe->mutex);
        m_pipe->stop = true;
        m_pipe->changed.notify_all();
    }
    m_pipe->applier.join();
}

void ModelOpSink::flush() {
    auto& pipe = *m_pipe;
    std::unique_lock lock(pipe.mutex);
    ++pipe.produced;
    pipe.changed.notify_all();
    // The next slot is free once the applier is done with the batch it held kSlots ago.
    pipe.changed.wait(lock, [&] { return pipe.produced - pipe.applied < kSlots; });
    m_batch = &pipe.slots[pipe.produced % kSlots];
    lock.unlock();
    m_batch->used = 0;
    m_batch->text.clear();
}

void ModelOpSink::drain() {
    if (!m_pipe) {
        return;
    }
    if (m_batch->used > 0) {
        flush();
    }
    auto& pipe = *m_pipe;
    std::unique_lock lock(pipe.mutex);
    pipe.changed.wait(lock, [&] { return pipe.applied == pipe.produced; });
}

} // namespace starscope::tracer::detail
