#include "tests/tracer/tracer_test_support.hpp"

#include "tests/support/test_support.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/model/time_unit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <sstream>

namespace starscope::tracer::testing {

namespace fs = std::filesystem;

fs::path smallRun() { return starscope::testing::testDataDir() / "tracer" / "small"; }
fs::path smallProfFile() { return smallRun() / "prof_file__0"; }
fs::path smallPaje() { return smallRun() / "paje.trace"; }
fs::path goldenRun(const std::string& name) { return starscope::testing::testDataDir() / "tracer" / name; }

namespace {

struct WorkerTimes {
    TimeNs executing = 0;
    TimeNs sleeping = 0;
    TimeNs overhead = 0;
    TimeNs notProfiled = 0;
    TimeNs idle = 0;
    std::uint64_t tasks = 0;
};

// Per (rank, StarPU worker id), in nanoseconds whatever the trace's tick.
using WorkerKey = std::pair<std::int32_t, std::int32_t>;

std::string describe(const WorkerKey& key) {
    return (key.first >= 0 ? "rank " + std::to_string(key.first) + " " : std::string()) + "worker "
           + std::to_string(key.second);
}

std::map<WorkerKey, WorkerTimes> workerTimes(const Trace& trace) {
    std::map<WorkerKey, WorkerTimes> out;
    const std::int64_t perNs = ticksPerSecond(trace) / kNsPerSecond;
    for (const auto& lane : computeStats(trace).lanes) {
        const auto& l = trace.lanes[static_cast<std::size_t>(lane.lane)];
        if (l.isWorker()) {
            const auto& c = lane.classes;
            out[{l.rank, l.workerId}] = {c.executing / perNs, c.sleeping / perNs, c.overhead / perNs, c.notProfiled / perNs,
                               c.idle / perNs, lane.tasks};
        }
    }
    return out;
}

::testing::AssertionResult withinOnePercent(TimeNs ours, TimeNs tool) {
    // 1 us of slack: starpu_fxt_tool prints times rounded to the nanosecond.
    if (std::fabs(static_cast<double>(ours - tool)) <= 0.01 * static_cast<double>(tool) + 1000.0) {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "starscope " << ours << " ns, starpu_fxt_tool " << tool << " ns";
}

} // namespace

void expectSameWorkAsStarpuFxtTool(const Trace& ours, const Trace& tool) {
    const auto a = workerTimes(ours);
    const auto b = workerTimes(tool);
    ASSERT_FALSE(a.empty());
    const auto keys = [](const std::map<WorkerKey, WorkerTimes>& times) {
        std::string text;
        for (const auto& [key, t] : times) {
            text += " [" + describe(key) + "]";
        }
        return text;
    };
    ASSERT_EQ(a.size(), b.size()) << "starscope:" << keys(a) << "; starpu_fxt_tool:" << keys(b);
    for (const auto& [worker, o] : a) {
        ASSERT_TRUE(b.contains(worker)) << describe(worker) << " missing from starpu_fxt_tool's trace";
        const auto& t = b.at(worker);
        EXPECT_TRUE(withinOnePercent(o.executing, t.executing)) << describe(worker) << " executing";
        EXPECT_EQ(o.tasks, t.tasks) << describe(worker) << " executed tasks";
        if (o.notProfiled == 0) {
            EXPECT_TRUE(withinOnePercent(o.sleeping, t.sleeping)) << describe(worker) << " sleeping";
        } else {
            // starpu_fxt_tool draws the last state on through a stop, and nothing before the
            // first start: either way, that time is ours "Not profiled".
            EXPECT_LE(o.sleeping, t.sleeping + 1000) << describe(worker) << " sleeping";
            EXPECT_TRUE(withinOnePercent(o.sleeping + o.overhead + o.notProfiled + o.idle,
                                         t.sleeping + t.overhead + t.idle))
                << describe(worker) << ": all but executing";
        }
    }
}

std::size_t toolMessageLinks(const fs::path& paje) {
    std::istringstream in(starscope::testing::readFile(paje));
    std::map<std::string, std::size_t> typeField;   // StartLink event id -> position of its Type
    std::string current;                            // the StartLink definition being read
    std::size_t fields = 0;
    std::size_t links = 0;
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::vector<std::string> w;
        for (std::string word; words >> word;) {
            w.push_back(word);
        }
        if (w.empty()) {
            continue;
        }
        if (w[0] == "%EventDef") {
            current = w.size() >= 3 && w[1] == "PajeStartLink" ? w[2] : std::string();
            fields = 0;
        } else if (w[0] == "%" && w.size() >= 2) {
            if (!current.empty() && w[1] == "Type") {
                typeField[current] = fields + 1;
            }
            ++fields;
        } else if (w[0][0] != '%') {
            const auto it = typeField.find(w[0]);
            links += it != typeField.end() && it->second < w.size() && w[it->second] == "MPIL" ? 1U : 0U;
        }
    }
    return links;
}

void expectSameRanksAsStarpuFxtTool(const Trace& ours, const Trace& tool, const fs::path& paje, std::size_t ranks) {
    ASSERT_EQ(ours.ranks.size(), ranks);
    for (std::size_t r = 0; r < ranks; ++r) {
        EXPECT_EQ(ours.ranks[r].rank, static_cast<std::int32_t>(r));
        EXPECT_GE(ours.ranks[r].syncPoints, 1U) << "rank " << r << " has no StarPU-MPI sync point";
    }
    std::map<std::int32_t, std::size_t> workersPerRank;
    for (const auto& lane : ours.lanes) {
        EXPECT_GE(lane.rank, 0) << lane.name;
        workersPerRank[lane.rank] += lane.isWorker() ? 1U : 0U;
    }
    EXPECT_EQ(workersPerRank.size(), ranks);
    expectSameWorkAsStarpuFxtTool(ours, tool);
    const auto a = workerTimes(ours);
    const auto b = workerTimes(tool);
    for (const auto& [worker, o] : a) {
        if (const auto t = b.find(worker); t != b.end()) {
            std::cout << describe(worker) << ": executing " << o.executing << " ns (starpu_fxt_tool "
                      << t->second.executing << "), sleeping " << o.sleeping << " ns (starpu_fxt_tool "
                      << t->second.sleeping << ")\n";
        }
    }
    const auto differences = clockDifferences(ours, tool);
    EXPECT_EQ(differences.size(), ranks);
    for (const auto& [rank, difference] : differences) {
        EXPECT_LE(std::abs(difference), 10'000) << "rank " << rank << ": clock " << difference
                                                << " ns from starpu_fxt_tool's";
        std::cout << "rank " << rank << ": clock offset " << ours.rankInfo(rank)->clockOffset
                  << " ns, starscope - starpu_fxt_tool " << difference << " ns\n";
    }
    EXPECT_EQ(ours.messages.size(), toolMessageLinks(paje));
    EXPECT_GT(ours.messages.size(), 0U);
    for (const auto& m : ours.messages) {
        EXPECT_NE(m.fromRank, m.toRank);
        EXPECT_GE(m.fromLane, 0);
        EXPECT_GE(m.toLane, 0);
        EXPECT_LE(m.start, m.end);
    }
}

std::map<std::int32_t, TimeNs> clockDifferences(const Trace& ours, const Trace& tool) {
    const std::int64_t oursPerNs = ticksPerSecond(ours) / kNsPerSecond;
    const std::int64_t toolPerNs = ticksPerSecond(tool) / kNsPerSecond;
    std::map<std::uint64_t, TimeNs> toolStart;
    for (const auto& task : tool.tasks) {
        if (task.start >= 0) {
            toolStart.emplace(task.jobId, task.start / toolPerNs);
        }
    }
    std::map<std::int32_t, std::vector<TimeNs>> differences;
    for (const auto& task : ours.tasks) {
        const Lane* lane = ours.laneAt(task.lane);
        const auto it = toolStart.find(task.jobId);
        if (lane != nullptr && task.start >= 0 && it != toolStart.end()) {
            differences[lane->rank].push_back(task.start / oursPerNs - it->second);
        }
    }
    std::map<std::int32_t, TimeNs> out;
    for (auto& [rank, d] : differences) {
        std::nth_element(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(d.size() / 2), d.end());
        out[rank] = d[d.size() / 2];
    }
    return out;
}

StateTotals workerStateTotals(const Trace& trace) {
    StateTotals totals;
    for (const auto& lane : trace.lanes) {
        if (!lane.isWorker()) {
            continue;
        }
        for (std::size_t d = 0; d < lane.levels.size(); ++d) {
            for (const auto& span : lane.levels[d]) {
                totals[{lane.workerId, d, trace.states[span.state].name}] += span.duration();
            }
        }
    }
    return totals;
}

Trace makeTrace(const std::vector<LaneSpec>& lanes, TimeNs end) {
    Trace trace;
    std::uint64_t job = 1;
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        Lane lane;
        lane.name = lanes[i].name;
        lane.kind = lanes[i].kind;
        lane.workerId = lane.isWorker() ? static_cast<std::int32_t>(i) : -1;
        lane.levels.emplace_back();
        for (const auto& spec : lanes[i].spans) {
            StateClass cls = StateClass::Overhead;
            if (spec.state == kTraceFlushState) {
                cls = StateClass::Tracing;
            } else if (spec.state == kNotProfiledState) {
                cls = StateClass::NotProfiled;
            } else if (!lane.isWorker()) {
                cls = StateClass::User;
            } else if (spec.state == "Executing") {
                cls = StateClass::Executing;
            } else if (spec.state == "Sleeping") {
                cls = StateClass::Sleeping;
            }
            std::uint32_t state = 0;
            bool found = false;
            for (std::size_t s = 0; s < trace.states.size(); ++s) {
                if (trace.states[s].name == spec.state && trace.states[s].cls == cls) {
                    state = static_cast<std::uint32_t>(s);
                    found = true;
                }
            }
            if (!found) {
                trace.states.push_back(StateInfo{spec.state, cls});
                state = static_cast<std::uint32_t>(trace.states.size() - 1);
            }
            Span span{spec.start, spec.end, state, cls == StateClass::Executing};
            if (cls == StateClass::Executing) {
                Task task;
                task.jobId = job++;
                trace.setCodelet(task, trace.names.intern("work"), 0);
                task.start = spec.start;
                task.end = spec.end;
                task.lane = Trace::shortIndex(static_cast<std::int32_t>(i));
                trace.tasks.push_back(task);
            }
            lane.levels[0].push_back(span);
        }
        trace.lanes.push_back(std::move(lane));
    }
    trace.end = end;
    trace.indexTasks();
    return trace;
}

void addMarker(Trace& trace, TimeNs time, markers::Kind kind, int epoch, int batch) {
    trace.markers.push_back(trace.makeMarker(time, markers::Marker{kind, epoch, batch, -1, -1, {}}));
}

Trace regularLanes(std::size_t lanes, std::size_t spans, TimeNs period, std::uint32_t states) {
    Trace trace;
    for (std::uint32_t k = 0; k < states; ++k) {
        trace.states.push_back({"State " + std::to_string(k), k == 0 ? StateClass::Executing : StateClass::Sleeping});
    }
    for (std::size_t l = 0; l < lanes; ++l) {
        auto& lane = trace.lanes.emplace_back();
        lane.name = "CPU " + std::to_string(l);
        lane.workerId = static_cast<std::int32_t>(l);
        auto& level = lane.levels.emplace_back();
        level.reserve(spans);
        for (std::size_t i = 0; i < spans; ++i) {
            const auto t = period * static_cast<TimeNs>(i);
            level.emplace_back(t, t + period / 2, static_cast<std::uint32_t>(i % states));
        }
    }
    trace.end = period * static_cast<TimeNs>(spans);
    return trace;
}

} // namespace starscope::tracer::testing
