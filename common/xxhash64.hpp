#pragma once
// XXH64 (Yann Collet's xxHash, 64 bits, xxhash.h 0.8's algorithm): the native format's payload
// checksum from version 5 on. FNV-1a (fnv1a.hpp), the checksum before, takes a multiply per
// byte, each waiting for the one before: about 1 GB/s, most of reading a big native file. XXH64
// reads 8-byte words into four independent lanes, at the speed memory delivers them, and is a
// checksum tools outside starscope compute (`xxhsum -H1`). Fed in pieces of any size
// (update), it gives what one call over the whole input gives.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace starscope {

class XxHash64 {
public:
    explicit XxHash64(std::uint64_t seed = 0)
        : m_lanes{seed + kPrime1 + kPrime2, seed + kPrime2, seed, seed - kPrime1}, m_seed(seed) {}

    void update(std::string_view data) {
        const auto* p = reinterpret_cast<const unsigned char*>(data.data());
        std::size_t size = data.size();
        m_length += size;
        if (m_buffered > 0) {
            const std::size_t take = std::min(size, kStripe - m_buffered);
            std::memcpy(m_buffer + m_buffered, p, take);
            m_buffered += take;
            p += take;
            size -= take;
            if (m_buffered < kStripe) {
                return;
            }
            stripe(m_buffer);
            m_buffered = 0;
        }
        for (; size >= kStripe; p += kStripe, size -= kStripe) {
            stripe(p);
        }
        std::memcpy(m_buffer, p, size);
        m_buffered = size;
    }

    std::uint64_t digest() const {
        std::uint64_t hash = 0;
        if (m_length >= kStripe) {
            hash = std::rotl(m_lanes[0], 1) + std::rotl(m_lanes[1], 7) + std::rotl(m_lanes[2], 12)
                   + std::rotl(m_lanes[3], 18);
            for (const std::uint64_t lane : m_lanes) {
                hash = (hash ^ round(0, lane)) * kPrime1 + kPrime4;
            }
        } else {
            hash = m_seed + kPrime5;
        }
        hash += m_length;
        const unsigned char* p = m_buffer;
        std::size_t size = m_buffered;
        for (; size >= 8; p += 8, size -= 8) {
            hash = std::rotl(hash ^ round(0, word64(p)), 27) * kPrime1 + kPrime4;
        }
        if (size >= 4) {
            hash = std::rotl(hash ^ (word32(p) * kPrime1), 23) * kPrime2 + kPrime3;
            p += 4;
            size -= 4;
        }
        for (; size > 0; ++p, --size) {
            hash = std::rotl(hash ^ (*p * kPrime5), 11) * kPrime1;
        }
        hash ^= hash >> 33;
        hash *= kPrime2;
        hash ^= hash >> 29;
        hash *= kPrime3;
        hash ^= hash >> 32;
        return hash;
    }

private:
    static constexpr std::uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;
    static constexpr std::uint64_t kPrime2 = 0xC2B2AE3D27D4EB4FULL;
    static constexpr std::uint64_t kPrime3 = 0x165667B19E3779F9ULL;
    static constexpr std::uint64_t kPrime4 = 0x85EBCA77C2B2AE63ULL;
    static constexpr std::uint64_t kPrime5 = 0x27D4EB2F165667C5ULL;
    static constexpr std::size_t kStripe = 32;

    // Little-endian loads (the only byte order starscope runs on), unaligned.
    static std::uint64_t word64(const unsigned char* p) {
        std::uint64_t w = 0;
        std::memcpy(&w, p, 8);
        return w;
    }
    static std::uint64_t word32(const unsigned char* p) {
        std::uint32_t w = 0;
        std::memcpy(&w, p, 4);
        return w;
    }
    static std::uint64_t round(std::uint64_t lane, std::uint64_t input) {
        return std::rotl(lane + input * kPrime2, 31) * kPrime1;
    }
    void stripe(const unsigned char* p) {
        for (std::size_t i = 0; i < 4; ++i) {
            m_lanes[i] = round(m_lanes[i], word64(p + 8 * i));
        }
    }

    std::uint64_t m_lanes[4];
    std::uint64_t m_seed;
    std::uint64_t m_length = 0;
    unsigned char m_buffer[kStripe] = {};
    std::size_t m_buffered = 0;
};

inline std::uint64_t xxhash64(std::string_view data, std::uint64_t seed = 0) {
    XxHash64 hash(seed);
    hash.update(data);
    return hash.digest();
}

} // namespace starscope
