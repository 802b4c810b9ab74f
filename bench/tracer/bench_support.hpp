#pragma once
// Timing helpers shared by the tracer benchmarks.

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace starscope::bench {

using Clock = std::chrono::steady_clock;

inline double seconds(Clock::time_point from) {
    return std::chrono::duration<double>(Clock::now() - from).count();
}

inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// Runs a shell command; its exit status, -1 when it did not exit normally.
inline int shell(const std::string& command) {
    const int status = std::system(command.c_str());
    return status == -1 || !WIFEXITED(status) ? -1 : WEXITSTATUS(status);
}

} // namespace starscope::bench
