#pragma once
// Installs a SIGINT handler for a scope and puts the previous one back afterwards: record
// stops at a batch boundary, sweep after the current run, and neither leaves its handler
// behind for the code that follows.

#include <csignal>

namespace starscope::workloads {

class ScopedSigintHandler {
public:
    explicit ScopedSigintHandler(void (*handler)(int)) {
        struct sigaction action {};
        action.sa_handler = handler;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGINT, &action, &m_previous);
    }
    ~ScopedSigintHandler() { ::sigaction(SIGINT, &m_previous, nullptr); }
    ScopedSigintHandler(const ScopedSigintHandler&) = delete;
    ScopedSigintHandler& operator=(const ScopedSigintHandler&) = delete;

private:
    struct sigaction m_previous {};
};

} // namespace starscope::workloads
