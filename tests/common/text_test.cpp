// The text helpers every module shares: a command line shown to a user reads back in a shell as
// the arguments it was run with.

#include "common/text.hpp"

#include <cstdio>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace {

using starscope::shellCommandLine;
using starscope::shellQuoted;

TEST(ShellQuoted, PlainArgumentsStayAsTheyAre) {
    EXPECT_EQ(shellQuoted("/usr/bin/prog"), "/usr/bin/prog");
    EXPECT_EQ(shellQuoted("--size=64,128"), "--size=64,128");
}

TEST(ShellQuoted, BlanksQuotesAndSpecialBytesAreQuoted) {
    EXPECT_EQ(shellQuoted("a b"), "'a b'");
    EXPECT_EQ(shellQuoted(""), "''");
    EXPECT_EQ(shellQuoted("it's"), "'it'\\''s'");
    EXPECT_EQ(shellQuoted("$HOME"), "'$HOME'");
    EXPECT_EQ(shellQuoted("caf\xe9"), "'caf\xe9'");
}

// What a shell makes of the line is the argument vector it was made from.
TEST(ShellCommandLine, AShellReadsBackTheSameArguments) {
    const std::vector<std::string> argv = {"printf", "[%s]",  "a b", "",
                                           "it's",   "$HOME", "*",   "x\ny"};
    const std::string command = shellCommandLine(argv);
    // printf ends at once; timeout bounds the wait all the same.
    FILE* pipe = ::popen(("timeout 10 " + command).c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string out;
    char buffer[256];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) {
        out.append(buffer, n);
    }
    ASSERT_EQ(::pclose(pipe), 0) << command;
    EXPECT_EQ(out, "[a b][][it's][$HOME][*][x\ny]");
}

} // namespace
