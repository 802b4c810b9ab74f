#pragma once
// The readers take paths, not buffers: each fuzz input is written to one scratch file per
// process (in /dev/shm when it exists, so no disk traffic) and handed to the reader.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace starscope::hardening {

inline std::filesystem::path fuzzInputFile(const char* name, const std::uint8_t* data, std::size_t size) {
    static const std::filesystem::path dir =
        std::filesystem::is_directory("/dev/shm") ? std::filesystem::path("/dev/shm")
                                                  : std::filesystem::temp_directory_path();
    const auto file = dir / ("starscope_fuzz_" + std::string(name) + "_" + std::to_string(::getpid()));
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    return file;
}

} // namespace starscope::hardening
