#pragma once
// A galloping search for sorted keys: the first index from `from` on whose key is past `bound`
// (size when none is), searched outward from `from` in doubling steps, then by bisection of the
// last step. The answer is usually close to where the previous search ended (the next fold of a
// lane being drawn, the next barrier's span): probing neighbours first stays in the cache where a
// bisection of the whole range misses at every step.

#include <algorithm>
#include <cstddef>

namespace starscope {

template <typename Bound, typename KeyOf>
std::size_t gallopPast(std::size_t size, std::size_t from, Bound bound, KeyOf keyOf) {
    std::size_t lo = from;
    std::size_t step = 1;
    while (lo + step < size && keyOf(lo + step) <= bound) {
        lo += step;
        step *= 2;
    }
    std::size_t hi = std::min(size, lo + step + 1);
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (keyOf(mid) <= bound) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

} // namespace starscope
