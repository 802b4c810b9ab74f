#pragma once
// Writes the markers of common/markers.hpp (grammar "ss1:...") into StarPU's FxT stream through
// the public starpu_fxt_trace_user_event_string. starpu_fxt_tool shows them as Paje events;
// the tracer reads them back with markers::parse().
//
// Cost when tracing is off: markersEnabled() reads starpu_fxt_is_enabled() (the
// STARPU_FXT_TRACE setting) once, after starpu_init, and caches it; a disabled writer is one
// relaxed atomic load and a branch, no formatting. Safe to call from any thread, including
// StarPU workers (their events land on the worker's lane).

#include "common/markers.hpp"

#include <cstdint>
#include <string_view>

namespace starscope::runtime {

// Whether markers reach a trace: StarPU is initialised and FxT tracing is on. Before
// starpu_init it answers false without caching, so the first call after init decides.
bool markersEnabled();

// Formats and writes one marker (nothing when markersEnabled() is false).
void writeMarker(const markers::Marker& marker);

// Shorthands for the kinds the runtime writes; negative values leave a field out.
void markBatch(markers::Kind kind, std::int64_t epoch, std::int64_t batch, std::int64_t slot);
void markResetWait(markers::Kind kind, std::string_view arena, std::int64_t handles);
void markLoad(markers::Kind kind, std::int64_t epoch, std::int64_t batch, std::int64_t slot,
              std::string_view arena);

} // namespace starscope::runtime
