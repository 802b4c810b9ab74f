#pragma once
// A damaged event can carry an absurd timestamp; the FxT reader passes every event through this
// filter, which drops such events before they reach the decoder.

#include "tracer/model/trace.hpp"
#include "tracer/readers/fxt/fxt_direct.hpp"
#include "tracer/readers/fxt/fxt_source.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace starscope::tracer::detail {

// A damaged event can carry an absurd timestamp. Such an event is an isolated jump away from
// both its neighbours (a real pause moves all later events with it), so an event a jump away from
// the last one passed on waits for the next one before it is decoded. Any other event cannot be
// such a jump, whatever follows: it is decoded at once, as it stands (copying every event to hold
// it was 8 % of the instructions of `stats`).
template <typename Decoder> class OutlierFilter {
public:
    explicit OutlierFilter(Decoder& decoder) : m_decoder(decoder) {}

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
                m_holding = false;
            } else if (!release()) {
                return false;
            }
        }
        // The first halves of `up` and `down` above, which the next event cannot change.
        if (!m_hasPrev || !(ev.time > m_prev + kJump || ev.time + kJump < m_prev)) {
            return pass(ev);
        }
        m_held = ev;
        // Copied: the last event may be held until flush(), after the walk, when the window or
        // the buffers its parameters pointed into are gone (a file cut after a user event read
        // them there).
        std::copy_n(ev.params, ev.paramCount, m_heldParams.begin());
        m_held.params = m_heldParams.data();
        m_holding = true;
        return true;
    }
    bool flush() { return !m_holding || release(); }
    std::size_t dropped() const { return m_dropped; }
    TimeNs lastTime() const { return m_hasPrev ? m_decoder.mapTime(m_last, m_origin) : 0; }
    // The latest time passed on, as recorded (0 before any).
    std::uint64_t lastRecorded() const { return m_hasPrev ? m_last : 0; }

private:
    static constexpr std::uint64_t kJump = 1'000'000'000; // 1 s
    bool release() {
        m_holding = false;
        return pass(m_held);
    }
    bool pass(const RawEvent& ev) {
        m_prev = ev.time;
        m_last = std::max(m_last, ev.time);
        m_origin = ev.origin;
        m_hasPrev = true;
        return m_decoder.handle(ev);
    }

    Decoder& m_decoder;
    RawEvent m_held;
    std::array<std::uint64_t, fxt_direct::kMaxParams> m_heldParams{};
    bool m_holding = false;
    bool m_hasPrev = false;
    std::uint64_t m_prev = 0;
    std::uint64_t m_last = 0;
    std::uint64_t m_origin = 0;   // the events' (the file's first time)
    std::size_t m_dropped = 0;
};

} // namespace starscope::tracer::detail
