// XXH64 gives xxHash's own values (those of libxxhash 0.8.1's XXH64 for the same inputs), fed
// whole or in pieces of any size.
#include "common/xxhash64.hpp"

#include <gtest/gtest.h>

#include <string>

namespace starscope {
namespace {

std::string bytes0To255Thrice() {
    std::string data;
    for (int copy = 0; copy < 3; ++copy) {
        for (int b = 0; b < 256; ++b) {
            data.push_back(static_cast<char>(b));
        }
    }
    return data + "xyz";
}

TEST(XxHash64, GivesXxHashsValues) {
    EXPECT_EQ(xxhash64(""), 0xef46db3751d8e999ULL);
    EXPECT_EQ(xxhash64("a"), 0xd24ec4f1a98c6e5bULL);
    EXPECT_EQ(xxhash64("abc"), 0x44bc2cf5ad770999ULL);
    EXPECT_EQ(xxhash64("0123456789abcdef0123456789abcdef0123456789"), 0xa76190c3acf08a1cULL);
    EXPECT_EQ(xxhash64(bytes0To255Thrice()), 0xe921a1b45bd779f8ULL);
    EXPECT_EQ(xxhash64("starscope", 12345), 0xadf5ad2ef38c5047ULL);
}

TEST(XxHash64, PiecesOfAnySizeGiveTheWholesHash) {
    const std::string data = bytes0To255Thrice();
    for (const std::size_t piece : {std::size_t{1}, std::size_t{3}, std::size_t{31}, std::size_t{32},
                                    std::size_t{33}, std::size_t{100}, data.size()}) {
        XxHash64 hash;
        for (std::size_t pos = 0; pos < data.size(); pos += piece) {
            hash.update(std::string_view(data).substr(pos, piece));
        }
        EXPECT_EQ(hash.digest(), xxhash64(data)) << "pieces of " << piece;
    }
}

} // namespace
} // namespace starscope
