// Fuzzes starscope's native format reader (readNative).
#include "fuzz_input_file.hpp"
#include "tracer/readers/read_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto file = starscope::hardening::fuzzInputFile("native", data, size);
    auto trace = starscope::tracer::readNative(file);
    if (!trace) {
        (void)trace.error().describe();
    }
    return 0;
}
