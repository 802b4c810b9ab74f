#pragma once
// Work spread over the machine's cores: lanes of a trace are independent for most figures, and
// a 100 M-span job has tens of lanes of millions of spans each. Results must not depend on how
// the work was spread: each item writes its own slot, and callers combine slots in item order.

#include <cstddef>
#include <functional>
#include <future>
#include <system_error>

namespace starscope::tracer {

// Threads worth starting (this one included) for work of this weight (spans, tasks, columns),
// where a thread pays for itself from weightPerThread on: 1 up to it, at most the cores.
std::size_t threadsFor(std::size_t weight, std::size_t weightPerThread);
// Spans read by one thread that pay for starting it.
inline constexpr std::size_t kSpansPerThread = 1'000'000;

// Calls work(i) for each i in [0, count) on up to `threads` threads, this one among them (in
// this one alone when threads <= 1, or when no thread can be had). An exception thrown by work
// reaches the caller once every thread has stopped.
void forEachInParallel(std::size_t count, std::size_t threads, const std::function<void(std::size_t)>& work);

// Starts work on a thread of its own when one can be had, else defers it to the first get().
template <typename Work>
auto runAside(Work work) -> std::future<decltype(work())> {
    try {
        return std::async(std::launch::async, work);
    } catch (const std::system_error&) {
        return std::async(std::launch::deferred, work);
    }
}

} // namespace starscope::tracer
