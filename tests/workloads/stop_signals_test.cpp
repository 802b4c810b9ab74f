// The stop-signal scope of record: what it leaves installed once the run is written.

#include "workloads/sigint_handler.hpp"

#include <csignal>
#include <gtest/gtest.h>

namespace {

using starscope::workloads::onSignalAfterTheRun;
using starscope::workloads::ScopedStopSignals;

extern "C" void noteStop(int) {}

void (*currentHandler(int signal))(int) {
    struct sigaction now {};
    ::sigaction(signal, nullptr, &now);
    return now.sa_handler;
}

TEST(StopSignals, TheScopePutsThePreviousHandlersBack) {
    ASSERT_EQ(currentHandler(SIGINT), SIG_DFL);
    {
        const ScopedStopSignals signals(noteStop);
        EXPECT_EQ(currentHandler(SIGINT), noteStop);
        EXPECT_EQ(currentHandler(SIGPIPE), SIG_IGN);
    }
    EXPECT_EQ(currentHandler(SIGINT), SIG_DFL);
    EXPECT_EQ(currentHandler(SIGPIPE), SIG_DFL);
}

// `nohup starscope record ...` ignores SIGHUP, a non-interactive shell's `&` SIGINT: the scope
// leaves such a signal ignored, during it and after it, and says so for the program it starts.
TEST(StopSignals, ASignalTheCallerIgnoresStaysIgnored) {
    ASSERT_EQ(currentHandler(SIGINT), SIG_DFL);
    std::signal(SIGHUP, SIG_IGN);
    {
        ScopedStopSignals signals(noteStop);
        EXPECT_EQ(currentHandler(SIGHUP), SIG_IGN);
        EXPECT_EQ(currentHandler(SIGINT), noteStop);
        EXPECT_TRUE(signals.callerIgnores(SIGHUP));
        EXPECT_FALSE(signals.callerIgnores(SIGINT));
        EXPECT_FALSE(signals.callerIgnores(SIGPIPE));
        signals.leaveBehind(onSignalAfterTheRun);
    }
    EXPECT_EQ(currentHandler(SIGHUP), SIG_IGN);
    EXPECT_EQ(currentHandler(SIGINT), onSignalAfterTheRun);
    std::signal(SIGHUP, SIG_DFL);
    std::signal(SIGINT, SIG_DFL);
}

// A Ctrl-C while a written run's process exits (LeakSanitizer's scan at exit made that last
// long enough for a test to hit it) must not end it by SIGINT; a second one still does.
TEST(StopSignalsDeathTest, AfterTheRunTheFirstSignalIsLetGoAndTheSecondEndsTheProcess) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            {
                ScopedStopSignals signals(noteStop);
                signals.leaveBehind(onSignalAfterTheRun);
            }
            for (const int signal : starscope::workloads::kStopSignals) {
                if (currentHandler(signal) != onSignalAfterTheRun) {
                    std::_Exit(3);
                }
            }
            std::raise(SIGINT);
            if (currentHandler(SIGPIPE) != SIG_DFL) {
                std::_Exit(4);
            }
            std::raise(SIGINT);
            std::_Exit(5);
        },
        ::testing::KilledBySignal(SIGINT), "");
}

} // namespace
