// Search by codelet name or job id: what matches, in time order, and next / previous from the
// selected task or from the start of the view, wrapping at either end.
#include "viewer/core/document/task_search.hpp"

#include <gtest/gtest.h>

using namespace starscope::viewer;
using starscope::tracer::TaskIndex;

namespace {

// Tasks listed out of time order; one never ran (an internal job).
starscope::tracer::Trace trace() {
    starscope::tracer::Trace t;
    const auto convFwd = t.names.intern("conv_fwd");
    const auto convBwd = t.names.intern("conv_bwd");
    const auto dense = t.names.intern("dense_fwd");
    const auto add = [&](std::uint64_t job, starscope::tracer::NameId codelet, starscope::tracer::TimeNs start) {
        starscope::tracer::Task task;
        task.jobId = job;
        t.setCodelet(task, codelet, 0);
        task.start = start;
        task.end = start < 0 ? -1 : start + 10;
        t.tasks.push_back(task);
    };
    add(1, convFwd, 300);   // 0
    add(2, dense, 100);     // 1
    add(3, convBwd, 200);   // 2
    add(4, convFwd, 100);   // 3
    add(5, convFwd, -1);    // 4: never ran
    add(6, dense, 400);     // 5
    return t;
}

} // namespace

TEST(TaskSearch, CodeletNamesMatchByPartIgnoringCaseInTimeOrder) {
    const auto t = trace();
    EXPECT_EQ(TaskSearch(t, "conv").matches(), (std::vector<TaskIndex>{3, 2, 0}));
    EXPECT_EQ(TaskSearch(t, " CONV_FWD ").matches(), (std::vector<TaskIndex>{3, 0}));
    EXPECT_EQ(TaskSearch(t, "fwd").matches(), (std::vector<TaskIndex>{1, 3, 0, 5}));   // same start: by job id
    EXPECT_TRUE(TaskSearch(t, "pool").empty());
    EXPECT_TRUE(TaskSearch(t, "").empty());
    EXPECT_EQ(TaskSearch(t, " conv ").query(), "conv");
}

TEST(TaskSearch, JobIdsMatchExactly) {
    const auto t = trace();
    EXPECT_EQ(TaskSearch(t, "3").matches(), (std::vector<TaskIndex>{2}));
    EXPECT_EQ(TaskSearch(t, "#6").matches(), (std::vector<TaskIndex>{5}));
    EXPECT_EQ(TaskSearch(t, "Job 1").matches(), (std::vector<TaskIndex>{0}));
    EXPECT_TRUE(TaskSearch(t, "5").empty()) << "job 5 never ran";
    EXPECT_TRUE(TaskSearch(t, "42").empty());
    EXPECT_EQ(parseJobQuery("job #12"), 12u);
    EXPECT_FALSE(parseJobQuery("12a"));
    EXPECT_FALSE(parseJobQuery("job"));
    EXPECT_FALSE(parseJobQuery("-3"));
}

TEST(TaskSearch, NextAndPreviousStepThroughTheMatchesAndWrap) {
    const auto t = trace();
    const TaskSearch search(t, "conv");   // tasks 3 (t=100), 2 (t=200), 0 (t=300)
    // Nothing selected: from the view's start.
    EXPECT_EQ(search.next(t, std::nullopt, 0.0), 0u);
    EXPECT_EQ(search.next(t, std::nullopt, 150.0), 1u);
    EXPECT_EQ(search.next(t, std::nullopt, 301.0), 0u) << "wraps to the first";
    EXPECT_EQ(search.previous(t, std::nullopt, 250.0), 1u);
    EXPECT_EQ(search.previous(t, std::nullopt, 100.0), 2u) << "wraps to the last";
    // From a selected match, one step either way.
    EXPECT_EQ(search.next(t, TaskIndex{3}, 0.0), 1u);
    EXPECT_EQ(search.next(t, TaskIndex{2}, 0.0), 2u);
    EXPECT_EQ(search.next(t, TaskIndex{0}, 0.0), 0u);
    EXPECT_EQ(search.previous(t, TaskIndex{2}, 0.0), 0u);
    EXPECT_EQ(search.previous(t, TaskIndex{3}, 0.0), 2u);
    // From a selected task that is no match: the nearest match after or before it in time.
    EXPECT_EQ(search.next(t, TaskIndex{1}, 0.0), 0u);       // dense at 100 is job 2: before conv_fwd's job 4
    EXPECT_EQ(search.previous(t, TaskIndex{5}, 0.0), 2u);   // dense at 400
    EXPECT_EQ(search.positionOf(t, 2), 1u);
    EXPECT_FALSE(search.positionOf(t, 1));
    EXPECT_FALSE(search.positionOf(t, 99));
    // No match: nothing to step to.
    const TaskSearch none(t, "pool");
    EXPECT_FALSE(none.next(t, std::nullopt, 0.0));
    EXPECT_FALSE(none.previous(t, TaskIndex{0}, 0.0));
}
