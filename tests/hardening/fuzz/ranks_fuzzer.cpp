// Fuzzes the merge of a StarPU-MPI job's prof files with both ranks damaged at once: the input is
// not a file but a list of damages done to the two real prof files of tests/data/tracer/ranks13
// or ranks14 (rank_damage.hpp), so that what reaches the merge is a real job with a few things
// wrong (a rank's StarPU-MPI start or sync point given another rank or time, bytes overwritten,
// a file cut short) rather than noise the FxT decoder refuses at its first block. The damaged
// files are read as a job in the order the input says, and what is accepted goes through the
// whole pipeline.
//
// Input: byte 0 picks the run (bit 0) and the file order (bit 1); then 12-byte records: rank
// (bit 0 of byte 0), what (byte 1), a 2-byte index and an 8-byte value.
#include "fuzz_input_file.hpp"
#include "tests/hardening/rank_damage.hpp"
#include "tracer/readers/read_trace.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace starscope::hardening;

const std::array<std::string, 2>& rankFiles(unsigned run) {
    static const auto load = [](const char* name) {
        const auto dir = std::filesystem::path(STARSCOPE_TEST_DATA_DIR) / "tracer" / name;
        return std::array<std::string, 2>{readBytes(dir / "prof_file__0"), readBytes(dir / "prof_file__1")};
    };
    static const std::array<std::array<std::string, 2>, 2> runs = {load("ranks13"), load("ranks14")};
    return runs[run & 1U];
}

void damage(std::string& file, std::uint8_t what, std::uint16_t index, std::uint64_t value) {
    if (file.empty()) {
        return;
    }
    switch (what % 6) {
    case 0: // a sync point's or the start's field, as a bit flip in it would set it
    case 1:
    case 2: {
        RankPatch patch;
        patch.events = index & 1U ? MpiStartEvent : SyncPointEvent;
        patch.sync = (index >> 1) & 1U;
        patch.field = static_cast<Field>(what % 3);
        // With bit 2 of the index, near the real value (a delta of 32 bits), else anything.
        const auto offsets = patchedOffsets(file, patch);
        if (!offsets.empty() && (index & 4U) != 0) {
            const auto delta = static_cast<std::int64_t>(static_cast<std::int32_t>(value));
            value = loadU64(file, offsets.front()) + static_cast<std::uint64_t>(delta);
        }
        patch.value = value;
        (void)patchRankEvents(file, patch);
        break;
    }
    case 3: { // 8 bytes overwritten somewhere
        const auto at = static_cast<std::size_t>(value >> 16) % file.size();
        const auto bytes = std::min<std::size_t>(8, file.size() - at);
        std::memcpy(file.data() + at, &value, bytes);
        break;
    }
    case 4: // one byte flipped
        file[static_cast<std::size_t>(value) % file.size()] ^= static_cast<char>(1U << (index & 7U));
        break;
    default: // cut short
        file.resize(static_cast<std::size_t>(value) % file.size());
        break;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) {
        return 0;
    }
    auto files = rankFiles(data[0]);
    constexpr std::size_t kRecord = 12;
    for (std::size_t at = 1; at + kRecord <= size; at += kRecord) {
        std::uint16_t index = 0;
        std::uint64_t value = 0;
        std::memcpy(&index, data + at + 2, sizeof index);
        std::memcpy(&value, data + at + 4, sizeof value);
        damage(files[data[at] & 1U], data[at + 1], index, value);
    }
    std::vector<std::filesystem::path> paths;
    for (std::size_t r = 0; r < 2; ++r) {
        paths.push_back(fuzzScratchFile("ranks_" + std::to_string(r)));
        writeBytes(paths.back(), files[r]);
    }
    if ((data[0] & 2U) != 0) {
        std::swap(paths[0], paths[1]);
    }
    fuzzPipeline("ranks", starscope::tracer::readTrace(paths));
    return 0;
}
