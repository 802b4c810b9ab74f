#pragma once
// The readers take paths, not buffers: each fuzz input is written to one scratch file per
// process (in /dev/shm when it exists, so no disk traffic) and handed to the reader. What a
// reader accepts then goes through the whole pipeline (analysis, every exporter, native copy).

#include "tests/hardening/trace_pipeline.hpp"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace starscope::hardening {

inline std::filesystem::path fuzzScratchFile(const std::string& name) {
    static const std::filesystem::path dir =
        std::filesystem::is_directory("/dev/shm") ? std::filesystem::path("/dev/shm")
                                                  : std::filesystem::temp_directory_path();
    return dir / ("starscope_fuzz_" + name + "_" + std::to_string(::getpid()));
}

inline std::filesystem::path fuzzInputFile(const char* name, const std::uint8_t* data, std::size_t size) {
    const auto file = fuzzScratchFile(name);
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    return file;
}

// A reader's result through the pipeline; what the pipeline finds wrong is a finding like a
// crash, so it aborts.
inline void fuzzPipeline(const char* name, const tracer::TraceResult<tracer::Trace>& trace) {
    if (!trace) {
        (void)trace.error().describe();
        return;
    }
    if (const auto wrong = runTracePipeline(*trace, fuzzScratchFile(std::string(name) + "_copy.sstrace"))) {
        std::fprintf(stderr, "an accepted %s input: %s\n", name, wrong->c_str());
        std::abort();
    }
}

} // namespace starscope::hardening
