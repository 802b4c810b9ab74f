#include "viewer/core/drawing/palette.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <tuple>

using namespace starscope::viewer;
using starscope::tracer::StateClass;
using starscope::tracer::TimeNs;
using starscope::tracer::Trace;

namespace {

// A task of lane 0 (a worker) running from start to end.
starscope::tracer::Task task(Trace& trace, std::uint64_t job, starscope::tracer::NameId codelet, TimeNs start,
                             TimeNs end) {
    starscope::tracer::Task t;
    t.jobId = job;
    trace.setCodelet(t, codelet, 0);
    t.submit = 0;
    t.start = start;
    t.end = end;
    t.lane = 0;
    return t;
}

Trace traceWithStates() {
    Trace trace;
    trace.stateId("Executing", StateClass::Executing);     // 0
    trace.stateId("Sleeping", StateClass::Sleeping);       // 1
    trace.stateId("Scheduling", StateClass::Overhead);     // 2
    trace.stateId("FetchingInput", StateClass::Overhead);  // 3
    trace.stateId("Submitting", StateClass::User);         // 4
    trace.stateId("Waiting all tasks", StateClass::User);  // 5
    trace.stateId("Never used", StateClass::Overhead);     // 6
    starscope::tracer::Lane lane;
    lane.levels.push_back({{0, 10, 0, true}, {10, 20, 1},
                           {20, 30, 2}, {30, 40, 0, true},
                           {40, 50, 3}});
    trace.lanes.push_back(lane);
    starscope::tracer::Lane mainLane;
    mainLane.kind = starscope::tracer::LaneKind::MainThread;
    mainLane.levels.push_back({{0, 5, 4}, {5, 50, 5}});
    trace.lanes.push_back(mainLane);
    const auto a = trace.names.intern("gemm");
    const auto b = trace.names.intern("relu");
    trace.tasks.push_back(task(trace, 1, a, 0, 10));
    trace.tasks.push_back(task(trace, 2, b, 30, 40));
    trace.indexTasks();
    return trace;
}

bool isGrey(Rgb c) { return c.r == c.g && c.g == c.b; }

} // namespace

TEST(Palette, ColoursFollowStateClasses) {
    const Trace trace = traceWithStates();
    const Palette palette(trace);
    EXPECT_EQ(palette.stateColour(0), kExecutingGreen);
    EXPECT_EQ(palette.stateColour(1), kSleepingRed);
    EXPECT_TRUE(isGreenish(palette.stateColour(0)));
    EXPECT_TRUE(isReddish(palette.stateColour(1)));
    EXPECT_TRUE(isGrey(palette.stateColour(2)));
    // FetchingInput is waiting for data: its own colour, not the runtime's grey nor sleeping red.
    EXPECT_EQ(palette.stateColour(3), kWaitingForDataAmber);
    EXPECT_FALSE(isGrey(palette.stateColour(3)));
    EXPECT_FALSE(isReddish(palette.stateColour(3)));
    EXPECT_FALSE(isGreenish(palette.stateColour(3)));
    EXPECT_NE(palette.stateColour(2), palette.stateColour(3));
    // Main thread states are neither grey nor the worker colours, and differ from each other.
    for (std::uint32_t s : {4u, 5u}) {
        EXPECT_FALSE(isGrey(palette.stateColour(s)));
        EXPECT_FALSE(isGreenish(palette.stateColour(s)));
        EXPECT_FALSE(isReddish(palette.stateColour(s)));
    }
    EXPECT_NE(palette.stateColour(4), palette.stateColour(5));
}

TEST(Palette, EachCodeletGetsItsOwnGreen) {
    const Trace trace = traceWithStates();
    const Palette palette(trace);
    const auto gemm = palette.spanColour(trace, trace.lanes[0], trace.lanes[0].levels[0][0]);
    const auto relu = palette.spanColour(trace, trace.lanes[0], trace.lanes[0].levels[0][3]);
    EXPECT_NE(gemm, relu);
    EXPECT_TRUE(isGreenish(gemm));
    EXPECT_TRUE(isGreenish(relu));
    EXPECT_EQ(palette.spanColour(trace, trace.lanes[0], trace.lanes[0].levels[0][1]), kSleepingRed);
}

TEST(Palette, BlendWeighsColoursByTime) {
    const Trace trace = traceWithStates();
    const Palette palette(trace);
    std::vector<TimeNs> times(trace.states.size(), 0);
    times[0] = 30;
    EXPECT_EQ(palette.blend(times.data()), kExecutingGreen);
    times[1] = 30;
    const Rgb half = palette.blend(times.data());
    EXPECT_NEAR(half.r, (kExecutingGreen.r + kSleepingRed.r) / 2.0, 1.0);
    EXPECT_NEAR(half.g, (kExecutingGreen.g + kSleepingRed.g) / 2.0, 1.0);
    times[0] = 0;
    EXPECT_EQ(palette.blend(times.data()), kSleepingRed);
}

TEST(Palette, LegendListsUsedStatesAndFewCodeletsByName) {
    const Trace trace = traceWithStates();
    const Palette palette(trace);
    ASSERT_EQ(palette.legend().size(), 7u);
    EXPECT_EQ(palette.legend()[0].label, "gemm");
    EXPECT_EQ(palette.legend()[0].colour, palette.spanColour(trace, trace.lanes[0], trace.lanes[0].levels[0][0]));
    EXPECT_EQ(palette.legend()[1].label, "relu");
    EXPECT_EQ(palette.legend()[2].label, "Sleeping");
    EXPECT_EQ(palette.legend()[4].label, "Waiting for data");
    EXPECT_EQ(palette.legend()[4].colour, kWaitingForDataAmber);
    EXPECT_EQ(palette.legend()[6].label, "Waiting all tasks");
    for (const auto& entry : palette.legend()) {
        EXPECT_NE(entry.label, "Never used");
    }
}

// More codelets than shades: every codelet is still named, beside the shade it is drawn in,
// every shade is used before one is shared, and codelets that share a shade share its entry
// instead of repeating the colour.
TEST(Palette, ManyCodeletsAreAllNamedBesideTheirShade) {
    Trace trace = traceWithStates();
    for (int i = 0; i < 10; ++i) {
        const auto name = trace.names.intern("codelet" + std::to_string(i));
        trace.tasks.push_back(task(trace, static_cast<std::uint64_t>(10 + i), name, 0, 1));
    }
    trace.indexTasks();
    const Palette palette(trace);
    // 12 codelets over 6 shades, then Sleeping, Scheduling, FetchingInput, Submitting, Waiting all tasks.
    ASSERT_EQ(codeletShadeCount(), 6u);
    ASSERT_EQ(palette.legend().size(), 11u);
    EXPECT_EQ(palette.legend()[0].label.rfind("gemm", 0), 0u) << "the first codelet to run comes first";
    EXPECT_EQ(palette.legend()[0].colour, palette.spanColour(trace, trace.lanes[0], trace.lanes[0].levels[0][0]));
    std::set<std::string> named;
    for (std::size_t e = 0; e < 6; ++e) {
        const auto& entry = palette.legend()[e];
        EXPECT_TRUE(isGreenish(entry.colour)) << entry.label;
        // Each name of the entry is drawn in the entry's colour.
        std::size_t from = 0;
        while (from < entry.label.size()) {
            const auto to = std::min(entry.label.find(", ", from), entry.label.size());
            const std::string name = entry.label.substr(from, to - from);
            EXPECT_TRUE(named.insert(name).second) << name << " named twice";
            EXPECT_EQ(palette.codeletColour(name), entry.colour) << name;
            from = to + 2;
        }
    }
    EXPECT_EQ(named.size(), 12u);
    EXPECT_TRUE(named.contains("relu"));
    EXPECT_TRUE(named.contains("codelet9"));
}

// A codelet's colour follows its name, not where its first task comes: two traces of one
// program whose codelets appear in other orders draw each codelet alike.
TEST(Palette, ACodeletHasOneColourWhateverOrderItsTasksComeIn) {
    const std::vector<std::string> names{"conv_fwd", "conv_bwd", "dense_fwd", "dense_bwd", "sgd"};
    const auto traceOf = [&](const std::vector<std::string>& order) {
        Trace trace = traceWithStates();
        for (const auto& name : order) {
            trace.tasks.push_back(task(trace, 10 + trace.tasks.size(), trace.names.intern(name), 0, 1));
        }
        trace.indexTasks();
        return trace;
    };
    const Trace forward = traceOf(names);
    const Trace backward = traceOf({names.rbegin(), names.rend()});
    const Palette a(forward);
    const Palette b(backward);
    std::set<std::tuple<int, int, int>> distinct;
    for (const auto& name : names) {
        EXPECT_EQ(a.codeletColour(name), b.codeletColour(name)) << name;
        EXPECT_TRUE(isGreenish(a.codeletColour(name))) << name;
        distinct.insert({a.codeletColour(name).r, a.codeletColour(name).g, a.codeletColour(name).b});
    }
    // With gemm and relu, 7 codelets over 6 shades: all shades used, so at least 5 of ours apart.
    EXPECT_GE(distinct.size(), names.size() - 1);
    // Each task is drawn in its codelet's colour.
    for (const Trace* trace : {&forward, &backward}) {
        const Palette palette(*trace);
        for (std::size_t t = 0; t < trace->tasks.size(); ++t) {
            starscope::tracer::Lane lane;
            lane.levels.push_back({{trace->tasks[t].start, trace->tasks[t].end, 0, true}});
            lane.tasks.push_back(static_cast<starscope::tracer::TaskIndex>(t));
            EXPECT_EQ(palette.spanColour(*trace, lane, lane.levels[0][0]),
                      palette.codeletColour(trace->codeletOf(trace->tasks[t])));
        }
    }
}

// The key lists codelets in the order of their first tasks however the trace numbers its codelet
// keys (here against the tasks' order, a key no task uses among them, one naming no codelet,
// and StarPU's own codelet), as it does once indexTasks numbered them in that order; each task
// is drawn in its codelet's colour, a task of no codelet in the executing green.
TEST(Palette, CodeletsListedByFirstTaskWhateverTheirKeysNumbers) {
    Trace trace = traceWithStates();
    trace.tasks.clear();
    trace.codeletKeys = {};
    const std::vector<std::string> names{"sgd", "conv_fwd", "_starpu_data_acquire_post", "dense_bwd", "unused"};
    std::vector<starscope::tracer::NameId> ids;
    for (const auto& name : names) {
        ids.push_back(trace.names.intern(name));
    }
    // Keys numbered in the names' order, from last to first, and one with no codelet.
    for (auto it = ids.rbegin(); it != ids.rend(); ++it) {
        static_cast<void>(trace.codeletKeys.intern({*it, 7}));
    }
    static_cast<void>(trace.codeletKeys.intern({starscope::tracer::kNoName, 3}));
    const auto taskOf = [&](std::uint64_t job, std::size_t codelet) {
        auto t = task(trace, job, codelet < ids.size() ? ids[codelet] : starscope::tracer::kNoName, 0, 1);
        trace.setCodelet(t, codelet < ids.size() ? ids[codelet] : starscope::tracer::kNoName, codelet < ids.size() ? 7 : 3);
        return t;
    };
    for (const std::size_t codelet : std::vector<std::size_t>{3, 5, 0, 3, 2, 1, 0, 3}) {
        trace.tasks.push_back(taskOf(trace.tasks.size() + 1, codelet));
    }
    for (auto& lane : trace.lanes) {
        lane.tasks.clear();
    }
    const Palette palette(trace);
    Trace numbered = trace;
    numbered.indexTasks();
    EXPECT_NE(numbered.codeletKeys, trace.codeletKeys);
    EXPECT_EQ(palette.legend(), Palette(numbered).legend());
    ASSERT_GE(palette.legend().size(), 4u);
    EXPECT_EQ(palette.legend()[0].label, "dense_bwd");
    EXPECT_EQ(palette.legend()[1].label, "sgd");
    EXPECT_EQ(palette.legend()[2].label, "conv_fwd");
    EXPECT_EQ(palette.legend()[3].label, std::string(kStarpuTasksLabel));
    for (std::size_t t = 0; t < trace.tasks.size(); ++t) {
        starscope::tracer::Lane lane;
        lane.levels.push_back({{trace.tasks[t].start, trace.tasks[t].end, 0, true}});
        lane.tasks.push_back(static_cast<starscope::tracer::TaskIndex>(t));
        const auto codelet = trace.codeletOf(trace.tasks[t]);
        EXPECT_EQ(palette.spanColour(trace, lane, lane.levels[0][0]),
                  codelet.empty() ? kExecutingGreen : palette.codeletColour(codelet)) << "task " << t;
    }
}

// The codelets given to CodeletShades get distinct shades while there are shades; one keeps its
// hashed shade unless a codelet before it in name order hashed alike, so most keep their colour
// in a trace that runs other codelets besides; the same set in any order gives the same shades.
TEST(Palette, CodeletShadesAreDistinctAndFollowNamesNotOrder) {
    const std::vector<std::string> lu{"lu_model_11", "lu_model_12", "lu_model_21", "lu_model_22"};
    const CodeletShades alone(lu);
    std::set<std::size_t> used;
    for (const auto& name : lu) {
        used.insert(alone.shadeIndexOf(name));
    }
    EXPECT_EQ(used.size(), lu.size()) << "two codelets of one trace share a shade";
    const std::vector<std::string> six{"a", "b", "c", "d", "e", "f"};
    std::set<std::size_t> all;
    for (const auto& name : six) {
        all.insert(CodeletShades(six).shadeIndexOf(name));
    }
    EXPECT_EQ(all.size(), codeletShadeCount()) << "as many codelets as shades: every shade used";
    std::vector<std::string> reversed(six.rbegin(), six.rend());
    reversed.push_back("a");   // repeats change nothing
    EXPECT_EQ(CodeletShades(reversed), CodeletShades(six));
    // Neighbouring shades (where a collision moves a codelet) read apart.
    for (std::size_t i = 0; i < codeletShadeCount(); ++i) {
        const Rgb x = codeletShade(i);
        const Rgb y = codeletShade(i + 1);
        const int distance = std::abs(x.r - y.r) + std::abs(x.g - y.g) + std::abs(x.b - y.b);
        EXPECT_GE(distance, 60) << "shades " << i << " and " << i + 1;
    }
}

// The colour key of a StarPU trace: Idle and Sleeping are both the sleeping red and share one
// entry, a state used on several lanes is listed once, "Not profiled" has its own.
TEST(Palette, LegendHasOneEntryPerColourAndNoRepeatedName) {
    Trace trace = traceWithStates();
    const auto idle = trace.stateId("Idle", StateClass::Sleeping);
    const auto notProfiled = trace.stateId(starscope::tracer::kNotProfiledState, StateClass::NotProfiled);
    starscope::tracer::Lane second;
    second.levels.push_back({{0, 10, 2}, {10, 20, idle},
                             {20, 30, 1}, {30, 40, notProfiled}});
    trace.lanes.push_back(second);
    const Palette palette(trace);
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < palette.legend().size(); ++i) {
        const auto& entry = palette.legend()[i];
        labels.push_back(entry.label);
        for (std::size_t j = 0; j < i; ++j) {
            EXPECT_NE(palette.legend()[j].colour, entry.colour) << palette.legend()[j].label << " and " << entry.label;
            EXPECT_NE(palette.legend()[j].label, entry.label);
        }
    }
    EXPECT_NE(std::find(labels.begin(), labels.end(), "Sleeping / Idle"), labels.end());
    EXPECT_EQ(std::count(labels.begin(), labels.end(), "Scheduling"), 1);
    EXPECT_NE(std::find(labels.begin(), labels.end(), "Not profiled"), labels.end());
    EXPECT_EQ(palette.legend().back().colour, kNotProfiledGrey);
    EXPECT_NE(std::find(labels.begin(), labels.end(), "gemm"), labels.end());
    EXPECT_NE(std::find(labels.begin(), labels.end(), "relu"), labels.end());
}

// StarPU's own tasks (_starpu*) never share a colour or a key entry with the program's
// codelets, even where a shade cycle would have given them one: the first codelet to run is
// StarPU's here, and the program has more codelets than shades.
TEST(Palette, StarpusOwnTasksHaveOneColourAndEntryApartFromTheProgramsCodelets) {
    Trace trace = traceWithStates();
    const auto acquire = trace.names.intern("_starpu_data_acquire_post");
    const auto release = trace.names.intern("_starpu_data_acquire_cb_release");
    trace.tasks.insert(trace.tasks.begin(), task(trace, 0, acquire, 0, 1));
    trace.tasks.push_back(task(trace, 3, release, 2, 3));
    for (int i = 0; i < 8; ++i) {
        trace.tasks.push_back(task(trace, static_cast<std::uint64_t>(10 + i), trace.names.intern("codelet" + std::to_string(i)), 0, 1));
    }
    trace.indexTasks();
    const Palette palette(trace);
    std::vector<Rgb> program;
    std::vector<Rgb> internal;
    for (std::size_t t = 0; t < trace.tasks.size(); ++t) {
        starscope::tracer::Lane lane;
        lane.levels.push_back({{trace.tasks[t].start, trace.tasks[t].end, 0, true}});
        lane.tasks.push_back(static_cast<starscope::tracer::TaskIndex>(t));
        const Rgb colour = palette.spanColour(trace, lane, lane.levels[0][0]);
        (std::string(trace.codeletOf(trace.tasks[t])).starts_with("_starpu") ? internal : program).push_back(colour);
    }
    ASSERT_EQ(internal.size(), 2u);
    ASSERT_EQ(program.size(), 10u);
    EXPECT_EQ(internal[0], kStarpuTaskMint);
    EXPECT_EQ(internal[1], kStarpuTaskMint);
    for (const Rgb colour : program) {
        EXPECT_NE(colour, kStarpuTaskMint);
        EXPECT_TRUE(isGreenish(colour));
    }
    std::size_t internalEntries = 0;
    for (const auto& entry : palette.legend()) {
        if (entry.colour == kStarpuTaskMint) {
            ++internalEntries;
            EXPECT_EQ(entry.label, kStarpuTasksLabel);
        }
        // No program codelet's entry names StarPU's, nor StarPU's a program codelet.
        EXPECT_EQ(entry.colour == kStarpuTaskMint, entry.label.find("_starpu") != std::string::npos) << entry.label;
    }
    EXPECT_EQ(internalEntries, 1u);
}
