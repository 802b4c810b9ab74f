// The sweep's summary.json from runs whose names and notes are not UTF-8 (a program argument or
// a --vary value typed in a Latin-1 shell): written, valid JSON, U+FFFD where the bytes were.

#include "tests/support/test_support.hpp"
#include "tests/workloads/run_folder.hpp"
#include "workloads/sweep/sweep_summary.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace {

using starscope::testing::TempDir;
using starscope::workloads::testing::readJson;

TEST(SweepSummary, Latin1RunNamesAndNotesGiveValidJson) {
    TempDir dir;
    starscope::workloads::SweepRow row;
    row.run = "prog-caf\xe9-r0";
    row.arenas = "prog";
    row.loader = "caf\xe9";
    row.status = starscope::tracer::run::RunStatus::Failed;
    row.action = starscope::workloads::SweepAction::Recorded;
    row.note = "prog exited with status 1: caf\xe9";
    const auto written = starscope::workloads::writeSummary(dir.path(), {row});
    ASSERT_TRUE(written) << written.error().describe();
    const auto summary = readJson(dir / "summary.json");
    ASSERT_FALSE(summary.is_discarded()) << starscope::testing::readFile(dir / "summary.json");
    ASSERT_EQ(summary.at("runs").size(), 1U);
    EXPECT_EQ(summary.at("runs")[0].at("run"), "prog-caf\xef\xbf\xbd-r0");
    EXPECT_EQ(summary.at("runs")[0].at("loader"), "caf\xef\xbf\xbd");
}

} // namespace
