#include "runtime/trace_markers.hpp"

#include <starpu.h>

#include <atomic>
#include <string>

namespace starscope::runtime {

namespace {
// 0: not decided yet (StarPU not initialised at the last call), 1: off, 2: on.
std::atomic<int> g_enabled{0};
} // namespace

bool markersEnabled() {
    const int state = g_enabled.load(std::memory_order_relaxed);
    if (state != 0) [[likely]] {
        return state == 2;
    }
    if (starpu_is_initialized() == 0) {
        return false;
    }
    const int decided = starpu_fxt_is_enabled() != 0 ? 2 : 1;
    g_enabled.store(decided, std::memory_order_relaxed);
    return decided == 2;
}

void writeMarker(const markers::Marker& marker) {
    if (!markersEnabled()) {
        return;
    }
    const std::string text = markers::format(marker);
    starpu_fxt_trace_user_event_string(text.c_str());
}

namespace {
std::int32_t narrow(std::int64_t value) {
    return value < 0 ? -1 : static_cast<std::int32_t>(value);
}
} // namespace

void markBatch(markers::Kind kind, std::int64_t epoch, std::int64_t batch, std::int64_t slot) {
    if (!markersEnabled()) {
        return;
    }
    markers::Marker marker;
    marker.kind = kind;
    marker.epoch = narrow(epoch);
    marker.batch = narrow(batch);
    marker.slot = narrow(slot);
    writeMarker(marker);
}

void markResetWait(markers::Kind kind, std::string_view arena, std::int64_t handles) {
    if (!markersEnabled()) {
        return;
    }
    markers::Marker marker;
    marker.kind = kind;
    marker.handles = handles;
    marker.arena = std::string(arena);
    writeMarker(marker);
}

void markLoad(markers::Kind kind, std::int64_t epoch, std::int64_t batch, std::int64_t slot,
              std::string_view arena) {
    if (!markersEnabled()) {
        return;
    }
    markers::Marker marker;
    marker.kind = kind;
    marker.epoch = narrow(epoch);
    marker.batch = narrow(batch);
    marker.slot = narrow(slot);
    marker.arena = std::string(arena);
    writeMarker(marker);
}

} // namespace starscope::runtime
