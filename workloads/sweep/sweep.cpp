#include "workloads/sweep/sweep.hpp"

#include "tracer/run/run_comparison.hpp"
#include "tracer/run_folder/run_folder.hpp"
#include "tracer/run_folder/run_record.hpp"
#include "tracer/run_folder/sweep_record.hpp"
#include "workloads/record/folder_lock.hpp"
#include "workloads/sigint_handler.hpp"
#include "workloads/sweep/program_sweep.hpp"
#include "workloads/sweep/sweep_summary.hpp"
#include "workloads/train_record/rank_group.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <ostream>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <tuple>
#include <unistd.h>

extern char** environ;

namespace starscope::workloads {

namespace fs = std::filesystem;
using tracer::run::kSweepJsonName;

namespace {

std::atomic<int> g_sigints{0};
std::atomic<int> g_stopSignal{0}; // the first signal that asked the sweep to stop
std::atomic<int> g_forward{0};    // the last signal passed on to the run in progress
std::atomic<pid_t> g_child{0};    // the run in progress, while it can still be signalled
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<pid_t>::is_always_lock_free,
              "the signal handler needs lock-free atomics");

// A first Ctrl-C lets the run in progress finish (the terminal's Ctrl-C reaches only the sweep:
// the run has its own process group); a second one, and any SIGTERM or SIGHUP, is passed on to
// it at once, so that it stops at its next batch boundary with its trace, and no run outlives
// the sweep.
extern "C" void onSweepSignal(int signal) {
    int none = 0;
    const bool first = g_stopSignal.compare_exchange_strong(none, signal);
    const bool forward = signal != SIGINT || g_sigints.fetch_add(1) >= 1;
    if (forward) {
        g_forward.store(signal);
        if (const pid_t child = g_child.load(); child > 0) {
            ::kill(child, signal);
        }
    }
    if (first) {
        writeFromHandler("\nstarscope sweep: ");
        writeFromHandler(stopSignalName(signal));
        writeFromHandler(
            forward ? ": passed on to the run in progress, which stops at its next batch "
                      "boundary and keeps its trace; no further run starts\n"
                    : ": stopping after the run in progress; a second Ctrl-C stops that run "
                      "too, at its next batch boundary\n");
    }
}

std::vector<std::string> sharedRecordArgs(const RecordOptions& o, const std::string& dataset) {
    std::vector<std::string> args{"--epochs",       std::to_string(o.epochs),
                                  "--batches",      std::to_string(o.batches),
                                  "--batch-size",   std::to_string(o.batchSize),
                                  "--workers",      std::to_string(o.workers),
                                  "--sched",        o.sched,
                                  "--dataset",      dataset,
                                  "--seed",         std::to_string(o.seed),
                                  "--train-images", std::to_string(o.trainImages),
                                  "--test-images",  std::to_string(o.testImages)};
    if (o.chunk != 0) {
        args.insert(args.end(), {"--chunk", std::to_string(o.chunk)});
    }
    return args;
}

// The status in dir/run.json; nullopt when there is no readable run.json.
std::optional<tracer::run::RunStatus> runStatus(const fs::path& dir) {
    const auto record = tracer::run::readRunRecord(dir / tracer::run::kRunJsonName);
    return record ? std::optional(record->status) : std::nullopt;
}

// Runs args with stdout and stderr in logFile, in its own process group so that the terminal's
// Ctrl-C reaches only the sweep; signals are passed on by onSweepSignal. Returns the exit status.
WorkloadResult<int> runChild(const fs::path& executable, const SweepRun& run,
                             const fs::path& logFile) {
    const auto& args = run.args;
    // The run writes its log itself while it runs, so that it can be followed and survives a
    // sweep that dies: a stream opened here, not the one writer's whole-file replacement.
    const int fd = ::open(logFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        return workloadError(ErrorCode::Io, std::string("cannot write: ") + std::strerror(errno),
                             logFile.string());
    }
    std::vector<char*> argv;
    for (const auto& a : args) {
        argv.push_back(const_cast<char*>(a.c_str()));
    }
    argv.push_back(nullptr);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fd);
        return workloadError(ErrorCode::Runtime, std::string("fork: ") + std::strerror(errno));
    }
    if (pid == 0) {
        // Should the sweep die without passing a signal on (SIGKILL), the run still gets a
        // SIGTERM, stops cleanly and keeps its trace instead of running on unattended.
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent) {
            ::_exit(128 + SIGTERM);
        }
        ::setpgid(0, 0);
        ::dup2(fd, STDOUT_FILENO);
        ::dup2(fd, STDERR_FILENO);
        for (const auto& [name, value] : run.environment) {
            ::setenv(name.c_str(), value.c_str(), 1);
        }
        ::execv(executable.c_str(), argv.data());
        const char* message = "starscope sweep: cannot run the recorder\n";
        [[maybe_unused]] const auto n = ::write(STDERR_FILENO, message, std::strlen(message));
        ::_exit(127);
    }
    ::close(fd);
    g_child.store(pid);
    // A SIGTERM that came between the check before this run and the fork.
    if (const int pending = g_forward.load(); pending != 0) {
        ::kill(pid, pending);
    }
    // Wait for the exit without reaping first: until it is reaped the pid cannot be reused, so
    // the handler never signals a stranger.
    siginfo_t info{};
    while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) < 0) {
        if (errno != EINTR) {
            g_child.store(0);
            return workloadError(ErrorCode::Runtime,
                                 std::string("waitid: ") + std::strerror(errno));
        }
    }
    g_child.store(0);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            return workloadError(ErrorCode::Runtime,
                                 std::string("waitpid: ") + std::strerror(errno));
        }
    }
    if (WIFEXITED(status)) {
        return WEXITSTATUS(status);
    }
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

// Run folders of the given strategies and rank counts that the plan does not name, in
// repetition order, then rank count and strategy order, as a sweep records them.
std::vector<SweepRun> earlierRuns(const SweepPlan& plan, const std::vector<std::string>& strategies,
                                  const std::vector<std::uint64_t>& rankCounts) {
    std::vector<SweepRun> runs;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(plan.dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (!entry.is_directory(ec)
            || std::any_of(plan.runs.begin(), plan.runs.end(),
                           [&](const SweepRun& r) { return r.name == name; })) {
            continue;
        }
        bool found = false;
        for (const auto ranks : rankCounts) {
            for (const auto& strategy : strategies) {
                const auto plus = strategy.find('+');
                if (plus == std::string::npos || found) {
                    continue;
                }
                const std::string arenas = strategy.substr(0, plus);
                const std::string loader = strategy.substr(plus + 1);
                const std::string named = runName(arenas, loader, ranks, 0);
                const std::string prefix = named.substr(0, named.size() - 1); // without the "0"
                const std::string digits =
                    name.starts_with(prefix) ? name.substr(prefix.size()) : std::string();
                if (digits.empty() || digits.size() > 3
                    || !std::all_of(digits.begin(), digits.end(),
                                    [](char c) { return c >= '0' && c <= '9'; })) {
                    continue;
                }
                runs.push_back(SweepRun{
                    name, arenas, loader, std::stoul(digits), entry.path(), {}, ranks, {}});
                found = true;
            }
        }
    }
    const auto order = [&](const SweepRun& run) {
        const auto at =
            std::find(strategies.begin(), strategies.end(), run.arenas + "+" + run.loader);
        const auto n = std::find(rankCounts.begin(), rankCounts.end(), run.ranks);
        return std::make_tuple(run.repetition, n - rankCounts.begin(), at - strategies.begin());
    };
    std::sort(runs.begin(), runs.end(),
              [&](const SweepRun& a, const SweepRun& b) { return order(a) < order(b); });
    return runs;
}

// --ranks "1,2,4": each a rank count this build can record and the global batch splits into.
WorkloadResult<std::vector<std::uint64_t>> parseRanks(const SweepOptions& options) {
    auto items = parseList(options.ranks, "--ranks");
    if (!items) {
        return fail(items.error());
    }
    std::vector<std::uint64_t> out;
    for (const auto& item : *items) {
        const bool digits = item.size() <= 4 && std::all_of(item.begin(), item.end(), [](char c) {
                                return c >= '0' && c <= '9';
                            });
        const std::uint64_t n = digits ? std::stoull(item) : 0;
        if (n < 1 || n > 1024) {
            return workloadError(ErrorCode::InvalidArgument,
                                 "\"" + item + "\" is not a rank count (1..1024)", "--ranks");
        }
        if (n > 1 && !haveStarpuMpi()) {
            return workloadError(
                ErrorCode::InvalidArgument,
                item
                    + " ranks: this starscope was built against a StarPU without MPI "
                      "(scripts/build_starpu.sh builds it --enable-mpi)",
                "--ranks");
        }
        if (options.record.batchSize % n != 0) {
            return workloadError(
                ErrorCode::InvalidArgument,
                item + " ranks: the batch of " + std::to_string(options.record.batchSize)
                    + " images is split between the ranks and must be a multiple of their number",
                "--ranks");
        }
        out.push_back(n);
    }
    return out;
}

// The variables of the sweep's environment that decide how its runs behave, so a resume must
// repeat them: StarPU's own (record reads no others), the topology library StarPU asks
// (hwloc), the thread counts of the OpenMP and math libraries that codelets call, and the
// dynamic loader's choices. Others (PWD, TERM, SSH_*) change between shells, not runs.
bool decidesRuns(std::string_view name) {
    static constexpr std::array<std::string_view, 7> kPrefixes{
        "STARPU_", "HWLOC_", "OMP_", "GOMP_", "KMP_", "MKL_", "OPENBLAS_"};
    return std::any_of(kPrefixes.begin(), kPrefixes.end(),
                       [&](std::string_view prefix) { return name.starts_with(prefix); })
           || name == "LD_PRELOAD" || name == "LD_LIBRARY_PATH";
}

// Those variables as this process has them, sorted by name; `varied` (the --vary variable,
// which the sweep sets per run) left out.
tracer::run::SweepEnvironment sweepEnvironment(std::string_view varied) {
    tracer::run::SweepEnvironment out;
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
        const std::string_view text(*entry);
        const auto equals = text.find('=');
        if (equals == std::string_view::npos) {
            continue;
        }
        const auto name = text.substr(0, equals);
        if (decidesRuns(name) && name != varied) {
            out.emplace_back(name, text.substr(equals + 1));
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Resuming with another configuration (record options, program, --vary, environment) would
// pool runs that cannot be compared in one summary.
WorkloadResult<SweepPlan> checkResume(SweepPlan& plan, const SweepOptions& options) {
    plan.configuration.environment =
        sweepEnvironment(std::string_view(options.vary).substr(0, options.vary.find('=')));
    std::error_code ec;
    if (const auto path = plan.dir / kSweepJsonName;
        fs::exists(path, ec) || fs::is_symlink(path, ec)) {
        const auto earlier = tracer::run::readSweepRecord(path);
        if (!earlier) {
            const auto& e = earlier.error();
            return workloadError(e.code == tracer::ErrorCode::Io ? ErrorCode::Io
                                                                 : ErrorCode::Corrupt,
                                 e.message, path.string());
        }
        const auto changes =
            tracer::run::configurationChanges(earlier->configuration, plan.configuration);
        if (!changes.empty()) {
            std::string list;
            for (const auto& c : changes) {
                list += (list.empty() ? "" : "; ") + c;
            }
            return workloadError(ErrorCode::InvalidArgument,
                                 "this sweep was recorded with another configuration (" + list
                                     + "): give the same to resume it, or another --out",
                                 path.string());
        }
    }
    return std::move(plan);
}

} // namespace

WorkloadResult<std::vector<std::string>> parseList(const std::string& text,
                                                   const std::string& flag) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (true) {
        const auto comma = text.find(',', start);
        const auto item =
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (item.empty()) {
            return workloadError(ErrorCode::InvalidArgument,
                                 "empty item in \"" + text + "\" (comma-separated list)", flag);
        }
        for (const auto& seen : items) {
            if (seen == item) {
                return workloadError(ErrorCode::InvalidArgument, "\"" + item + "\" is listed twice",
                                     flag);
            }
        }
        items.push_back(item);
        if (comma == std::string::npos) {
            return items;
        }
        start = comma + 1;
    }
}

std::string runName(const std::string& arenas, const std::string& loader, std::uint64_t ranks,
                    std::size_t repetition) {
    const std::string dimension = ranks == 1 ? std::string() : std::to_string(ranks) + "ranks-";
    return arenas + "-" + loader + "-" + dimension + "r" + std::to_string(repetition);
}

WorkloadResult<SweepPlan> planSweep(const SweepOptions& options) {
    if (options.out.empty()) {
        return workloadError(ErrorCode::InvalidArgument, "missing: name the sweep folder", "--out");
    }
    if (options.repeat == 0 || options.repeat > 100) {
        return workloadError(ErrorCode::InvalidArgument,
                             "must be 1..100, got " + std::to_string(options.repeat), "--repeat");
    }
    SweepPlan plan;
    std::error_code ec;
    plan.dir = fs::absolute(options.out, ec).lexically_normal();
    if (ec) {
        return workloadError(ErrorCode::Io, "cannot resolve the path: " + ec.message(),
                             options.out);
    }
    plan.executable =
        options.executable.empty() ? fs::read_symlink("/proc/self/exe", ec) : options.executable;
    if (ec || ::access(plan.executable.c_str(), X_OK) != 0) {
        return workloadError(ErrorCode::Io, "cannot find the starscope executable to record with",
                             plan.executable.string());
    }
    if (fs::exists(plan.dir, ec)) {
        if (!fs::is_directory(plan.dir, ec)) {
            return workloadError(ErrorCode::Io, "exists and is not a folder (--out)",
                                 plan.dir.string());
        }
        if (const auto holder = folderLockHolder(plan.dir)) {
            return fail(lockedFolderError(plan.dir, "sweep folder", *holder));
        }
        if (!isEmptyRunFolder(plan.dir) && !fs::exists(plan.dir / kSweepJsonName, ec)) {
            return workloadError(ErrorCode::Io,
                                 "folder is not empty and holds no sweep.json: choose another "
                                 "--out (a sweep only resumes its own folder)",
                                 plan.dir.string());
        }
    }
    if (!options.program.empty()) {
        if (auto runs = planProgramRuns(options, plan); !runs) {
            return fail(runs.error());
        }
        return checkResume(plan, options);
    }
    auto arenas = parseList(options.arenas, "--arenas");
    if (!arenas) {
        return fail(arenas.error());
    }
    auto loaders = parseList(options.loaders, "--loaders");
    if (!loaders) {
        return fail(loaders.error());
    }
    auto rankCounts = parseRanks(options);
    if (!rankCounts) {
        return fail(rankCounts.error());
    }
    // The first run's plan checks the shared options and the dataset once; the strategy names
    // and each run folder are checked per run.
    std::string dataset;
    for (std::size_t rep = 0; rep < options.repeat; ++rep) {
        for (const auto ranks : *rankCounts) {
            for (const auto& a : *arenas) {
                for (const auto& l : *loaders) {
                    SweepRun run{runName(a, l, ranks, rep), a, l, rep, {}, {}, ranks, {}};
                    run.dir = plan.dir / run.name;
                    if (rep == 0 && ranks == rankCounts->front()) {
                        RecordOptions record = options.record;
                        record.arenas = a;
                        record.loader = l;
                        record.out = run.dir.string();
                        record.force = true;
                        auto checked = planRecord(record);
                        if (!checked) {
                            return fail(checked.error());
                        }
                        dataset = checked->datasetDir.string();
                    }
                    plan.runs.push_back(std::move(run));
                }
            }
        }
    }
    plan.ranks = *rankCounts;
    plan.configuration.recordArgs = sharedRecordArgs(options.record, dataset);
    for (auto& run : plan.runs) {
        run.args = {"starscope", "record",   "--ranks",  std::to_string(run.ranks),
                    "--arenas",  run.arenas, "--loader", run.loader};
        run.args.insert(run.args.end(), plan.configuration.recordArgs.begin(),
                        plan.configuration.recordArgs.end());
        run.args.insert(run.args.end(), {"--out", run.dir.string(), "--force"});
    }
    return checkResume(plan, options);
}

WorkloadResult<SweepOutcome> executeSweep(const SweepPlan& plan, std::ostream& log) {
    std::error_code ec;
    if (!fs::create_directories(plan.dir, ec) && ec) {
        return workloadError(ErrorCode::Io, "cannot create the sweep folder: " + ec.message(),
                             plan.dir.string());
    }
    // Held until the summary is written: a second sweep (or a resume) on the same folder at the
    // same time would record the same runs twice and overwrite the summary.
    auto lock = FolderLock::acquire(plan.dir, "sweep folder");
    if (!lock) {
        return fail(lock.error());
    }
    // The strategies in the order they were first asked for (`starscope compare` orders its
    // table by it and takes the first as the default baseline), those of earlier invocations
    // of this sweep included: the folder still holds their runs.
    const auto earlier = tracer::run::readSweepRecord(plan.dir / kSweepJsonName);
    std::vector<std::string> strategies =
        earlier ? earlier->strategies : std::vector<std::string>{};
    std::vector<std::uint64_t> rankCounts = earlier ? earlier->ranks : std::vector<std::uint64_t>{};
    for (const auto& run : plan.runs) {
        const std::string name = run.arenas + "+" + run.loader;
        if (!run.arenas.empty()
            && std::find(strategies.begin(), strategies.end(), name) == strategies.end()) {
            strategies.push_back(name);
        }
        if (std::find(rankCounts.begin(), rankCounts.end(), run.ranks) == rankCounts.end()) {
            rankCounts.push_back(run.ranks);
        }
    }
    const tracer::run::SweepRecord description{tracer::run::kSweepRecordVersion, plan.configuration,
                                               strategies, rankCounts};
    if (auto written = tracer::run::writeSweepRecord(plan.dir / kSweepJsonName, description);
        !written) {
        return workloadError(ErrorCode::Io, written.error().message, written.error().file);
    }
    // Stop signals while the sweep runs; the previous handlers come back afterwards.
    g_sigints.store(0);
    g_stopSignal.store(0);
    g_forward.store(0);
    g_child.store(0);
    const ScopedStopSignals signals(onSweepSignal);
    SweepOutcome outcome;
    const std::size_t total = plan.runs.size();
    std::vector<SweepAction> actions(total, SweepAction::NotRun);
    for (std::size_t i = 0; i < total; ++i) {
        const auto& run = plan.runs[i];
        const std::string counter =
            "[" + std::to_string(i + 1) + "/" + std::to_string(total) + "] ";
        if (const int signal = g_stopSignal.load(); signal != 0) {
            outcome.interrupted = true;
            log << "starscope sweep: stopped by " << stopSignalName(signal)
                << "; run the same command again to resume\n";
            break;
        }
        if (runStatus(run.dir) == tracer::run::RunStatus::Completed) {
            log << counter << "skip " << run.name << " (completed)\n" << std::flush;
            actions[i] = SweepAction::Skipped;
            ++outcome.skipped;
            continue;
        }
        log << counter << "record " << run.name << std::flush;
        if (!fs::create_directories(run.dir, ec) && ec) {
            return workloadError(ErrorCode::Io, "cannot create the run folder: " + ec.message(),
                                 run.dir.string());
        }
        auto code = runChild(plan.executable, run, run.dir / "record.log");
        if (!code) {
            return fail(code.error());
        }
        actions[i] = SweepAction::Recorded;
        ++outcome.recorded;
        const auto status = runStatus(run.dir);
        log << ": " << tracer::run::statusName(status.value_or(tracer::run::RunStatus::Failed))
            << (status ? "" : " (no run.json)");
        const bool interrupted = status == tracer::run::RunStatus::Interrupted;
        if (*code != 0 && !interrupted) {
            ++outcome.failed;
            log << ", exit status " << *code << ", see " << (run.dir / "record.log").string();
        }
        log << "\n" << std::flush;
        if (interrupted) {
            outcome.interrupted = true;
        }
    }
    outcome.stopSignal = g_stopSignal.load();
    for (std::size_t i = 0; i < total; ++i) {
        outcome.rows.push_back(summarizeRun(plan.runs[i], i, actions[i]));
    }
    // Runs of earlier invocations that this one did not ask for (fewer loaders, fewer
    // repetitions) stay in the summary: it covers every run the folder holds.
    for (const auto& run : earlierRuns(plan, strategies, rankCounts)) {
        outcome.rows.push_back(summarizeRun(run, outcome.rows.size(), SweepAction::Kept));
    }
    // Speedup and scaling efficiency against the 1-rank runs, as `starscope compare` gives them.
    std::vector<tracer::run::RunFigures*> figures;
    for (auto& row : outcome.rows) {
        if (row.figures) {
            figures.push_back(&*row.figures);
        }
    }
    tracer::run::fillScaling(figures);
    if (auto written = writeSummary(plan.dir, outcome.rows); !written) {
        return fail(written.error());
    }
    return outcome;
}

} // namespace starscope::workloads
