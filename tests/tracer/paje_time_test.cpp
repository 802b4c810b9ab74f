// Paje dates read exactly: the one-pass path for the usual dates against the general one.

#include "tracer/readers/paje/paje_time.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace starscope::tracer::detail {
namespace {

void expectStamp(std::string_view text, std::int64_t mantissa, int decimals) {
    const auto stamp = parsePajeStamp(text);
    ASSERT_TRUE(stamp) << text;
    EXPECT_EQ(stamp->mantissa, mantissa) << text;
    EXPECT_EQ(stamp->decimals, decimals) << text;
    EXPECT_FALSE(stamp->truncated) << text;
}

TEST(PajeStamp, UsualDates) {
    expectStamp("85.720468000", 85720468, 6);   // trailing zeros are no resolution
    expectStamp("12", 12, 0);
    expectStamp("0.000000", 0, 0);
    expectStamp("0005.25", 525, 2);
    expectStamp("5.", 5, 0);
    expectStamp("999999999999.999999", 999999999999999999, 6);   // 18 digits: the one-pass path's last
    expectStamp("-0.5", -5, 1);                                  // the general path's
    expectStamp("1.5e-07", 15, 8);
    // More digits than 64 bits hold: the last ones are dropped, and said so.
    const auto cut = parsePajeStamp("1234567890.1234567890123");
    ASSERT_TRUE(cut);
    EXPECT_TRUE(cut->truncated);
    EXPECT_EQ(cut->mantissa, 1234567890123456789);
    EXPECT_EQ(cut->decimals, 9);
}

TEST(PajeStamp, RefusedDates) {
    for (const std::string_view text : {"", ".", "1..2", "1.2.3", "12a", " 1", "1e", "1000000000001",
                                        "1000000000000.5", "99999999999999999999999"}) {
        EXPECT_FALSE(parsePajeStamp(text)) << '"' << text << '"';
    }
}

// Every date the one-pass path takes reads as the general path reads it (an "e0" exponent sends
// the same date there).
TEST(PajeStamp, OnePassAgreesWithTheGeneralPath) {
    std::mt19937_64 random(7);
    for (int i = 0; i < 20'000; ++i) {
        const int intDigits = static_cast<int>(random() % 13);
        const int fracDigits = static_cast<int>(random() % 12);
        std::string text;
        for (int d = 0; d < intDigits; ++d) {
            text += static_cast<char>('0' + random() % 10);
        }
        if (fracDigits > 0 || random() % 2 == 0) {
            text += '.';
        }
        for (int d = 0; d < fracDigits; ++d) {
            // Many zeros: trailing and inner zeros are the tricky part.
            text += random() % 3 == 0 ? static_cast<char>('0' + random() % 10) : '0';
        }
        const auto fast = parsePajeStamp(text);
        const auto general = parsePajeStamp(text + "e0");
        ASSERT_EQ(fast.has_value(), general.has_value()) << text;
        if (fast) {
            EXPECT_EQ(fast->mantissa, general->mantissa) << text;
            EXPECT_EQ(fast->decimals, general->decimals) << text;
            EXPECT_EQ(fast->truncated, general->truncated) << text;
        }
    }
}

} // namespace
} // namespace starscope::tracer::detail
