// The outlier filter passes on what holding every event for the next one passed on: the same
// events, in the same order, with their parameters, and drops the same isolated jumps.

#include "tracer/readers/fxt/outlier_filter.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace starscope::tracer::detail {
namespace {

struct Passed {
    std::uint64_t time;
    std::vector<std::uint64_t> params;
    bool operator==(const Passed&) const = default;
};

struct Recorder {
    std::vector<Passed> events;
    bool handle(const RawEvent& ev) {
        events.push_back({ev.time, {ev.params, ev.params + ev.paramCount}});
        return true;
    }
    TimeNs mapTime(std::uint64_t time, std::uint64_t origin) const { return static_cast<TimeNs>(time - origin); }
};

// The filter as it was: every event held until the next one decides it.
struct HoldEveryEvent {
    static constexpr std::uint64_t kJump = 1'000'000'000;
    Recorder& out;
    bool holding = false;
    bool hasPrev = false;
    std::uint64_t prev = 0;
    Passed held{};
    std::size_t dropped = 0;
    void push(std::uint64_t time, std::uint64_t origin, const std::vector<std::uint64_t>& params) {
        if (time < origin) {
            ++dropped;
            return;
        }
        if (holding) {
            const bool up = hasPrev && held.time > prev + kJump && held.time > time + kJump;
            const bool down = hasPrev && held.time + kJump < prev && held.time + kJump < time;
            if (up || down) {
                ++dropped;
            } else {
                prev = held.time;
                hasPrev = true;
                out.events.push_back(held);
            }
        }
        held = {time, params};
        holding = true;
    }
    void flush() {
        if (holding) {
            out.events.push_back(held);
        }
    }
};

TEST(OutlierFilter, PassesOnWhatHoldingEveryEventPassedOn) {
    std::mt19937_64 random(29);
    constexpr std::uint64_t kOrigin = 1'000'000;
    for (int run = 0; run < 200; ++run) {
        // Times moving forward by up to 2 s, with isolated jumps up and down, pairs of them, a
        // real pause, times before the origin and times near the top of 64 bits.
        std::vector<std::uint64_t> times;
        std::uint64_t now = kOrigin + random() % 1000;
        for (int i = 0; i < 60; ++i) {
            now += random() % (run % 2 == 0 ? 2'000'000'000ULL : 5'000);
            switch (random() % 12) {
            case 0: times.push_back(now + 50'000'000'000ULL); break;
            case 1: times.push_back(now > 3'000'000'000ULL ? now - 3'000'000'000ULL : 0); break;
            case 2: times.push_back(std::numeric_limits<std::uint64_t>::max() - random() % 3); break;
            case 3: times.push_back(random() % kOrigin); break;
            case 4: now += 10'000'000'000ULL; times.push_back(now); break;
            default: times.push_back(now); break;
            }
        }
        Recorder filtered;
        Recorder reference;
        OutlierFilter<Recorder> filter(filtered);
        HoldEveryEvent old{reference};
        std::vector<std::uint64_t> params(8);
        for (std::size_t i = 0; i < times.size(); ++i) {
            params.assign(i % 9, times[i] ^ i);
            const RawEvent ev{times[i], kOrigin, 0x5100 + i, static_cast<std::uint32_t>(params.size()), params.data()};
            ASSERT_TRUE(filter.push(ev));
            old.push(times[i], kOrigin, params);
            // The buffer the parameters were read from is reused: a held event keeps its own.
            params.assign(params.size(), 0xdead);
        }
        ASSERT_TRUE(filter.flush());
        old.flush();
        ASSERT_EQ(filtered.events, reference.events) << "run " << run;
        EXPECT_EQ(filter.dropped(), old.dropped) << "run " << run;
        if (!reference.events.empty()) {
            std::uint64_t last = 0;
            for (const auto& e : reference.events) {
                last = std::max(last, e.time);
            }
            EXPECT_EQ(filter.lastRecorded(), last);
            EXPECT_EQ(filter.lastTime(), static_cast<TimeNs>(last - kOrigin));
        }
    }
}

} // namespace
} // namespace starscope::tracer::detail
