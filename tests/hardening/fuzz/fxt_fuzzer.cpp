// Fuzzes the FxT reader (through readTrace) on one prof file, and the pipeline on what it accepts.
//
// Inputs that do not have libfxt's 64-bit layout would go to the libfxt fallback, which forks
// a child per file; that path is isolated by design, and forking per input would cut the
// execution rate a hundredfold, so they are skipped here.
#include "fuzz_input_file.hpp"
#include "tracer/readers/fxt/fxt_direct.hpp"
#include "tracer/readers/read_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto file = starscope::hardening::fuzzInputFile("fxt", data, size);
    if (!starscope::tracer::detail::isDirectFxtLayout(file)) {
        return 0;
    }
    starscope::hardening::fuzzPipeline("fxt", starscope::tracer::readTrace({file}));
    return 0;
}
