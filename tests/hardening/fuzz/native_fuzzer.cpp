// Fuzzes starscope's native format reader (readNative).
//
// The file ends with an FNV-1a checksum of its payload, which random mutations almost never
// match: half of the inputs get their payload size and checksum repaired first, so the
// mutations also reach the payload decoder behind the checksum.
#include "fuzz_input_file.hpp"
#include "tracer/readers/read_trace.hpp"

#include <cstring>
#include <vector>

namespace {

constexpr std::size_t kHeaderSize = 24;   // magic, version, flags, payload size

std::uint64_t fnv1a(const std::uint8_t* data, std::size_t size) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (std::size_t i = 0; i < size; ++i) {
        hash ^= data[i];
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::uint8_t> bytes(data, data + size);
    if (size >= kHeaderSize + 8 && (size & 1U) == 0) {
        const std::uint64_t payload = size - kHeaderSize - 8;
        std::memcpy(bytes.data() + 16, &payload, 8);
        const std::uint64_t checksum = fnv1a(bytes.data() + kHeaderSize, payload);
        std::memcpy(bytes.data() + kHeaderSize + payload, &checksum, 8);
    }
    const auto file = starscope::hardening::fuzzInputFile("native", bytes.data(), bytes.size());
    auto trace = starscope::tracer::readNative(file);
    if (!trace) {
        (void)trace.error().describe();
    }
    return 0;
}
