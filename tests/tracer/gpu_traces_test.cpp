// StarPU's own examples (cholesky, sgemm, LU) on simulated GPU machines (StarPU built against
// SimGrid, taking durations from the performance models of real machines it ships), recorded
// by scripts/record_gpu_traces.sh and read from the prof file and from starpu_fxt_tool's
// paje.trace: the same workers (CUDA ones included, the CUDA driver threads none), per worker
// executing time and task count, per codelet task count, memory nodes and transfers. Skipped
// without the SimGrid build (scripts/build_starpu.sh --simgrid); CI's GPU leg has it.

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/machine.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/report/duration_format.hpp"
#include "tracer/run/run_figures.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace starscope::tracer {
namespace {

namespace fs = std::filesystem;
using testing::expectSameWorkAsStarpuFxtTool;

// What record_gpu_traces.sh records: the machines with their CUDA GPUs, and the examples.
struct Machine {
    const char* name;
    std::size_t gpus;
};
constexpr Machine kMachines[] = {{"mirage", 3}, {"sirocco", 4}, {"idgraf", 8}};
// One example on one machine; printed so in CTest's test names (GoogleTest would print bytes).
struct Case {
    Machine machine;
    const char* example;
};
void PrintTo(const Case& c, std::ostream* out) { *out << c.machine.name << " " << c.example; }
constexpr const char* kExamples[] = {"cholesky_implicit", "sgemm", "lu_implicit_example_float"};

// Count and bytes of the transfers from one memory node to another.
using LinkTotals = std::map<std::pair<std::int32_t, std::int32_t>, std::pair<std::size_t, std::uint64_t>>;

LinkTotals linkTotals(const Trace& trace) {
    LinkTotals out;
    for (const auto& x : trace.transfers) {
        auto& t = out[{x.fromNode, x.toNode}];
        ++t.first;
        t.second += x.size;
    }
    return out;
}

// The transfers starpu_fxt_tool wrote, read from its file without our Paje reader: its link
// starts (event 24: date, type F/TF/PF/IF, program, size, source "mm<n>", key) and ends (19:
// date, type, program, size, destination "mm<n>", key), paired by key.
LinkTotals toolLinkTotals(const fs::path& paje) {
    std::ifstream in(paje);
    std::map<std::string, std::pair<std::int32_t, std::uint64_t>> started; // key -> source, size
    std::map<std::string, std::int32_t> ended;                             // key -> destination
    const auto node = [](const std::string& container) { return std::stoi(container.substr(container.find("mm") + 2)); };
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string code, date, type, program, size, container, key;
        if (!(words >> code >> date >> type >> program >> size >> container >> key)) {
            continue;
        }
        if (type != "F" && type != "TF" && type != "PF" && type != "IF") {
            continue;
        }
        if (code == "24") {
            started[key] = {node(container), std::stoull(size)};
        } else if (code == "19") {
            ended[key] = node(container);
        }
    }
    LinkTotals out;
    for (const auto& [key, from] : started) {
        if (const auto to = ended.find(key); to != ended.end()) {
            auto& t = out[{from.first, to->second}];
            ++t.first;
            t.second += from.second;
        }
    }
    return out;
}

// Time per (lane, state) on the memory-node lanes, every level.
std::map<std::string, TimeNs> memoryNodeStates(const Trace& trace) {
    std::map<std::string, TimeNs> out;
    for (const auto& lane : trace.lanes) {
        if (lane.kind == LaneKind::MemoryNode) {
            for (const auto& level : lane.levels) {
                for (const auto& span : level) {
                    out[lane.name + " " + trace.stateOf(span).name] += span.duration();
                }
            }
        }
    }
    return out;
}

std::map<std::string, std::size_t> tasksPerCodelet(const Trace& trace) {
    std::map<std::string, std::size_t> out;
    for (const auto& task : trace.tasks) {
        if (task.start >= 0) {
            ++out[std::string(trace.codeletOf(task))];
        }
    }
    return out;
}

std::string linkText(const LinkTotals& links) {
    std::string out;
    for (const auto& [nodes, t] : links) {
        out += " " + std::to_string(nodes.first) + "->" + std::to_string(nodes.second) + ":" + std::to_string(t.first)
               + "/" + std::to_string(t.second) + "B";
    }
    return out;
}

// Each test records its machine's example with the script (well under a second: CTest runs
// every test in a process of its own).
class GpuTraces : public ::testing::TestWithParam<Case> {
protected:
    void SetUp() override {
        const auto recorded =
            starscope::testing::recordGpuExample(m_dir.path(), GetParam().machine.name, GetParam().example);
        if (recorded.skipped) {
            GTEST_SKIP() << recorded.log;
        }
        ASSERT_TRUE(recorded.ok) << recorded.log;
        m_run = recorded.run;
    }
    starscope::testing::TempDir m_dir;
    fs::path m_run;
};

TEST_P(GpuTraces, ProfFileAndPajeShowTheSameMachineAsStarpuFxtTool) {
    const auto fxt = readTrace(m_run / "prof_file__0");
    const auto paje = readTrace(m_run / "paje.trace");
    ASSERT_TRUE(fxt) << fxt.error().describe();
    ASSERT_TRUE(paje) << paje.error().describe();

    // The same workers and lanes: CUDA workers named as users name them, their driver threads no
    // workers, a lane per memory node that did something.
    std::map<std::int32_t, const Lane*> pajeWorkers;
    for (const auto& lane : paje->lanes) {
        if (lane.isWorker()) {
            pajeWorkers[lane.workerId] = &lane;
        }
    }
    std::size_t cuda = 0;
    std::size_t workers = 0;
    for (const auto& lane : fxt->lanes) {
        if (!lane.isWorker()) {
            continue;
        }
        ++workers;
        cuda += lane.kind == LaneKind::CudaWorker ? 1U : 0U;
        ASSERT_TRUE(pajeWorkers.contains(lane.workerId)) << lane.name << " not in the Paje trace";
        EXPECT_EQ(pajeWorkers[lane.workerId]->name, lane.name);
        EXPECT_EQ(pajeWorkers[lane.workerId]->kind, lane.kind);
        EXPECT_EQ(pajeWorkers[lane.workerId]->memoryNode, lane.memoryNode);
    }
    EXPECT_EQ(workers, pajeWorkers.size());
    EXPECT_EQ(cuda, GetParam().machine.gpus);
    EXPECT_FALSE(memoryNodeStates(*fxt).empty());
    EXPECT_EQ(memoryNodeStates(*fxt), memoryNodeStates(*paje));

    // Per worker executing time and task count; per codelet task count.
    expectSameWorkAsStarpuFxtTool(*fxt, *paje);
    EXPECT_EQ(tasksPerCodelet(*fxt), tasksPerCodelet(*paje));

    // Transfers: count and bytes per pair of nodes, from each reader and from the tool's links.
    const auto tool = toolLinkTotals(m_run / "paje.trace");
    EXPECT_FALSE(tool.empty());
    EXPECT_EQ(linkTotals(*fxt), tool);
    EXPECT_EQ(linkTotals(*paje), tool);

    const auto summary = summarize(*fxt);
    const auto machine = machineFigures(*fxt, computeStats(*fxt));
    ASSERT_TRUE(machine.areaBound.value) << machine.areaBound.reason;
    std::cout << GetParam().machine.name << " " << GetParam().example << ": " << workers << " workers (" << cuda
              << " CUDA), tasks " << summary.tasks << ", makespan " << formatDuration(summary.makespan)
              << ", area bound " << formatDuration(machine.areaBound.value->bound) << " by kind, "
              << formatDuration(summary.areaBound) << " homogeneous\n  transfers (starscope):" << linkText(linkTotals(*fxt))
              << "\n  transfers (starpu_fxt_tool):" << linkText(tool) << "\n";
    for (const auto& k : machine.kinds) {
        std::cout << "  " << (k.kind == LaneKind::CudaWorker ? "CUDA" : "CPU") << ": " << k.workers << " workers, "
                  << k.tasks << " tasks, executing " << formatDuration(k.times.executing) << ", waiting for data "
                  << formatDuration(k.waitingForData) << ", idleness " << (k.idleness ? std::to_string(*k.idleness) : std::string("n/a")) << "\n";
    }
}

// The bound is a bound: the recorded schedule is one the linear program allows.
TEST_P(GpuTraces, TheAreaBoundByKindOfWorkerIsAtMostTheMakespan) {
    const auto fxt = readTrace(m_run / "prof_file__0");
    ASSERT_TRUE(fxt) << fxt.error().describe();
    const auto summary = summarize(*fxt);
    const auto machine = machineFigures(*fxt, computeStats(*fxt));
    ASSERT_TRUE(machine.heterogeneous());
    ASSERT_TRUE(machine.areaBound.value) << machine.areaBound.reason;
    EXPECT_GT(machine.areaBound.value->bound, 0);
    EXPECT_LE(machine.areaBound.value->bound, summary.makespan);
    double tasks = 0.0;
    for (const auto& share : machine.areaBound.value->shares) {
        tasks += share.tasks;
    }
    EXPECT_NEAR(tasks, static_cast<double>(summary.tasks), 1e-6);
}

// A transfer's task, when the trace tells it, accessed the copied data on the transfer's
// destination node, after the copy started; copies into a GPU are for a task.
TEST_P(GpuTraces, TransfersNameTheTaskThatNeededTheirData) {
    const auto fxt = readTrace(m_run / "prof_file__0");
    ASSERT_TRUE(fxt) << fxt.error().describe();
    std::size_t toGpus = 0;
    std::size_t named = 0;
    std::size_t namedToGpus = 0;
    for (const auto& x : fxt->transfers) {
        toGpus += x.toNode != 0 ? 1U : 0U;
        if (x.job == 0) {
            continue;
        }
        ++named;
        namedToGpus += x.toNode != 0 ? 1U : 0U;
        const auto task = std::lower_bound(fxt->tasks.begin(), fxt->tasks.end(), x.job,
                                           [](const Task& t, std::uint64_t job) { return t.jobId < job; });
        ASSERT_NE(task, fxt->tasks.end());
        ASSERT_EQ(task->jobId, x.job);
        EXPECT_EQ(fxt->laneAt(task->lane)->memoryNode, x.toNode);
        EXPECT_GE(task->start, x.start);
    }
    std::cout << named << " of " << fxt->transfers.size() << " transfers name their task, " << namedToGpus << " of the "
              << toGpus << " into a GPU\n";
    EXPECT_GT(named, 0U);
    // RAM is node 0 on these machines: what goes back there may be a write-back no task needed.
    EXPECT_EQ(namedToGpus, toGpus);
}

// Our Paje export keeps the machine: its memory nodes' states, its transfers, its figures.
TEST_P(GpuTraces, ThePajeExportKeepsTheMachine) {
    const auto fxt = readTrace(m_run / "prof_file__0");
    ASSERT_TRUE(fxt) << fxt.error().describe();
    {
        std::ofstream out(m_dir / "ours.paje");
        writePaje(*fxt, out);
    }
    const auto back = readTrace(m_dir / "ours.paje");
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(memoryNodeStates(*back), memoryNodeStates(*fxt));
    EXPECT_EQ(linkTotals(*back), linkTotals(*fxt));
    const auto ours = machineFigures(*fxt, computeStats(*fxt));
    const auto again = machineFigures(*back, computeStats(*back));
    EXPECT_EQ(again.links, ours.links);
    ASSERT_EQ(again.kinds.size(), ours.kinds.size());
    for (std::size_t k = 0; k < ours.kinds.size(); ++k) {
        EXPECT_EQ(again.kinds[k].times.executing, ours.kinds[k].times.executing);
        EXPECT_EQ(again.kinds[k].tasks, ours.kinds[k].tasks);
    }
}

// `compare` shows the same figures of the machine as `stats`.
TEST_P(GpuTraces, TheRunFiguresCarryTheMachinesFigures) {
    const auto fxt = readTrace(m_run / "prof_file__0");
    ASSERT_TRUE(fxt) << fxt.error().describe();
    const auto run = run::measureRun(*fxt, m_run, 100'000);
    const auto machine = machineFigures(*fxt, computeStats(*fxt));
    ASSERT_EQ(machine.kinds.size(), 2U);
    ASSERT_TRUE(run.cudaIdleness.value) << run.cudaIdleness.reason;
    EXPECT_DOUBLE_EQ(*run.cudaIdleness.value, *machine.kinds[1].idleness);
    ASSERT_TRUE(run.waitingForDataNs.value);
    EXPECT_DOUBLE_EQ(*run.waitingForDataNs.value, static_cast<double>(machine.waitingForData));
    double bytes = 0.0;
    for (const auto& x : fxt->transfers) {
        bytes += static_cast<double>(x.size);
    }
    ASSERT_TRUE(run.transferBytes.value);
    EXPECT_DOUBLE_EQ(*run.transferBytes.value, bytes);
    ASSERT_TRUE(run.areaBoundByKindRatio.value) << run.areaBoundByKindRatio.reason;
    EXPECT_GT(*run.areaBoundByKindRatio.value, 0.0);
    EXPECT_LE(*run.areaBoundByKindRatio.value, 1.0);
}

std::vector<Case> cases() {
    std::vector<Case> out;
    for (const auto& m : kMachines) {
        for (const auto* e : kExamples) {
            out.push_back({m, e});
        }
    }
    return out;
}

INSTANTIATE_TEST_SUITE_P(SimulatedMachines, GpuTraces, ::testing::ValuesIn(cases()), [](const auto& param) {
    return std::string(param.param.machine.name) + "_" + param.param.example;
});

} // namespace
} // namespace starscope::tracer
