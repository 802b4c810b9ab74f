#pragma once
// Damage done to a real StarPU-MPI rank's prof file, as a cluster job does it (a file cut short)
// or as a bit flip would (a rank's StarPU-MPI start or sync point with another rank or time):
// the regression tests and the multi-rank fuzzer make their inputs with it. The events are found
// by walking libfxt 0.3's layout (tracer/readers/fxt/fxt_direct.hpp): u32 magic, u32 header size,
// the header, then blocks (u64 size, u64 kind, events) of events (u64 time, u64 thread,
// u64 code << 8 | parameters + 1, the parameters).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace starscope::hardening {

// StarPU-MPI's codes (tracer/readers/fxt/starpu_mpi_codes.hpp), as bits of a RankPatch.
enum RankEvents : unsigned { MpiStartEvent = 1, SyncPointEvent = 2 };
inline constexpr std::uint64_t kMpiStartCode = 0x5201;
inline constexpr std::uint64_t kMpiBarrierCode = 0x5203;

enum class Field {
    Time,          // the event's own time: 1.3's sync time, 1.4's when it records no local one
    Rank,          // its first parameter
    LocalSyncTime, // 1.4's sync point: its fourth parameter
};

// Sets `field` of the start event (when events has MpiStartEvent) and of sync point number
// `sync` (when it has SyncPointEvent) to value.
struct RankPatch {
    unsigned events = SyncPointEvent;
    std::size_t sync = 0;
    Field field = Field::Time;
    std::uint64_t value = 0;
};

struct FxtEventAt {
    std::size_t offset;   // of its time
    std::uint64_t code;
    std::uint32_t params;
};

inline std::uint64_t loadU64(const std::string& bytes, std::size_t at) {
    std::uint64_t v = 0;
    std::memcpy(&v, bytes.data() + at, sizeof v);
    return v;
}

// The events of a whole libfxt 0.3 trace with one of these codes, in file order; the walk stops
// at the first damage.
inline std::vector<FxtEventAt> findFxtEvents(const std::string& bytes, std::uint64_t firstCode, std::uint64_t lastCode) {
    std::vector<FxtEventAt> found;
    if (bytes.size() < 8) {
        return found;
    }
    std::uint32_t headerSize = 0;
    std::memcpy(&headerSize, bytes.data() + 4, sizeof headerSize);
    std::size_t block = 4 + std::size_t{headerSize};
    while (block + 16 <= bytes.size()) {
        const std::uint64_t size = loadU64(bytes, block);
        if (size < 16 || size > bytes.size() - block) {
            break;
        }
        for (std::size_t p = block + 16; p + 24 <= block + size;) {
            const std::uint64_t word = loadU64(bytes, p + 16);
            const std::uint64_t words = word & 0xff;
            if (words == 0 || p + 24 + (words - 1) * 8 > block + size) {
                return found;
            }
            if ((word >> 8) >= firstCode && (word >> 8) <= lastCode) {
                found.push_back({p, word >> 8, static_cast<std::uint32_t>(words - 1)});
            }
            p += 24 + (words - 1) * 8;
        }
        block += size;
    }
    return found;
}

// Where the field a patch sets lies in a prof file's bytes: the start event's, then the sync
// point's; empty when the file has no such event or parameter.
inline std::vector<std::size_t> patchedOffsets(const std::string& bytes, const RankPatch& patch) {
    std::vector<std::size_t> at;
    std::size_t syncs = 0;
    for (const auto& ev : findFxtEvents(bytes, kMpiStartCode, kMpiBarrierCode)) {
        const bool start = ev.code == kMpiStartCode && (patch.events & MpiStartEvent) != 0;
        const bool sync = ev.code == kMpiBarrierCode && (patch.events & SyncPointEvent) != 0 && syncs++ == patch.sync;
        if (!start && !sync) {
            continue;
        }
        const std::uint32_t param = patch.field == Field::Rank ? 0 : 3;
        if (patch.field != Field::Time && (param >= ev.params || (start && patch.field == Field::LocalSyncTime))) {
            return {};
        }
        at.push_back(patch.field == Field::Time ? ev.offset : ev.offset + 24 + std::size_t{param} * 8);
    }
    return at;
}

// Applies patch to a prof file's bytes; false when the file has no such event or parameter.
inline bool patchRankEvents(std::string& bytes, const RankPatch& patch) {
    const auto offsets = patchedOffsets(bytes, patch);
    for (const auto at : offsets) {
        std::memcpy(bytes.data() + at, &patch.value, sizeof patch.value);
    }
    return !offsets.empty();
}

// The same trace with its events on 8-byte boundaries (StarPU's header puts them at 6 mod 8):
// the header grows by the bytes it takes, so that the reader uses the parameters in place, in
// its mapping of the file, instead of realigned copies.
inline std::string withAlignedEvents(std::string bytes) {
    std::uint32_t headerSize = 0;
    std::memcpy(&headerSize, bytes.data() + 4, sizeof headerSize);
    const std::size_t firstBlock = 4 + std::size_t{headerSize};
    const auto pad = static_cast<std::uint32_t>((8 - firstBlock % 8) % 8);
    bytes.insert(firstBlock, pad, '\0');
    headerSize += pad;
    std::memcpy(bytes.data() + 4, &headerSize, sizeof headerSize);
    return bytes;
}

inline std::string readBytes(const std::filesystem::path& file) {
    std::error_code ec;
    std::string bytes(static_cast<std::size_t>(std::filesystem::file_size(file, ec)), '\0');
    std::ifstream in(file, std::ios::binary);
    in.read(bytes.data(), static_cast<std::streamsize>(ec ? 0 : bytes.size()));
    bytes.resize(static_cast<std::size_t>(in.gcount()));
    return bytes;
}

inline void writeBytes(const std::filesystem::path& file, const std::string& bytes) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline bool patchRankFile(const std::filesystem::path& from, const std::filesystem::path& to, const RankPatch& patch) {
    auto bytes = readBytes(from);
    if (!patchRankEvents(bytes, patch)) {
        return false;
    }
    writeBytes(to, bytes);
    return true;
}

// The first `keep` bytes of a file: a write cut short (a full disk, a killed process).
inline void cutFile(const std::filesystem::path& from, const std::filesystem::path& to, std::size_t keep) {
    auto bytes = readBytes(from);
    bytes.resize(std::min(bytes.size(), keep));
    writeBytes(to, bytes);
}

} // namespace starscope::hardening
