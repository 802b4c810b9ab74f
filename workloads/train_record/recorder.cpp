#include "workloads/train_record/recorder.hpp"

#include "tracer/run_folder/run_folder.hpp"
#include "workloads/record/folder_lock.hpp"
#include "workloads/record/free_space.hpp"
#include "workloads/record/launcher_stop_watch.hpp"
#include "workloads/record/run_folder_setup.hpp"
#include "workloads/record/trace_rescue.hpp"
#include "workloads/sigint_handler.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iomanip>
#include <optional>
#include <ostream>
#include <sstream>
#include <starpu.h>
#include <unistd.h>

namespace starscope::workloads {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;
using tracer::run::RunStatus;

std::atomic<bool> g_stop{false};
std::atomic<int> g_signals{0};
std::atomic<int> g_firstSignal{0};
// A rank started by `record --ranks N`, whose launcher speaks for every rank.
std::atomic<bool> g_quietSignals{false};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "the signal handler needs lock-free atomics");

// The trace lives in FxT's memory buffer until starpu_shutdown writes it: a process that dies
// before then loses all of it. So the first signal stops at the next batch boundary, the
// second only says what is still going on (there is nothing left to skip: tasks already
// submitted cannot be cancelled and the shutdown is the trace being written), and only a third
// ends the process, trace lost.
extern "C" void onRecordStop(int signal) {
    const int count = g_signals.fetch_add(1) + 1;
    const bool quiet = g_quietSignals.load();
    if (count == 1) {
        g_firstSignal.store(signal);
        g_stop.store(true);
        if (quiet) {
            return;
        }
        writeFromHandler("\nstarscope record: ");
        writeFromHandler(stopSignalName(signal));
        writeFromHandler(
            ": stopping after the batch in progress; StarPU then shuts down and writes "
            "the trace, and run.json marks the run interrupted. A second signal changes "
            "nothing; a third ends at once and loses the trace.\n");
    } else if (count == 2) {
        if (quiet) {
            return;
        }
        writeFromHandler(
            "starscope record: still stopping: waiting for the tasks already submitted, "
            "then writing the trace; one more signal ends at once and loses the trace\n");
    } else {
        std::signal(signal, SIG_DFL);
        std::raise(signal);
    }
}

// A rank's launcher that sends SIGTERM after a first stop is mpirun ending the job on its own
// schedule, SIGKILL to follow: a rank still short of its shutdown then keeps what it can
// (TraceRescue) rather than wait for the SIGKILL.
extern "C" void onRecordSignal(int signal, siginfo_t* info, void*) {
    const bool fromLauncher =
        info != nullptr && info->si_code == SI_USER && info->si_pid == ::getppid();
    if (signal == SIGTERM && fromLauncher && g_signals.load() >= 1
        && TraceRescue::requestFromHandler(exitCodeForSignal(SIGTERM))) {
        return;
    }
    onRecordStop(signal);
}

// libfxt ends the process with exit() when it cannot write its file: at starpu_init (its
// first bytes), during the run whenever a buffer is full, and at starpu_shutdown. While a guard
// lives, an atexit handler says which run folder was hit and whether its file system is full, so
// the user is not left with libfxt's one line.
class FxtExitGuard {
public:
    explicit FxtExitGuard(const fs::path& dir) {
        static const bool registered = std::atexit(onExit) == 0;
        (void)registered;
        std::snprintf(s_dir, sizeof s_dir, "%s", dir.c_str());
        s_armed.store(true);
    }
    ~FxtExitGuard() { s_armed.store(false); }
    FxtExitGuard(const FxtExitGuard&) = delete;
    FxtExitGuard& operator=(const FxtExitGuard&) = delete;

private:
    static void onExit() {
        if (!s_armed.load()) {
            return;
        }
        std::fprintf(stderr,
                     "starscope record: FxT could not write the trace into %s and ended the run%s; "
                     "the trace and run.json are lost\n",
                     s_dir, fileSystemIsFull(s_dir) ? " (its file system is full)" : "");
    }
    static inline std::atomic<bool> s_armed{false};
    static inline char s_dir[4096] = {};
};

// FxT writes the trace into the run folder during the run (whenever a buffer is full) and at its
// end, and libfxt ends the process when it cannot: say up front when the trace expected may not
// fit, rather than after the whole run.
void warnIfTraceMayNotFit(const RecordPlan& plan, std::ostream& out) {
    if (!plan.trace.value) {
        return;
    }
    const std::uint64_t buffer = plan.traceBufferMb
                                 << 20; // a user's buffer may exceed the estimate
    workloads::warnIfSpaceIsShort(plan.outDir, std::max(plan.expectedTraceBytes, buffer), out);
}

// planRecord chose every variable (option > the user's environment > record's default) and
// refused the user's values that would lose the trace (STARPU_FXT_PREFIX naming another
// folder, STARPU_FXT_SUFFIX): what is set here is what the summary and run.json list, and a
// user's own value is left as it is.
void configureStarpu(const RecordPlan& plan) {
    for (const auto& variable : plan.environment) {
        if (variable.source != SettingSource::Environment) {
            ::setenv(variable.name.c_str(), variable.value.c_str(), 1);
        }
    }
}

// The prof files' names, as run.json lists them.
std::vector<std::string> traceFiles(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& file : tracer::run::findProfFiles(dir)) {
        names.push_back(file.filename().string());
    }
    return names;
}

// Epoch, batch, loss, ETA: one line redrawn on a terminal, or whole lines for a log.
class ProgressLine {
public:
    ProgressLine(std::ostream& out, ProgressStyle style) : m_out(out), m_style(style) {}
    void operator()(const Progress& p) {
        if (m_style == ProgressStyle::None) {
            return;
        }
        const auto now = Clock::now();
        const bool epochEnd = p.batch == p.batches;
        if (m_style == ProgressStyle::Terminal && now - m_last < std::chrono::milliseconds(100)
            && !epochEnd) {
            return;
        }
        if (m_style == ProgressStyle::Lines) {
            const bool firstDone = p.batchesDone > 0 && !m_sawDone;
            if (!firstDone && !epochEnd
                && now - m_last < std::chrono::seconds(kLogProgressSeconds)) {
                return;
            }
            m_sawDone = m_sawDone || p.batchesDone > 0;
        }
        m_last = now;
        const std::size_t submitted = p.epoch * p.batches + p.batch;
        const double eta = submitted == 0
                               ? 0.0
                               : p.elapsedSeconds * static_cast<double>(p.batchesTotal - submitted)
                                     / static_cast<double>(submitted);
        constexpr int kWidth = 24;
        const int filled =
            static_cast<int>(kWidth * submitted / std::max<std::size_t>(p.batchesTotal, 1));
        std::ostringstream line;
        if (m_style == ProgressStyle::Terminal) {
            line << "\r[" << std::string(static_cast<std::size_t>(filled), '#')
                 << std::string(static_cast<std::size_t>(kWidth - filled), '.') << "] ";
        } else {
            line << "progress: ";
        }
        line << "epoch " << p.epoch + 1 << "/" << p.epochs << " batch " << p.batch << "/"
             << p.batches << " loss ";
        if (p.batchesDone == 0) {
            line << "  -   "; // no batch finished yet
        } else {
            line << std::fixed << std::setprecision(4) << p.lastLoss;
        }
        line << " ETA " << static_cast<long>(eta) / 60 << ":" << std::setw(2) << std::setfill('0')
             << static_cast<long>(eta) % 60;
        if (m_style == ProgressStyle::Terminal) {
            m_out << line.str() << "   " << std::flush;
            m_drawn = true;
        } else {
            m_out << line.str() << " (" << p.batchesDone << " batches done)\n" << std::flush;
        }
    }
    void finish() {
        if (m_drawn) {
            m_out << "\n" << std::flush;
        }
    }

private:
    std::ostream& m_out;
    ProgressStyle m_style;
    bool m_drawn = false;
    bool m_sawDone = false;
    Clock::time_point m_last{};
};

// What StarPU runs, read back after starpu_init: it starts at most one CPU worker per core
// whatever STARPU_NCPU asks, and run.json must describe the trace, not the request.
void readStartedSettings(RecordPlan& plan, std::ostream& out) {
    plan.workers = starpu_cpu_worker_get_count();
    // Tasks submitted outside any context go to StarPU's initial context, id 0
    // (STARPU_GLOBAL_SCHED_CTX in src/core/sched_ctx.h of 1.3 and 1.4, not in the public headers).
    const unsigned context = starpu_sched_ctx_get_context();
    const starpu_sched_policy* policy =
        starpu_sched_ctx_get_sched_policy(context == STARPU_NMAX_SCHED_CTXS ? 0U : context);
    if (policy != nullptr && policy->policy_name != nullptr) {
        plan.sched = policy->policy_name;
    }
    const auto& asked = plan.workersAsked;
    if (plan.workers != asked.value) {
        out << "starscope record: warning: "
            << (asked.source == SettingSource::Option ? std::string("--workers")
                : asked.source == SettingSource::Environment
                    ? asked.variable
                    : std::string("one per hardware thread"))
            << " asked for " << asked.value << " CPU workers, StarPU started " << plan.workers
            << "; run.json records " << plan.workers << "\n"
            << std::flush;
    }
    if (plan.sched != plan.schedAsked.value) {
        out << "starscope record: warning: scheduler " << plan.schedAsked.value
            << " asked, StarPU runs " << plan.sched << "; run.json records " << plan.sched << "\n"
            << std::flush;
    }
}

std::optional<std::uint64_t> executedTasks() {
    std::uint64_t total = 0;
    const auto workers = starpu_worker_get_count();
    for (unsigned w = 0; w < workers; ++w) {
        starpu_profiling_worker_info info{};
        if (starpu_profiling_worker_get_info(static_cast<int>(w), &info) != 0) {
            return std::nullopt;
        }
        total += static_cast<std::uint64_t>(info.executed_tasks);
    }
    return total;
}

// This rank's part of a data-parallel run, for rank 0's run.json.
RankFigures rankFigures(int rank, const RecordedRun& record) {
    RankFigures figures;
    figures.rank = rank;
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    figures.host = host;
    figures.status = record.status;
    figures.error = record.error;
    figures.interruptSignal = record.interruptSignal;
    figures.wallSeconds = record.wallSeconds;
    figures.tasksExecuted = record.tasksExecuted;
    figures.weightsFile = record.weightsFile;
    if (record.train) {
        for (const auto& epoch : record.train->epochs) {
            figures.batches += epoch.batches;
        }
        if (!record.train->epochs.empty()) {
            figures.trainLoss = record.train->epochs.back().loss;
        }
    }
    return figures;
}

// The job failed when any rank failed, and the error names every rank that did (rank 0's own
// error is among them); it was interrupted when any rank stopped early (they agree on the batch,
// so all of them did), by the signal a rank got: a signal to one rank stops the others through
// their agreement, without a signal of their own.
void mergeRankStatus(RecordedRun& record) {
    std::string failures;
    for (const auto& rank : record.ranks) {
        if (record.interruptSignal == 0 && rank.interruptSignal != 0) {
            record.interruptSignal = rank.interruptSignal;
        }
        if (rank.status == RunStatus::Failed) {
            failures += (failures.empty() ? "" : "; ") + std::string("rank ")
                        + std::to_string(rank.rank) + " on " + rank.host + " failed: " + rank.error;
        }
    }
    if (!failures.empty()) {
        record.status = RunStatus::Failed;
        record.error = failures;
    }
}

} // namespace

int exitCodeFor(const RecordOutcome& outcome) {
    switch (outcome.status) {
    case RunStatus::Completed:
        return 0;
    case RunStatus::Interrupted: {
        const int signal = outcome.record.interruptSignal;
        return exitCodeForSignal(signal != 0 ? signal : SIGINT);
    }
    case RunStatus::Failed:
    case RunStatus::NotRun:
        break;
    }
    return 1;
}

WorkloadResult<RecordOutcome> executeRecord(RecordPlan& plan,
                                            const std::vector<std::string>& command,
                                            std::ostream& progress, ProgressStyle style,
                                            RankGroup* group) {
    // Installed before anything is written, so that a Ctrl-C from here on, even during
    // start-up, ends in a clean, interrupted run instead of killing the process; before this
    // point nothing has been written and the default action is right.
    g_stop.store(false);
    g_signals.store(0);
    g_firstSignal.store(0);
    g_quietSignals.store(group != nullptr && std::getenv(kLaunchedRanksVariable) != nullptr);
    ScopedStopSignals signals(onRecordSignal);
    std::optional<LauncherStopWatch> launcherStop;
    if (group != nullptr) {
        launcherStop.emplace(onRecordStop);
    }
    // Of the ranks of a data-parallel run, rank 0 prepares (and locks) the one run folder.
    const bool leader = group == nullptr || group->rank() == 0;
    std::optional<FolderLock> lock;
    if (leader) {
        auto prepared = prepareRunFolder(plan.outDir, plan.options.force);
        if (group != nullptr) {
            group->shareFolderReady(static_cast<bool>(prepared));
        }
        if (!prepared) {
            return fail(prepared.error());
        }
        if (plan.outExists && plan.options.force) {
            removeRunArtifacts(plan.outDir);
        }
        lock.emplace(std::move(prepared->lock));
    } else if (!group->shareFolderReady(false)) {
        return workloadError(ErrorCode::Io,
                             "rank 0 could not prepare the run folder (its message says why)",
                             plan.outDir.string());
    }
    warnIfTraceMayNotFit(plan, progress);
    configureStarpu(plan);
    RecordOutcome outcome;
    RecordedRun& record = outcome.record;
    record.command = command;
    record.startedAt = utcNow();
    const auto start = Clock::now();
    // StarPU 1.4 starts FxT with every category whatever STARPU_FXT_EVENTS says; this call,
    // before starpu_init, makes it start with the set the plan put into that variable.
    if (plan.events.applies) {
        starpu_fxt_autostart_profiling(1);
    }
    // Armed from starpu_init to the end of starpu_shutdown: libfxt writes (and may exit) at
    // init, whenever a buffer is full during the run, and at shutdown.
    std::optional<FxtExitGuard> fxtGuard(std::in_place, plan.outDir);
    const int status = group != nullptr ? group->startRuntime() : starpu_init(nullptr);
    if (status != 0) {
        std::error_code ec;
        if (!plan.outExists && leader) {
            fs::remove_all(plan.outDir, ec);
        }
        return workloadError(ErrorCode::Runtime,
                             std::string("starpu_init failed: ") + std::strerror(-status));
    }
    readStartedSettings(plan, progress);
    std::optional<TraceRescue> rescue;
    if (group != nullptr && plan.trace.value) {
        rescue.emplace(rankProfFile(plan.outDir, group->rank()), group->rank());
    }
    {
        starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
        WorkerCounters workerCounters;
        workerCounters.start();
        RaplMeter rapl;
        rapl.start();
        SdeArenaReader sde;
        ProgressLine line(progress, style);
        const auto trainStart = Clock::now();
        Trainer trainer(*plan.dataset, plan.train);
        auto report = trainer.run(
            g_stop, [&line](const Progress& p) { line(p); }, &sde,
            group != nullptr ? &group->exchange() : nullptr);
        line.finish();
        record.wallSeconds = std::chrono::duration<double>(Clock::now() - trainStart).count();
        record.energy = rapl.stop();
        record.papi = workerCounters.stop();
        record.sde = sde.report();
        record.tasksExecuted = executedTasks();
        if (report) {
            record.status = report->interrupted ? RunStatus::Interrupted : RunStatus::Completed;
            if (report->interrupted) {
                record.interruptSignal = g_firstSignal.load();
            }
            record.train = std::move(report.value());
        } else {
            record.status = RunStatus::Failed;
            record.error = report.error().describe();
        }
        // FxT writes its buffer into the run folder at shutdown, and libfxt exits the process
        // when it cannot: say what is lost before that.
        if (std::error_code ec; !fs::is_directory(plan.outDir, ec)) {
            progress << "starscope record: the run folder " << plan.outDir.string()
                     << " disappeared during the run; its trace and run.json cannot be written\n"
                     << std::flush;
        }
        if (rescue) {
            rescue->disarm();
        }
        if (group == nullptr) {
            starpu_shutdown();
        } else if (auto weights = group->stopRuntime(plan.outDir); !weights) {
            record.status = RunStatus::Failed;
            record.error = weights.error().describe();
        } else {
            record.weightsFile = *weights;
        }
        fxtGuard.reset();
    }
    if (group != nullptr) {
        // Every rank's figures to rank 0, which writes the one run.json; the others are done.
        record.ranks = group->gather(rankFigures(group->rank(), record));
        if (!leader) {
            outcome.status = record.status;
            signals.leaveBehind(onSignalAfterTheRun);
            return outcome;
        }
        mergeRankStatus(record);
    }
    record.totalSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    record.traceFiles = traceFiles(plan.outDir);
    if (plan.trace.value && record.traceFiles.empty() && record.status != RunStatus::Failed) {
        record.status = RunStatus::Failed;
        record.error = "StarPU wrote no " + std::string(tracer::run::kProfFilePrefix) + "* into " + plan.outDir.string();
    }
    if (const auto cut = traceCutProblem(plan.outDir, record.traceFiles); !cut.empty()) {
        record.status = RunStatus::Failed;
        record.error = (record.error.empty() ? "" : record.error + "; ") + cut;
    }
    outcome.status = record.status;
    outcome.runJson = tracer::run::RunFolder(plan.outDir).runJson();
    auto written = writeRunJson(outcome.runJson, plan, record);
    if (!written) {
        outcome.status = RunStatus::Failed;
        record.error += (record.error.empty() ? "" : "; ") + written.error().describe()
                        + fullDiskNote(plan.outDir);
    }
    signals.leaveBehind(onSignalAfterTheRun);
    return outcome;
}

} // namespace starscope::workloads
