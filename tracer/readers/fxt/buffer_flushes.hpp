#pragma once
// Which thread wrote FxT's full buffer to the trace file. libfxt marks each write with two
// events of its own (fut_start_flush, fut_stop_flush) that name no thread: StarPU does not turn
// on libfxt's thread ids, and these events have no parameter. What follows them tells, as
// libfxt 0.3.13 orders a flush (fut_getstampedbuffer):
//   - the thread whose event did not fit waits for the buffer's last writers, switches the
//     others to the next buffer and writes the full one: from then on it records nothing until
//     the write is done;
//   - the other threads go on recording meanwhile: their events follow fut_stop_flush in the
//     file, stamped before or during the write;
//   - after the write, StarPU's flush callback records its "fxt flush" event from the writing
//     thread, which then records the event that did not fit, and goes on.
// So a thread seen between fut_stop_flush and "fxt flush" did not write, and the first other
// thread seen after "fxt flush" did. A flush whose "fxt flush" event never comes (a libfxt
// without the callback, StarPU's user events masked out) is not attributed.

#include "tracer/model/trace.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace starscope::tracer::detail {

class BufferFlushes {
public:
    struct Flush {
        std::int32_t lane = -1; // the thread that wrote
        TimeNs start = 0;       // fut_start_flush
        TimeNs end = 0;         // fut_stop_flush
        bool operator==(const Flush&) const = default;
    };

    // A flush waits for its thread: every event of a known thread is to be shown (threadEvent).
    bool pending() const { return m_phase != Phase::None; }

    void start(TimeNs time) {
        m_unattributed += pending() ? 1U : 0U; // the previous one never found its thread
        m_phase = Phase::Writing;
        m_flush = Flush{-1, time, time};
        m_seen.clear();
    }
    void stop(TimeNs time) {
        if (m_phase == Phase::Writing) {
            m_flush.end = std::max(time, m_flush.start);
            m_phase = Phase::Written;
        }
    }
    // StarPU's "fxt flush" event: the writing thread's first event after the write.
    void callback() {
        if (m_phase == Phase::Written) {
            m_phase = Phase::Claimable;
        }
    }
    // An event recorded by the thread of this lane: the flush it wrote, once that is known, for
    // its lane to show before this event.
    std::optional<Flush> threadEvent(std::int32_t lane) {
        if (lane < 0) {
            return std::nullopt;
        }
        const bool seen = std::find(m_seen.begin(), m_seen.end(), lane) != m_seen.end();
        if (m_phase != Phase::Claimable) {
            if (!seen) {
                m_seen.push_back(lane);
            }
            return std::nullopt;
        }
        if (seen) {
            return std::nullopt;
        }
        m_phase = Phase::None;
        m_flush.lane = lane;
        ++m_attributed;
        return m_flush;
    }
    // After the last event.
    void finish() {
        m_unattributed += pending() ? 1U : 0U;
        m_phase = Phase::None;
    }
    std::size_t attributed() const { return m_attributed; }
    std::size_t unattributed() const { return m_unattributed; }

private:
    enum class Phase : std::uint8_t {
        None,      // no flush waits for its thread
        Writing,   // fut_start_flush seen
        Written,   // fut_stop_flush seen: threads recording now did not write
        Claimable, // "fxt flush" seen: the next other thread did
    };
    Phase m_phase = Phase::None;
    Flush m_flush;
    std::vector<std::int32_t> m_seen; // lanes of the threads seen since the write began
    std::size_t m_attributed = 0;
    std::size_t m_unattributed = 0;
};

} // namespace starscope::tracer::detail
