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
    for (std::size_t i = 0; i < batch.used; ++i) {
        const ModelOp& op = batch.ops[i];
        switch (op.kind) {
        case ModelOpKind::Set: b.setState(op.lane, op.time, op.arg); break;
        case ModelOpKind::SetTask: b.setState(op.lane, op.time, op.arg, b.task(op.job)); break;
        case ModelOpKind::Push: b.pushState(op.lane, op.time, op.arg); break;
        case ModelOpKind::Pop: unbalancedPops += b.popState(op.lane, op.time) ? 0U : 1U; break;
        case ModelOpKind::Reset: b.resetState(op.lane, op.time); break;
        case ModelOpKind::Interrupt:
            b.interruptState(op.lane, op.time, static_cast<TimeNs>(op.job), op.arg);
            break;
        case ModelOpKind::TaskCodelet: {
            const auto index = b.task(op.job);
            b.setCodelet(index, b.intern(textOf(batch, op)));
            break;
        }
        case ModelOpKind::TaskNameIfUnset: {
            const auto index = b.task(op.job);
            if (b.codeletOf(index) == kNoName) {
                b.setCodelet(index, b.intern(textOf(batch, op)));
            }
            break;
        }
        case ModelOpKind::TaskFootprint: b.setFootprint(b.task(op.job), op.arg); break;
        case ModelOpKind::TaskSubmit: b.taskAt(b.task(op.job)).submit = op.time; break;
        case ModelOpKind::Dependency: b.addDependency(op.job, static_cast<std::uint64_t>(op.time)); break;
        case ModelOpKind::Marker: b.addMarker(op.time, op.lane, textOf(batch, op)); break;
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
        m_own.ops.resize(kBatchOps);
        m_batch = &m_own;
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
    if (!m_pipe) {
        apply(m_builder, *m_batch, m_unbalancedPops);
        m_batch->used = 0;
        m_batch->text.clear();
        return;
    }
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
    if (m_batch->used > 0) {
        flush();
    }
    if (!m_pipe) {
        return;
    }
    auto& pipe = *m_pipe;
    std::unique_lock lock(pipe.mutex);
    pipe.changed.wait(lock, [&] { return pipe.applied == pipe.produced; });
}

} // namespace starscope::tracer::detail
