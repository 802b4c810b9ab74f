// Fuzzes starscope's native format reader (readNative), and the pipeline on what it accepts.
//
// The file ends with a checksum of its payload (nativeChecksum, which the version chooses), which
// random mutations almost never match: half of the inputs get their payload size and checksum
// repaired first, so the
// mutations also reach the payload decoder behind the checksum. A crash input kept as a
// regression is stored repaired, as the reader saw it: FuzzRegressions replays files as they are.
#include "fuzz_input_file.hpp"
#include "tracer/native/native_format.hpp"
#include "tracer/readers/read_trace.hpp"

#include <cstring>
#include <string_view>
#include <vector>

namespace {

constexpr std::size_t kHeaderSize = 24;   // magic, version, flags, payload size

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::uint8_t> bytes(data, data + size);
    if (size >= kHeaderSize + 8 && (size & 1U) == 0) {
        const std::uint64_t payload = size - kHeaderSize - 8;
        std::memcpy(bytes.data() + 16, &payload, 8);
        std::uint32_t version = 0;
        std::memcpy(&version, bytes.data() + 8, 4);
        const std::uint64_t checksum = starscope::tracer::nativeChecksum(
            std::string_view(reinterpret_cast<const char*>(bytes.data()) + kHeaderSize, payload), version);
        std::memcpy(bytes.data() + kHeaderSize + payload, &checksum, 8);
    }
    const auto file = starscope::hardening::fuzzInputFile("native", bytes.data(), bytes.size());
    starscope::hardening::fuzzPipeline("native", starscope::tracer::readNative(file));
    return 0;
}
