// Arena allocation against malloc/free and std::pmr::monotonic_buffer_resource, the cost of a
// reset that unregisters 10,000 tracked StarPU handles (blocking and deferred), and the cost
// of a trace marker with FxT off.
//
// Runs each benchmark several times, interleaved in random order (Google Benchmark's
// random interleaving), then prints the median of each and the ratios against the arena.
// Targets: arena <= 10 ns median per allocation and >= 5x faster than malloc/free.
// Usage: starscope_runtime_bench [--repetitions N] [any --benchmark_* flag]

#include "runtime/arena.hpp"
#include "runtime/trace_markers.hpp"

#include <benchmark/benchmark.h>
#include <starpu.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory_resource>
#include <string>
#include <vector>

using starscope::runtime::Arena;
using starscope::runtime::ArenaOptions;

namespace {

// Sizes of a batch's small tensors and temporaries: 16 B to 1 KiB, in a fixed pseudo-random
// order so that no allocator sees one constant size.
constexpr std::size_t kSizes = 64;
const std::array<std::size_t, kSizes>& sizes() {
    static const std::array<std::size_t, kSizes> table = [] {
        std::array<std::size_t, kSizes> values{};
        std::uint32_t state = 12345;
        for (auto& v : values) {
            state = state * 1664525U + 1013904223U;
            v = 16 + (state >> 8U) % 1009U;
        }
        return values;
    }();
    return table;
}

// Allocations between two resets / releases: a batch's worth.
constexpr std::size_t kPerBatch = 4096;

void BM_ArenaAllocate(benchmark::State& state) {
    ArenaOptions options;
    options.firstBlockBytes = 8 << 20;
    options.traceMarkers = false;
    Arena arena("bench", options);
    const auto& table = sizes();
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(arena.allocate(table[i % kSizes]));
        if (++i == kPerBatch) [[unlikely]] {
            arena.reset();
            i = 0;
        }
    }
}
BENCHMARK(BM_ArenaAllocate);

void BM_MallocFree(benchmark::State& state) {
    const auto& table = sizes();
    std::size_t i = 0;
    for (auto _ : state) {
        void* p = std::malloc(table[i++ % kSizes]);
        benchmark::DoNotOptimize(p);
        std::free(p);
    }
}
BENCHMARK(BM_MallocFree);

// malloc with the arena's lifetime: a batch of allocations, then all of them freed.
void BM_MallocBatchThenFree(benchmark::State& state) {
    const auto& table = sizes();
    std::vector<void*> live(kPerBatch);
    std::size_t i = 0;
    for (auto _ : state) {
        live[i] = std::malloc(table[i % kSizes]);
        benchmark::DoNotOptimize(live[i]);
        if (++i == kPerBatch) [[unlikely]] {
            for (void* p : live) {
                std::free(p);
            }
            i = 0;
        }
    }
    for (std::size_t k = 0; k < i; ++k) {
        std::free(live[k]);
    }
}
BENCHMARK(BM_MallocBatchThenFree);

void BM_PmrMonotonic(benchmark::State& state) {
    std::pmr::monotonic_buffer_resource resource(8 << 20);
    const auto& table = sizes();
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(resource.allocate(table[i % kSizes], 64));
        if (++i == kPerBatch) [[unlikely]] {
            resource.release();
            i = 0;
        }
    }
}
BENCHMARK(BM_PmrMonotonic);

constexpr std::size_t kHandles = 10000;

void registerHandles(Arena& arena) {
    for (std::size_t h = 0; h < kHandles; ++h) {
        auto vector = arena.allocateVector<float>(16);
        if (!vector) {
            std::fprintf(stderr, "%s\n", vector.error().message.c_str());
            std::abort();
        }
    }
}

void BM_ResetBlocking10kHandles(benchmark::State& state) {
    ArenaOptions options;
    options.traceMarkers = false;
    Arena arena("bench_reset", options);
    for (auto _ : state) {
        state.PauseTiming();
        registerHandles(arena);
        state.ResumeTiming();
        arena.reset();
    }
}
BENCHMARK(BM_ResetBlocking10kHandles)->Unit(benchmark::kMillisecond)->Iterations(20);

void BM_ResetDeferred10kHandles(benchmark::State& state) {
    ArenaOptions options;
    options.traceMarkers = false;
    Arena arena("bench_deferred", options);
    for (auto _ : state) {
        state.PauseTiming();
        arena.waitDeferred();
        registerHandles(arena);
        state.ResumeTiming();
        arena.resetDeferred();
    }
    arena.waitDeferred();
}
BENCHMARK(BM_ResetDeferred10kHandles)->Unit(benchmark::kMillisecond)->Iterations(20);

void BM_MarkerWithFxtOff(benchmark::State& state) {
    std::int64_t batch = 0;
    for (auto _ : state) {
        starscope::runtime::markBatch(starscope::markers::Kind::BatchBegin, 0, batch++, 1);
    }
}
BENCHMARK(BM_MarkerWithFxtOff);

// Keeps every repetition's time per iteration, in nanoseconds, by benchmark name.
class MedianReporter : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& reports) override {
        for (const auto& run : reports) {
            if (run.run_type == Run::RT_Iteration && !run.error_occurred) {
                const double scale = 1e9 / benchmark::GetTimeUnitMultiplier(run.time_unit);
                m_samples[run.run_name.function_name].push_back(run.GetAdjustedRealTime() * scale);
                m_cpuSamples[run.run_name.function_name].push_back(run.GetAdjustedCPUTime() * scale);
            }
        }
        ConsoleReporter::ReportRuns(reports);
    }

    double median(const std::string& name) const { return medianOf(m_samples, name); }
    double cpuMedian(const std::string& name) const { return medianOf(m_cpuSamples, name); }
    std::size_t count(const std::string& name) const {
        const auto it = m_samples.find(name);
        return it == m_samples.end() ? 0 : it->second.size();
    }

private:
    using Samples = std::map<std::string, std::vector<double>>;
    static double medianOf(const Samples& samples, const std::string& name) {
        const auto it = samples.find(name);
        if (it == samples.end() || it->second.empty()) {
            return 0;
        }
        auto values = it->second;
        std::sort(values.begin(), values.end());
        const std::size_t n = values.size();
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    Samples m_samples;
    Samples m_cpuSamples;
};

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv, argv + argc);
    std::string repetitions = "9";
    std::vector<std::string> forwarded = {args[0]};
    for (std::size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--repetitions" && i + 1 < args.size()) {
            repetitions = args[++i];
        } else {
            forwarded.push_back(args[i]);
        }
    }
    forwarded.push_back("--benchmark_repetitions=" + repetitions);
    forwarded.push_back("--benchmark_enable_random_interleaving=true");
    forwarded.push_back("--benchmark_report_aggregates_only=false");
    std::vector<char*> cargs;
    for (auto& a : forwarded) {
        cargs.push_back(a.data());
    }
    int cargc = static_cast<int>(cargs.size());
    benchmark::Initialize(&cargc, cargs.data());

    ::setenv("STARPU_NCPU", "1", 0);
    ::setenv("STARPU_FXT_TRACE", "0", 0);
    ::setenv("STARPU_SILENT", "1", 0);
    ::setenv("STARPU_WORKERS_NOBIND", "1", 0);
    if (starpu_init(nullptr) != 0) {
        std::fprintf(stderr, "starscope_runtime_bench: starpu_init failed\n");
        return 1;
    }
    MedianReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    starpu_shutdown();

    struct Line {
        const char* label;
        const char* name;
    };
    const std::array<Line, 7> lines = {{
        {"arena allocate", "BM_ArenaAllocate"},
        {"malloc + free", "BM_MallocFree"},
        {"malloc batch, then free", "BM_MallocBatchThenFree"},
        {"pmr monotonic allocate", "BM_PmrMonotonic"},
        {"marker with FxT off", "BM_MarkerWithFxtOff"},
        {"blocking reset, 10k handles", "BM_ResetBlocking10kHandles"},
        {"deferred reset, 10k handles", "BM_ResetDeferred10kHandles"},
    }};
    std::printf("\nMedians over %zu interleaved repetitions, per operation (wall clock | CPU):\n",
                reporter.count("BM_ArenaAllocate"));
    for (const auto& line : lines) {
        const double real = reporter.median(line.name);
        const double cpu = reporter.cpuMedian(line.name);
        if (real >= 1e5) {
            std::printf("  %-28s %10.3f ms | %10.3f ms  (%.0f ns per handle)\n", line.label,
                        real / 1e6, cpu / 1e6, real / static_cast<double>(kHandles));
        } else {
            std::printf("  %-28s %10.2f ns | %10.2f ns\n", line.label, real, cpu);
        }
    }
    const auto ratios = [&](const char* what, auto get) {
        const double arena = get("BM_ArenaAllocate");
        if (arena <= 0) {
            return;
        }
        const double mallocFree = get("BM_MallocFree");
        std::printf("Ratios (%s, other / arena): malloc+free %.2fx, malloc batch %.2fx, pmr %.2fx."
                    " Targets: arena <= 10 ns %s, >= 5x faster than malloc+free %s\n",
                    what, mallocFree / arena, get("BM_MallocBatchThenFree") / arena,
                    get("BM_PmrMonotonic") / arena, arena <= 10.0 ? "met" : "NOT met",
                    mallocFree / arena >= 5.0 ? "met" : "NOT met");
    };
    ratios("wall clock", [&](const char* n) { return reporter.median(n); });
    ratios("CPU", [&](const char* n) { return reporter.cpuMedian(n); });
    benchmark::Shutdown();
    return 0;
}
