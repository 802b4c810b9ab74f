#include "tracer/readers/paje/paje_time.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace starscope::tracer::detail {

namespace {

constexpr std::int64_t kMaxMantissa = std::numeric_limits<std::int64_t>::max() / 10 - 9;
// Finest tick: 10^-15 ms, so that ticks per second (10^18) still fit in an int64.
constexpr int kMaxDecimals = 15;
constexpr double kMaxAbsMs = 1e12;

std::int64_t pow10(int n) {
    std::int64_t p = 1;
    while (n-- > 0) {
        p *= 10;
    }
    return p;
}

} // namespace

std::optional<PajeStamp> parsePajeStamp(std::string_view text) {
    // The usual date ("85.720468000": digits and at most one point, no sign, no exponent, at most
    // 18 digits, so the mantissa cannot overflow) in one pass; it was a tenth of reading a Paje
    // trace. The fraction's trailing zeros are found as characters and left out rather than
    // divided out of the mantissa afterwards, a division per zero (StarPU writes three per date).
    // Anything else takes the general path below, which gives the same for these.
    if (text.size() <= 19) {
        const char* p = text.data();
        const char* const end = p + text.size();
        const auto digit = [](char c) { return static_cast<unsigned char>(c - '0') < 10; };
        std::int64_t mantissa = 0;
        int decimals = 0;
        for (; p != end && digit(*p); ++p) {
            mantissa = mantissa * 10 + (*p - '0');
        }
        const auto intDigits = p - text.data();
        bool plain = true;
        std::ptrdiff_t fracDigits = 0;
        if (p != end && *p == '.') {
            const char* const fraction = p + 1;
            fracDigits = end - fraction;
            plain = std::all_of(fraction, end, digit);
            const char* last = end;
            while (last != fraction && last[-1] == '0') {
                --last;
            }
            for (p = fraction; plain && p != last; ++p) {
                mantissa = mantissa * 10 + (*p - '0');
                ++decimals;
            }
            p = end;
        }
        const auto digits = intDigits + fracDigits;
        if (plain && p == end && digits > 0 && digits <= 18) {
            if (static_cast<double>(mantissa) * negativePowerOfTen(decimals) > kMaxAbsMs) {
                return std::nullopt;
            }
            PajeStamp s;
            s.mantissa = mantissa;
            s.decimals = static_cast<std::int8_t>(decimals);
            return s;
        }
    }
    std::size_t i = 0;
    bool negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
        negative = text[i] == '-';
        ++i;
    }
    PajeStamp s;
    int decimals = 0;
    int pendingZeros = 0;   // fraction zeros not yet known to be followed by a digit
    bool digits = false;
    bool fraction = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '.' && !fraction) {
            fraction = true;
            continue;
        }
        if (c < '0' || c > '9') {
            break;
        }
        digits = true;
        const int d = c - '0';
        if (fraction && d == 0) {
            ++pendingZeros;
            continue;
        }
        // A digit after zeros: the zeros count now.
        for (; pendingZeros > 0; --pendingZeros) {
            if (s.mantissa > kMaxMantissa || decimals >= 127) {
                s.truncated = true;
                break;
            }
            s.mantissa *= 10;
            ++decimals;
        }
        if (s.truncated || s.mantissa > kMaxMantissa || decimals >= 127) {
            if (!fraction) {
                return std::nullopt;   // the integer part alone exceeds 64 bits
            }
            s.truncated = true;
            pendingZeros = 0;
            continue;
        }
        s.mantissa = s.mantissa * 10 + d;
        decimals += fraction ? 1 : 0;
    }
    if (!digits) {
        return std::nullopt;
    }
    int exponent = 0;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool expNegative = false;
        if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
            expNegative = text[i] == '-';
            ++i;
        }
        bool expDigits = false;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
            expDigits = true;
            exponent = std::min(exponent * 10 + (text[i] - '0'), 1000);
        }
        if (!expDigits) {
            return std::nullopt;
        }
        exponent = expNegative ? -exponent : exponent;
    }
    if (i != text.size()) {
        return std::nullopt;
    }
    decimals -= exponent;
    for (; decimals < 0; ++decimals) {
        if (s.mantissa > kMaxMantissa) {
            return std::nullopt;
        }
        s.mantissa *= 10;
    }
    // Trailing zeros of the mantissa say nothing about resolution: "85.720468000" is in ns.
    while (decimals > 0 && s.mantissa % 10 == 0) {
        s.mantissa /= 10;
        --decimals;
    }
    if (decimals > 127 || std::abs(static_cast<double>(s.mantissa)) * negativePowerOfTen(decimals) > kMaxAbsMs) {
        return std::nullopt;
    }
    s.decimals = static_cast<std::int8_t>(decimals);
    s.mantissa = negative ? -s.mantissa : s.mantissa;
    return s;
}

PajeTick choosePajeTick(int maxDecimals, double maxAbsMs) {
    PajeTick tick;
    tick.decimals = std::max(6, std::min(maxDecimals, kMaxDecimals));
    tick.reduced = maxDecimals > kMaxDecimals;
    // The largest date must fit in a span's 48-bit ticks (kMaxTraceTime); sums of durations
    // then have room in an int64.
    while (tick.decimals > 6 && maxAbsMs * std::pow(10.0, tick.decimals) > static_cast<double>(kMaxTraceTime)) {
        --tick.decimals;
        tick.reduced = true;
    }
    tick.ticksPerSecond = pow10(tick.decimals + 3);
    return tick;
}

TimeNs toPajeTicks(const PajeStamp& stamp, int decimals) {
    if (stamp.decimals <= decimals) {
        return stamp.mantissa * pow10(decimals - stamp.decimals);
    }
    const int drop = stamp.decimals - decimals;
    if (drop > 18) {
        return 0;
    }
    const std::int64_t divisor = pow10(drop);
    const std::int64_t q = stamp.mantissa / divisor;
    const std::int64_t r = stamp.mantissa % divisor;
    if (2 * (r < 0 ? -r : r) >= divisor) {
        return stamp.mantissa < 0 ? q - 1 : q + 1;
    }
    return q;
}

double negativePowerOfTen(int decimals) {
    static const auto kTable = [] {
        std::array<double, 32> table{};
        for (std::size_t i = 0; i < table.size(); ++i) {
            table[i] = std::pow(10.0, -static_cast<double>(i));
        }
        return table;
    }();
    return decimals >= 0 && decimals < static_cast<int>(kTable.size()) ? kTable[static_cast<std::size_t>(decimals)]
                                                                        : std::pow(10.0, -decimals);
}

} // namespace starscope::tracer::detail
