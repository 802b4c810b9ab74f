#include "tracer/analysis/idle_gaps.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>

namespace starscope::tracer {

std::vector<IdleGap> laneIdleGaps(std::span<const Span> spans, const std::vector<std::uint8_t>& covers, TimeNs threshold) {
    std::vector<IdleGap> gaps;
    bool started = false;
    TimeNs coverEnd = 0;
    for (const Span& span : spans) {
        if (span.state >= covers.size() || covers[span.state] == 0) {
            continue;
        }
        const TimeNs start = span.start;
        if (!started) {
            gaps.push_back(IdleGap{IdleGap::kBeforeAll, start});
            started = true;
            coverEnd = span.end;
            continue;
        }
        if (start > coverEnd && start - coverEnd > threshold) {
            gaps.push_back(IdleGap{coverEnd, start});
        }
        coverEnd = std::max<TimeNs>(coverEnd, span.end);
    }
    if (started) {
        gaps.push_back(IdleGap{coverEnd, IdleGap::kAfterAll});
    }
    return gaps;
}

namespace {

// Both lists sorted and disjoint (open intervals): so is what they share.
std::vector<IdleGap> intersect(const std::vector<IdleGap>& a, const std::vector<IdleGap>& b) {
    std::vector<IdleGap> out;
    out.reserve(std::min(a.size(), b.size()));
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        const TimeNs from = std::max(a[i].from, b[j].from);
        const TimeNs to = std::min(a[i].to, b[j].to);
        if (from < to) {
            out.push_back(IdleGap{from, to});
        }
        // The one ending first meets nothing more of the other; ending together, neither does.
        const TimeNs aTo = a[i].to;
        const TimeNs bTo = b[j].to;
        i += aTo <= bTo ? 1 : 0;
        j += bTo <= aTo ? 1 : 0;
    }
    return out;
}

} // namespace

std::vector<IdleGap> sharedIdleGaps(std::span<const std::vector<IdleGap>* const> lists) {
    if (lists.empty()) {
        return {IdleGap{}};
    }
    // Shortest first: every step's result is no longer than the shorter list.
    std::vector<const std::vector<IdleGap>*> order(lists.begin(), lists.end());
    std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) { return a->size() < b->size(); });
    std::vector<IdleGap> shared = *order.front();
    for (std::size_t k = 1; k < order.size() && !shared.empty(); ++k) {
        shared = intersect(shared, *order[k]);
    }
    return shared;
}

void forEachInParallel(std::size_t count, std::size_t weight, const std::function<void(std::size_t)>& work) {
    // Below this much (spans, tasks) a thread's start costs more than it saves.
    constexpr std::size_t kWeightPerThread = 1'000'000;
    const std::size_t cores = std::max(1U, std::thread::hardware_concurrency());
    const std::size_t threads = std::min({cores, count, std::max<std::size_t>(1, weight / kWeightPerThread)});
    std::atomic<std::size_t> next{0};
    std::exception_ptr failure;
    std::mutex failureMutex;
    const auto run = [&] {
        try {
            for (std::size_t i = next++; i < count; i = next++) {
                work(i);
            }
        } catch (...) {
            next = count;   // the others stop at their next item
            const std::lock_guard lock(failureMutex);
            if (!failure) {
                failure = std::current_exception();
            }
        }
    };
    std::vector<std::thread> helpers;
    for (std::size_t t = 1; t < threads; ++t) {
        try {
            helpers.emplace_back(run);
        } catch (const std::system_error&) {
            break;   // no more threads to be had: the ones there are do the work
        }
    }
    run();
    for (auto& helper : helpers) {
        helper.join();
    }
    if (failure) {
        std::rethrow_exception(failure);
    }
}

} // namespace starscope::tracer
