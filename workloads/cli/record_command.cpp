#include "workloads/cli/record_command.hpp"

#include "workloads/cli/option_ranges.hpp"
#include "workloads/cli/rank_launcher.hpp"
#include "workloads/cli/record_program.hpp"
#include "workloads/sigint_handler.hpp"
#include "workloads/train_record/rank_group.hpp"
#include "workloads/train_record/recorder.hpp"

#include <cstdlib>
#include <iomanip>
#include <memory>
#include <ostream>
#include <unistd.h>

namespace starscope::workloads::cli {

namespace {

struct RecordState {
    RecordOptions options;
    std::vector<std::string> command;
    int ranks = 0; // --ranks; 0: not given (one process, or the MPI launcher's count)
    std::vector<std::string> program; // after `--`: a program of the user's instead of the CNN
};

// Under an MPI launcher: joins the job as one of its ranks and makes the plan this rank's part.
// Null without a launcher. Throws CLI::RuntimeError(2) after saying what is wrong.
std::unique_ptr<RankGroup> joinRanks(const RecordState& state, WorkloadResult<RecordPlan>& plan,
                                     std::ostream& err) {
    if (!startedByMpiLauncher()) {
        return nullptr;
    }
    auto group = joinRankGroup();
    if (!group) {
        err << "starscope record: started by an MPI launcher: " << group.error().describe() << "\n";
        throw CLI::RuntimeError(2);
    }
    auto& ranks = *group;
    WorkloadResult<Done> mine = Done{};
    if (!plan) {
        mine = fail(plan.error());
    } else if (state.ranks != 0 && state.ranks != ranks->size()) {
        mine = workloadError(ErrorCode::InvalidArgument,
                             std::to_string(state.ranks) + " ranks asked but the MPI launcher "
                                 "started " + std::to_string(ranks->size()),
                             "--ranks");
    } else {
        mine = planRank(*plan, ranks->rank(), ranks->size());
    }
    // Every rank checked its options before any creates the run folder.
    const bool allOk = ranks->allAgree(static_cast<bool>(mine));
    if (!mine) {
        err << "starscope record: rank " << ranks->rank() << ": " << mine.error().describe() << "\n";
    }
    if (!allOk) {
        throw CLI::RuntimeError(2);
    }
    return std::move(ranks);
}

void printSummary(std::ostream& out, const RecordPlan& plan, const RecordOutcome& outcome) {
    const auto& record = outcome.record;
    out << "run " << tracer::run::statusName(outcome.status) << ": " << plan.outDir.string() << "\n";
    out << "  strategy      arenas=" << plan.arenasName << " loader=" << plan.options.loader
        << "\n";
    // StarPU's own figures (what run.json records), and which environment variable chose them.
    out << "  scheduler     " << plan.sched
        << settingOrigin(plan.schedAsked.source, plan.schedAsked.variable) << "\n";
    out << "  workers       " << plan.workers << " CPU";
    if (plan.workers != plan.workersAsked.value) {
        out << " (" << plan.workersAsked.value << " asked"
            << settingOrigin(plan.workersAsked.source, plan.workersAsked.variable) << ")";
    } else {
        out << settingOrigin(plan.workersAsked.source, plan.workersAsked.variable);
    }
    out << "\n";
    if (plan.idleWorkersSpin) {
        out << "  idle workers  spin: this StarPU was built without --enable-blocking-drivers, so "
               "an idle worker keeps polling on its core"
            << (plan.coreLeftToMainThread
                    ? "; one core is left to the main thread (--workers to choose)"
                    : "")
            << "\n";
    }
    if (plan.outSource == SettingSource::Environment) {
        out << "  run folder    from STARPU_FXT_PREFIX\n";
    }
    if (!record.ranks.empty()) {
        out << "  ranks         " << record.ranks.size() << " (StarPU-MPI), "
            << plan.train.batchSize << " images per rank and batch\n";
        for (const auto& rank : record.ranks) {
            out << "  rank " << std::left << std::setw(9) << rank.rank << std::right << rank.host
                << ", " << tracer::run::statusName(rank.status) << ", " << rank.batches << " batches, " << std::fixed
                << std::setprecision(2) << rank.wallSeconds << " s, "
                << (rank.weightsFile.empty() ? "no weight checksums (the error says why)"
                                             : "weights in " + rank.weightsFile)
                << "\n";
        }
    }
    if (record.train) {
        const auto& t = *record.train;
        for (const auto& e : t.epochs) {
            out << "  epoch " << e.epoch << "       " << e.batches << " batches, loss "
                << std::fixed << std::setprecision(4) << e.loss << ", train accuracy "
                << std::setprecision(2) << 100.0 * e.accuracy << " %, " << e.seconds << " s\n";
        }
        if (t.testAccuracy) {
            out << "  test accuracy " << std::fixed << std::setprecision(2)
                << 100.0 * *t.testAccuracy << " % on " << t.testImages << " images\n";
        }
        out << "  tasks         " << t.tasksSubmitted << " submitted";
        if (record.tasksExecuted) {
            out << ", " << *record.tasksExecuted << " executed";
        }
        out << "\n";
    }
    out << "  wall time     " << std::fixed << std::setprecision(2) << record.wallSeconds
        << " s (with StarPU start and trace flush " << record.totalSeconds << " s)\n";
    for (const auto& file : record.traceFiles) {
        out << "  trace         " << (plan.outDir / file).string() << "\n";
    }
    if (!plan.trace.value) {
        out << "  trace         none: not traced"
            << (plan.trace.source == SettingSource::Option ? " (--no-trace)" : " (STARPU_FXT_TRACE=0)")
            << "\n";
    }
    if (plan.trace.value) {
        out << "  FxT events    " << plan.events.set.value.text()
            << settingOrigin(plan.events.set.source, plan.events.set.variable);
        if (!plan.events.note.empty()) {
            out << " (" << plan.events.note << ")";
        }
        out << "\n";
    }
    printStarpuEnvironment(out, plan.environment);
    out << "  run.json      " << outcome.runJson.string() << "\n";
    if (!record.error.empty()) {
        out << "  error         " << record.error << "\n";
    }
}

} // namespace

void addRecordCommand(CLI::App& app, std::ostream& out, std::ostream& err) {
    auto state = std::make_shared<RecordState>();
    auto* cmd = app.add_subcommand("record", kRecordDescription);
    auto& o = state->options;
    cmd->add_option("--arenas", o.arenas, "Batch arenas: single, double or a ring size N")
        ->capture_default_str();
    cmd->add_option("--loader", o.loader,
                    "Image loader: naive, prefetch, advanced, double-prefetch")
        ->capture_default_str();
    cmd->add_option("--epochs", o.epochs, "Epochs")->capture_default_str()->check(epochsRange());
    cmd->add_option("--batches", o.batches, "Batches per epoch (0: the whole training set)")
        ->capture_default_str()
        ->check(imageCountRange());
    cmd->add_option("--batch-size", o.batchSize, "Images per batch")->capture_default_str()->check(batchSizeRange());
    cmd->add_option("--chunk", o.chunk,
                    "Images per task (sub-batch chunk); default 32, at most the batch size")
        ->check(imageCountRange());
    cmd->add_option("--workers", o.workers,
                    "StarPU CPU workers (default or 0: $STARPU_NCPU, else one per hardware "
                    "thread, or one fewer on a StarPU whose idle workers spin); StarPU starts at "
                    "most one per core, run.json records its number")
        ->check(workersRange());
    cmd->add_option("--sched", o.sched,
                    std::string("StarPU scheduler (default: $STARPU_SCHED, else ")
                        + kDefaultScheduler + ")");
    cmd->add_option("--dataset", o.dataset,
                    "Folder of the four MNIST IDX files (default: $STARSCOPE_DATA_DIR or the "
                    "data/mnist that scripts/setup.sh fetches)");
    // Not required by the parser: a STARPU_FXT_PREFIX the user set names the folder otherwise,
    // and planRecord says what is missing.
    cmd->add_option("--out", o.out,
                    "Run folder to create (trace and run.json); default: $STARPU_FXT_PREFIX. A "
                    "STARPU_FXT_PREFIX naming another folder is refused");
    cmd->add_flag("--force", o.force, "Overwrite the run files of an existing folder");
    cmd->add_option(
           "--buffer-mb", o.bufferMb,
           "FxT's trace buffer in MiB (default: $STARPU_TRACE_BUFFER_SIZE, else sized for the "
           "CNN's run, or StarPU's 64 for a PROGRAM); libfxt keeps two resident")
        ->check(CLI::Range(1, 1 << 20));
    cmd->add_flag("--no-trace", o.noTrace,
                  "FxT off (STARPU_FXT_TRACE=0): the same run without tracing, to measure what "
                  "tracing costs; run.json says \"traced\": false and there is no trace to read");
    cmd->add_option("--events", o.events,
                    "FxT event categories (StarPU 1.4): all, or StarPU's names separated by "
                    "commas (USER,TASK,TASK_VERBOSE,WORKER,WORKER_VERBOSE,DSM,EVENT,MPI,...); "
                    "default: $STARPU_FXT_EVENTS, else the smallest set that keeps every figure "
                    "starscope shows. StarPU 1.3 records every event (the option has no effect)");
    cmd->add_option("--learning-rate", o.learningRate, "SGD learning rate")
        ->capture_default_str()
        ->check(learningRateRange());
    cmd->add_option("--seed", o.seed, "Seed of the weights and of the shuffling")
        ->capture_default_str()
        ->check(seedRange());
    cmd->add_option("--train-images", o.trainImages,
                    "Train on the first N training images only (0: all)")
        ->capture_default_str()
        ->check(imageCountRange());
    cmd->add_option("--test-images", o.testImages,
                    "Evaluate on the first N test images only (0: all)")
        ->capture_default_str()
        ->check(imageCountRange());

    cmd->add_option("--ranks", state->ranks,
                     "Data-parallel training on N StarPU-MPI ranks on this machine (starts "
                     "mpirun -np N); under mpirun (e.g. with a hostfile) the job's ranks are used "
                     "and --ranks, if given, must match. --batch-size is the global batch, split "
                     "between the ranks")
        ->check(CLI::Range(1, 1024));
    cmd->add_option(
        "program", state->program,
        "After --: a StarPU program (linked against a StarPU built with FxT) and its arguments, "
        "recorded instead of the CNN; --ranks N runs it under mpirun -np N");

    cmd->callback([state, cmd, &out, &err]() {
        if (!state->program.empty()) {
            const auto& r = state->options;
            recordProgram(*cmd,
                          ProgramOptions{state->program, r.out, r.force, r.bufferMb, r.noTrace,
                                         r.events, state->ranks},
                          out, err);
            return;
        }
        if (state->ranks > 1 && !startedByMpiLauncher()) {
            if (!haveStarpuMpi()) {
                err << "starscope record: --ranks: " << joinRankGroup().error().message << "\n";
                throw CLI::RuntimeError(2);
            }
            // Planned here too, so that a bad flag is refused once, before mpirun starts, and
            // the launcher knows the run folder.
            const auto plan = planRecord(state->options);
            if (!plan) {
                err << "starscope record: " << plan.error().describe() << "\n";
                throw CLI::RuntimeError(2);
            }
            if (const int code = launchRanks(state->ranks, *plan, err); code != 0) {
                throw CLI::RuntimeError(code);
            }
            return;
        }
        auto plan = planRecord(state->options);
        auto group = joinRanks(*state, plan, err);
        if (!plan) {
            err << "starscope record: " << plan.error().describe() << "\n";
            throw CLI::RuntimeError(2);
        }
        std::vector<std::string> command{"starscope", "record"};
        // A log (a file, a pipe, mpirun's forwarding) gets whole lines; only rank 0 reports.
        const bool tty = ::isatty(STDERR_FILENO) == 1 && &err == &std::cerr;
        const auto style = group && group->rank() != 0 ? ProgressStyle::None
                           : tty                         ? ProgressStyle::Terminal
                                                         : ProgressStyle::Lines;
        auto outcome = executeRecord(*plan, command, err, style, group.get());
        if (!outcome) {
            err << "starscope record: " << outcome.error().describe() << "\n";
            throw CLI::RuntimeError(2);
        }
        // Under record's own launcher, which reports the job's end from run.json, an interrupted
        // rank exits 0: mpirun ends a job whose rank exits non-zero (SIGCONT to the others,
        // SIGTERM 10 s later) and waits that long before it exits itself.
        const bool launched = group && std::getenv(kLaunchedRanksVariable) != nullptr;
        const int code = launched && outcome->status == tracer::run::RunStatus::Interrupted
                             ? 0
                             : exitCodeFor(*outcome);
        if (group && group->rank() != 0) {
            // Rank 0 reports the job; the others only fail loudly.
            if (code != 0) {
                throw CLI::RuntimeError(code);
            }
            return;
        }
        printSummary(out, *plan, *outcome);
        if (code != 0) {
            if (!outcome->record.error.empty()) {
                err << "starscope record: " << outcome->record.error << "\n";
            }
            throw CLI::RuntimeError(code);
        }
    });
}

} // namespace starscope::workloads::cli
