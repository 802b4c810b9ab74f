#include "workloads/cli/sweep_command.hpp"

#include "tracer/run_folder/run_folder_names.hpp"
#include "workloads/cli/option_ranges.hpp"
#include "workloads/sigint_handler.hpp"
#include "workloads/sweep/sweep.hpp"

#include <memory>
#include <ostream>

namespace starscope::workloads::cli {

void addSweepCommand(CLI::App& app, std::ostream& out, std::ostream& err) {
    auto options = std::make_shared<SweepOptions>();
    auto* cmd = app.add_subcommand("sweep", kSweepDescription);
    auto& o = *options;
    auto& r = o.record;
    cmd->add_option("--out", o.out, "Sweep folder (run folders <arenas>-<loader>-r<k> inside)")
        ->required();
    cmd->add_option("--repeat", o.repeat, "Repetitions of every strategy")->capture_default_str()->check(repeatRange());
    cmd->add_option("--arenas", o.arenas, "Comma-separated arena settings (single, double, N)")
        ->capture_default_str();
    cmd->add_option("--loaders", o.loaders, "Comma-separated loaders")->capture_default_str();
    cmd->add_option("--ranks", o.ranks,
                    "Comma-separated StarPU-MPI rank counts, each run `record --ranks N` (run folders "
                    "<arenas>-<loader>-<N>ranks-r<k> for N > 1)")
        ->capture_default_str();
    cmd->add_option("--epochs", r.epochs, "Epochs per run")->capture_default_str()->check(epochsRange());
    cmd->add_option("--batches", r.batches, "Batches per epoch (0: the whole training set)")
        ->capture_default_str()
        ->check(imageCountRange());
    cmd->add_option("--batch-size", r.batchSize, "Images per batch")->capture_default_str()->check(batchSizeRange());
    cmd->add_option("--chunk", r.chunk, "Images per task (default 32)")->check(imageCountRange());
    cmd->add_option("--workers", r.workers, "StarPU CPU workers (0: one per hardware thread)")
        ->capture_default_str()
        ->check(workersRange());
    cmd->add_option("--sched", r.sched, "StarPU scheduler")->capture_default_str();
    cmd->add_option("--dataset", r.dataset, "Folder of the four MNIST IDX files");
    cmd->add_option("--seed", r.seed, "Seed of the weights and of the shuffling")
        ->capture_default_str()
        ->check(seedRange());
    cmd->add_option("--train-images", r.trainImages, "Train on the first N images only (0: all)")
        ->capture_default_str()
        ->check(imageCountRange());
    cmd->add_option("--test-images", r.testImages, "Evaluate on the first N images only (0: all)")
        ->capture_default_str()
        ->check(imageCountRange());

    cmd->add_option(
        "--vary", o.vary,
        "With a PROGRAM: NAME=a,b,c runs it once per value of the environment variable NAME "
        "(e.g. STARPU_SCHED=lws,dmda), each --repeat times");
    cmd->add_option(
        "program", o.program,
        "After --: a StarPU program and its arguments, swept instead of the CNN (each run "
        "`record -- PROGRAM ARGS`)");

    cmd->callback([options, cmd, &out, &err]() {
        // The CNN's options mean nothing to another program, --vary nothing to the CNN.
        for (const char* option : {"--arenas", "--loaders", "--ranks", "--epochs", "--batches",
                                   "--batch-size", "--chunk", "--workers", "--sched", "--dataset",
                                   "--seed", "--train-images", "--test-images"}) {
            if (!options->program.empty() && cmd->count(option) > 0) {
                err << "starscope sweep: " << option
                    << " is an option of the built-in CNN workload; with a PROGRAM (after --) "
                       "sweep takes "
                       "--out, --repeat and --vary\n";
                throw CLI::RuntimeError(2);
            }
        }
        if (options->program.empty() && !options->vary.empty()) {
            err << "starscope sweep: --vary: varies a PROGRAM's environment: give the program "
                   "after --\n";
            throw CLI::RuntimeError(2);
        }
        auto plan = planSweep(*options);
        if (!plan) {
            err << "starscope sweep: " << plan.error().describe() << "\n";
            throw CLI::RuntimeError(2);
        }
        out << "sweep " << plan->dir.string() << ": " << plan->runs.size() << " runs\n";
        auto outcome = executeSweep(*plan, out);
        if (!outcome) {
            err << "starscope sweep: " << outcome.error().describe() << "\n";
            throw CLI::RuntimeError(1);
        }
        out << outcome->recorded << " recorded, " << outcome->skipped << " skipped, "
            << outcome->failed << " failed\n";
        out << "summary " << (plan->dir / tracer::run::kSummaryCsvName).string() << ", "
            << (plan->dir / tracer::run::kSummaryJsonName).string() << "\n";
        if (outcome->interrupted) {
            throw CLI::RuntimeError(exitCodeForSignal(outcome->stopSignal != 0 ? outcome->stopSignal : SIGINT));
        }
        if (outcome->failed > 0) {
            throw CLI::RuntimeError(1);
        }
    });
}

} // namespace starscope::workloads::cli
