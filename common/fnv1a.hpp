#pragma once
// FNV-1a, 64 bits: the native format's payload checksum and the run cache's fingerprint of a
// prof file's head. Chunks chain by passing the previous hash as the seed.

#include <cstdint>
#include <string_view>

namespace starscope {

inline constexpr std::uint64_t kFnv1aSeed = 0xcbf29ce484222325ULL;

inline std::uint64_t fnv1a(std::string_view data, std::uint64_t hash = kFnv1aSeed) {
    for (const char c : data) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

} // namespace starscope
