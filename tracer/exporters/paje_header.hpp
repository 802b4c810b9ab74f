#pragma once
// The header of the Paje files writePaje writes, in StarPU's dialect (starpu_paje.c): the
// %EventDef block (pajeEventDefinitions, exporters.hpp), then the types its containers, states,
// events, variables and links are of. Apart from the writer so that hand-written Paje traces
// of tests and benchmarks start with the very definitions an export starts with.

#include <string_view>

namespace starscope::tracer::detail {

// The type lines that follow the %EventDef block: each a line of event 1 to 5.
std::string_view pajeTypeDeclarations();

} // namespace starscope::tracer::detail
