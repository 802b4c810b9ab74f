// StarPU 1.4's FxT event categories (tracer/model/fxt_event_set.hpp): the names STARPU_FXT_EVENTS
// takes, parsed and printed back.

#include "tracer/model/fxt_event_set.hpp"

#include <gtest/gtest.h>

namespace starscope::tracer {
namespace {

TEST(FxtEventSet, ParsesStarpusNamesAndPrintsThemBackInBitOrder) {
    const auto set = FxtEventSet::parse(" worker| task ,EVENT");
    ASSERT_TRUE(set);
    EXPECT_EQ(set->text(), "TASK,WORKER,EVENT");
    EXPECT_TRUE(set->has(FxtCategory::Meta)); // StarPU keeps its meta events on
    EXPECT_FALSE(set->has(FxtCategory::Dsm));
    // The mask is StarPU's: FUT_KEYMASK0 (META) | 2 (TASK) | 6 (WORKER) | 14 (EVENT).
    EXPECT_EQ(set->mask(), 0x4045U);
    EXPECT_EQ(FxtEventSet::parse(set->text()), set);
}

TEST(FxtEventSet, AllIsStarpusDefaultAndTheDefaultIsASmallerSet) {
    EXPECT_EQ(FxtEventSet::parse("ALL"), FxtEventSet::all());
    EXPECT_EQ(FxtEventSet::all().text(), "all");
    EXPECT_FALSE(FxtEventSet::all().has(FxtCategory::TaskVerboseExtra));
    EXPECT_EQ(FxtEventSet::starscopeDefault().text(),
              "USER,TASK,TASK_VERBOSE,WORKER,WORKER_VERBOSE,DSM,EVENT,MPI");
    // As the 1.4.12 trace's setup event writes it (0x41cf without MPI).
    EXPECT_EQ(FxtEventSet::starscopeDefault().mask(), 0x141cfU);
}

TEST(FxtEventSet, UnknownOrNoNamesAreErrorsThatSayWhatStarpuKnows) {
    std::string error;
    EXPECT_FALSE(FxtEventSet::parse("TASK,SOMETHING", &error));
    EXPECT_NE(error.find("unknown FxT event category 'SOMETHING'"), std::string::npos) << error;
    EXPECT_NE(error.find("WORKER_VERBOSE"), std::string::npos) << error;
    EXPECT_FALSE(FxtEventSet::parse(" , ", &error));
    EXPECT_NE(error.find("no FxT event category"), std::string::npos) << error;
}

} // namespace
} // namespace starscope::tracer
