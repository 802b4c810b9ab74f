// Fuzzes the Paje reader (readPaje).
#include "fuzz_input_file.hpp"
#include "tracer/readers/read_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto file = starscope::hardening::fuzzInputFile("paje", data, size);
    auto trace = starscope::tracer::readPaje(file);
    if (!trace) {
        (void)trace.error().describe();
    }
    return 0;
}
