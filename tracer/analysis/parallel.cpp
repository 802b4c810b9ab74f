#include "tracer/analysis/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace starscope::tracer {

std::size_t threadsFor(std::size_t weight, std::size_t weightPerThread) {
    const std::size_t cores = std::max(1U, std::thread::hardware_concurrency());
    return std::min(cores, std::max<std::size_t>(1, weight / std::max<std::size_t>(1, weightPerThread)));
}

void forEachInParallel(std::size_t count, std::size_t threadCount, const std::function<void(std::size_t)>& work) {
    const std::size_t threads = std::min(count, threadCount);
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
