// Fuzzes the Paje reader (readPaje), and the pipeline on what it accepts.
#include "fuzz_input_file.hpp"
#include "tracer/readers/paje/paje_reader.hpp"
#include "tracer/readers/read_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto file = starscope::hardening::fuzzInputFile("paje", data, size);
    starscope::hardening::fuzzPipeline("paje", starscope::tracer::readPaje(file));
    return 0;
}
