// The marker functions of starscope/arena.h over runtime/trace_markers.hpp.

#include "runtime/c_api/boundary.hpp"
#include "runtime/trace_markers.hpp"

#include <optional>
#include <string>

using namespace starscope;
using namespace starscope::runtime::c_api;

namespace {

std::optional<markers::Kind> batchKind(starscope_marker kind) {
    switch (kind) {
    case STARSCOPE_MARKER_BATCH_BEGIN:
        return markers::Kind::BatchBegin;
    case STARSCOPE_MARKER_BATCH_END:
        return markers::Kind::BatchEnd;
    default:
        return std::nullopt;
    }
}

std::optional<markers::Kind> loadKind(starscope_marker kind) {
    switch (kind) {
    case STARSCOPE_MARKER_LOAD_BEGIN:
        return markers::Kind::LoadBegin;
    case STARSCOPE_MARKER_LOAD_END:
        return markers::Kind::LoadEnd;
    case STARSCOPE_MARKER_PREFETCH_BEGIN:
        return markers::Kind::PrefetchBegin;
    case STARSCOPE_MARKER_PREFETCH_END:
        return markers::Kind::PrefetchEnd;
    default:
        return std::nullopt;
    }
}

// Checks a marker's kind and fields (-1 leaves a field out; other negatives are refused).
starscope_status checkMarker(const char* function, const std::optional<markers::Kind>& kind,
                             starscope_marker given, const char* expected,
                             std::initializer_list<std::int32_t> fields) {
    if (!kind) {
        return failure(function, STARSCOPE_ERROR_INVALID_ARGUMENT,
                       "marker kind " + std::to_string(static_cast<int>(given)) + " is not "
                           + expected);
    }
    for (const std::int32_t field : fields) {
        if (field < -1) {
            return failure(function, STARSCOPE_ERROR_INVALID_ARGUMENT,
                           "a field is " + std::to_string(field) + " (-1 leaves it out)");
        }
    }
    return STARSCOPE_OK;
}

} // namespace

extern "C" {

int starscope_markers_enabled(void) {
    return runtime::markersEnabled() ? 1 : 0;
}

starscope_status starscope_mark_batch(starscope_marker kind, int32_t epoch, int32_t batch,
                                      int32_t slot) {
    return guarded(__func__, [&](const char* fn) {
        const auto converted = batchKind(kind);
        if (const auto s =
                checkMarker(fn, converted, kind, "a BATCH_* marker", {epoch, batch, slot});
            s != STARSCOPE_OK) {
            return s;
        }
        runtime::markBatch(*converted, epoch, batch, slot);
        return STARSCOPE_OK;
    });
}

starscope_status starscope_mark_load(starscope_marker kind, int32_t epoch, int32_t batch,
                                     int32_t slot, const char* arena) {
    return guarded(__func__, [&](const char* fn) {
        const auto converted = loadKind(kind);
        if (const auto s = checkMarker(fn, converted, kind, "a LOAD_* or PREFETCH_* marker",
                                       {epoch, batch, slot});
            s != STARSCOPE_OK) {
            return s;
        }
        if (arena != nullptr) {
            if (const auto s = requireName(fn, arena, "arena"); s != STARSCOPE_OK) {
                return s;
            }
        }
        runtime::markLoad(*converted, epoch, batch, slot, arena == nullptr ? "" : arena);
        return STARSCOPE_OK;
    });
}

} // extern "C"
