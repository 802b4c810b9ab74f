// Training time of the same batches under two memory strategies: single arena + naive loader
// (the reference: a full barrier at every batch) and double arena + advanced loader. Runs
// alternate, several times each, in one StarPU session with tracing off; prints the medians of
// the training wall time and the ratio. Usage: workloads_strategy_bench [batches] [repetitions]

#include "workloads/train/trainer.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <starpu.h>
#include <string>
#include <vector>

using namespace starscope::workloads;
namespace runtime = starscope::runtime;

namespace {

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

} // namespace

int main(int argc, char** argv) {
    const std::size_t batches = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 200;
    const int repetitions = argc > 2 ? std::atoi(argv[2]) : 5;
    auto dataset = MnistDataset::open(std::string(STARSCOPE_SOURCE_DIR) + "/data/mnist");
    if (!dataset) {
        std::fprintf(stderr, "%s\n", dataset.error().describe().c_str());
        return 1;
    }
    ::setenv("STARPU_FXT_TRACE", "0", 0);
    ::setenv("STARPU_SILENT", "1", 0);
    if (starpu_init(nullptr) != 0) {
        std::fprintf(stderr, "starpu_init failed\n");
        return 1;
    }
    struct Strategy {
        const char* name;
        std::size_t slots;
        runtime::LoaderKind loader;
        std::vector<double> seconds;
    };
    std::vector<Strategy> strategies{{"single+naive", 1, runtime::LoaderKind::Naive, {}},
                                     {"double+advanced", 2, runtime::LoaderKind::Advanced, {}}};
    std::atomic<bool> stop{false};
    for (int r = 0; r < repetitions; ++r) {
        for (auto& strategy : strategies) {
            TrainConfig config;
            config.batchesPerEpoch = batches;
            config.ringSlots = strategy.slots;
            config.loader = strategy.loader;
            config.evaluate = false;
            Trainer trainer(*dataset, config);
            auto report = trainer.run(stop);
            if (!report) {
                std::fprintf(stderr, "%s\n", report.error().describe().c_str());
                starpu_shutdown();
                return 1;
            }
            strategy.seconds.push_back(report->trainSeconds);
        }
    }
    const unsigned workers = starpu_cpu_worker_get_count();
    starpu_shutdown();
    std::printf("%zu batches of 64, chunk 32, %u workers, %d runs each (alternating)\n", batches,
                workers, repetitions);
    const double reference = median(strategies[0].seconds);
    for (const auto& strategy : strategies) {
        const double m = median(strategy.seconds);
        std::printf("%-16s median %.3f s  (%.2f ms/batch)  ratio to single+naive %.3f\n",
                    strategy.name, m, 1000.0 * m / static_cast<double>(batches), m / reference);
    }
    return 0;
}
