// Benchmark of the Paje reader against pj_dump (pajeng), the reference Paje reader, on two
// generated traces that once took quadratic time:
//  1. one worker lane with N states all at the same instant (codelet starts without job ids,
//     the case where starpu_fxt_tool's duplicated starts are looked for);
//  2. M worker containers with a few states each.
// Runs alternate (ours, then `pj_dump -q`, which reads and simulates without printing), several
// times; medians and their ratio are printed. Times are printed, never asserted.
//
// paje_bench [--runs N] [--states N] [--containers N] [--keep DIR]

#include "bench/tracer/bench_support.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/readers/paje/paje_reader.hpp"
#include "tracer/readers/read_trace.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace starscope::tracer;
using starscope::bench::Clock;
using starscope::bench::median;
using starscope::bench::seconds;
using starscope::bench::shell;

namespace {

// The exporter's event definitions, one of StarPU's it lacks (SetState 10: same-instant sets
// replace each other, where pushes would stack), and a program with one thread.
constexpr std::string_view kSetStateAndThread = R"(%EventDef PajeSetState 10
% Time date
% Container string
% Type string
% Value string
%EndEventDef
1 P 0 "Program"
1 T P "Thread"
1 W T "Worker"
3 WS W "Worker State"
7 0.000000 p P 0 "program"
7 0.000000 t0 T p "thread"
)";

void writeHeader(std::ofstream& out) {
    out << pajeEventDefinitions() << kSetStateAndThread;
}

void writeSameInstant(const fs::path& file, std::size_t states) {
    std::ofstream out(file, std::ios::binary);
    writeHeader(out);
    out << "7 0.000000 w0 W t0 CPU0\n";
    for (std::size_t i = 0; i < states; ++i) {
        out << "10 1.000000 w0 WS codelet_" << i % 16 << "\n";
    }
    out << "10 2.000000 w0 WS codelet_0\n8 3.000000 w0 W\n";
}

void writeManyContainers(const fs::path& file, std::size_t containers) {
    std::ofstream out(file, std::ios::binary);
    writeHeader(out);
    for (std::size_t i = 0; i < containers; ++i) {
        out << "7 0.000000 w" << i << " W t0 CPU" << i << "\n";
    }
    for (std::size_t i = 0; i < containers; ++i) {
        out << "10 1.000000 w" << i << " WS a\n10 1.500000 w" << i << " WS b\n";
    }
    for (std::size_t i = 0; i < containers; ++i) {
        out << "8 2.000000 w" << i << " W\n";
    }
}

// Returns false when a reader failed.
bool compare(const std::string& label, const fs::path& file, int runs, bool havePjDump) {
    std::printf("\n%s: %s (%.1f MB)\n", label.c_str(), file.c_str(),
                static_cast<double>(fs::file_size(file)) / 1e6);
    std::vector<double> ours;
    std::vector<double> reference;
    const std::string pjDump =
        "pj_dump -q '" + file.string() + "' > /dev/null 2> '" + file.string() + ".err'";
    for (int r = 0; r < runs; ++r) {
        auto start = Clock::now();
        const auto trace = readPaje(file);
        ours.push_back(seconds(start));
        if (!trace) {
            std::fprintf(stderr, "paje_bench: %s\n", trace.error().describe().c_str());
            return false;
        }
        std::printf("run %d: starscope %.3f s (%zu lanes, %zu spans)", r + 1, ours.back(),
                    trace->lanes.size(), trace->spanCount());
        if (havePjDump) {
            start = Clock::now();
            if (shell(pjDump) != 0) {
                std::fprintf(stderr, "\npaje_bench: pj_dump failed (see %s.err)\n", file.c_str());
                return false;
            }
            reference.push_back(seconds(start));
            std::printf(", pj_dump -q %.3f s", reference.back());
        }
        std::printf("\n");
    }
    std::printf("  starscope readPaje        median %.3f s\n", median(ours));
    if (havePjDump) {
        std::printf("  pj_dump -q                median %.3f s\n", median(reference));
        std::printf("  ratio (pj_dump/ours)      %.2f\n", median(reference) / median(ours));
    }
    return true;
}

} // namespace

int main(int argc, char** argv) {
    int runs = 5;
    std::size_t states = 1'000'000;
    std::size_t containers = 100'000;
    std::string keep;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        const std::string value = argv[i + 1];
        if (flag == "--runs") {
            runs = std::max(1, std::stoi(value));
        } else if (flag == "--states") {
            states = std::stoul(value);
        } else if (flag == "--containers") {
            containers = std::stoul(value);
        } else if (flag == "--keep") {
            keep = value;
        } else {
            std::fprintf(
                stderr,
                "usage: paje_bench [--runs N] [--states N] [--containers N] [--keep DIR]\n");
            return 2;
        }
    }
    const bool havePjDump = shell("command -v pj_dump > /dev/null 2>&1") == 0;
    if (!havePjDump) {
        std::printf("pj_dump not found (Debian package pajeng): only our reader is timed\n");
    }
    const fs::path dir = keep.empty() ? fs::temp_directory_path()
                                            / ("starscope-paje-bench-" + std::to_string(::getpid()))
                                      : fs::path(keep);
    fs::create_directories(dir);
    const auto sameInstant = dir / "same_instant.paje";
    const auto manyContainers = dir / "many_containers.paje";
    writeSameInstant(sameInstant, states);
    writeManyContainers(manyContainers, containers);
    const bool ok =
        compare(std::to_string(states) + " states at one instant on one lane", sameInstant, runs,
                havePjDump)
        && compare(std::to_string(containers) + " containers", manyContainers, runs, havePjDump);
    if (keep.empty()) {
        fs::remove_all(dir);
    }
    return ok ? 0 : 1;
}
