#include "workloads/record/program_recorder.hpp"

#include "common/text.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/run/run_folder.hpp"
#include "workloads/record/fxt_started_note.hpp"
#include "workloads/record/mpi_launch.hpp"
#include "workloads/record/run_folder_setup.hpp"
#include "workloads/record/run_json.hpp"
#include "workloads/sigint_handler.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <optional>
#include <ostream>
#include <spawn.h>
#include <starpu.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace starscope::workloads {

namespace fs = std::filesystem;
namespace run = tracer::run;
using run::RunStatus;

namespace {

std::atomic<pid_t> g_child{0}; // the program, when record runs it itself (not under mpirun)
StopSignals g_stops;
static_assert(std::atomic<pid_t>::is_always_lock_free, "the signal handler needs lock-free atomics");

// A Ctrl-C at the terminal (si_code SI_KERNEL) reaches the whole foreground process group, the
// program too: passing it on would give the program two. A signal sent to record alone (kill,
// a service manager) is passed on. Under mpirun, whose ranks run in process groups of their own
// that the terminal's Ctrl-C never reaches, every signal is passed on to the ranks as the
// SIGTERM mpirun would send, at once, by waitForMpirun (outside the handler). record itself
// waits for the program whatever comes: it is the program that decides when it ends, and StarPU
// writes its trace when SIGINT ends it.
extern "C" void onProgramSignal(int signal, siginfo_t* info, void*) {
    const int count = g_stops.note(signal);
    const bool fromTerminal = info != nullptr && info->si_code == SI_KERNEL;
    const pid_t child = g_child.load();
    if (!fromTerminal && child > 0) {
        ::kill(child, signal);
    }
    if (count == 1) {
        writeFromHandler("\nstarscope record: ");
        writeFromHandler(stopSignalName(signal));
        writeFromHandler(child <= 0 ? ": passed on to every rank as SIGTERM, as mpirun passes a stop "
                                      "on; waiting for them to end\n"
                         : fromTerminal
                             ? ": the program got it too; waiting for it to end (StarPU writes "
                               "its trace when SIGINT ends a program)\n"
                             : ": passed on to the program; waiting for it to end (StarPU writes "
                               "its trace when SIGINT ends a program)\n");
    }
}

// This process's environment with the plan's StarPU variables that record sets.
std::vector<std::string> childEnvironment(const ProgramPlan& plan) {
    std::vector<std::string> out;
    const auto setByRecord = [&](const std::string& entry) {
        for (const auto& v : plan.environment) {
            if (v.source != SettingSource::Environment && entry.starts_with(v.name + "=")) {
                return true;
            }
        }
        return false;
    };
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
        if (!setByRecord(*entry)) {
            out.emplace_back(*entry);
        }
    }
    for (const auto& v : plan.environment) {
        if (v.source != SettingSource::Environment) {
            out.push_back(v.name + "=" + v.value);
        }
    }
    return out;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
    std::vector<char*> out;
    for (auto& s : strings) {
        out.push_back(s.data());
    }
    out.push_back(nullptr);
    return out;
}

// Starts the program in record's process group (a Ctrl-C at the terminal reaches it as it
// would without record; its stdin, stdout and stderr are record's), with the stop signals and
// SIGPIPE at their default action, as a shell starts it. 0 or posix_spawn's error.
int spawnProgram(const ProgramPlan& plan, pid_t& pid) {
    auto argv = plan.childArgv;
    auto environment = childEnvironment(plan);
    auto argvPointers = pointers(argv);
    auto environmentPointers = pointers(environment);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t defaults;
    sigemptyset(&defaults);
    for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
        sigaddset(&defaults, signal);
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
    const int error = ::posix_spawn(&pid, argv.front().c_str(), nullptr, &attributes,
                                    argvPointers.data(), environmentPointers.data());
    posix_spawnattr_destroy(&attributes);
    return error;
}

// The program's wait status. Waits for the exit without reaping first: until it is reaped the
// pid cannot be reused, so the signal handler never signals a stranger.
int waitForProgram(pid_t pid) {
    siginfo_t info{};
    while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) < 0
           && errno == EINTR) {
    }
    g_child.store(0);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

// Why a program that ended so wrote no trace, for the refusal.
// fxtStarted: its StarPU started FxT tracing (the preloaded note, record/fxt_started_note.hpp).
std::string noTraceMessage(const ProgramPlan& plan, const run::ProgramRecord& program,
                           int passedOnToRanks, const std::optional<RankEnd>& endedFirst,
                           bool fxtStarted) {
    std::string message =
        plan.options.argv.front() + " wrote no FxT trace into " + plan.folder.dir.string();
    if (passedOnToRanks != 0) {
        return message + ": " + stopSignalName(passedOnToRanks)
               + ", passed on to every rank as SIGTERM (as mpirun passes a stop on), ended them "
                 "before StarPU wrote their traces (StarPU writes a trace at starpu_shutdown; a "
                 "program that shuts StarPU down on SIGTERM keeps it); nothing was kept";
    }
    if (endedFirst) {
        return message + ": rank " + std::to_string(endedFirst->rank) + " (pid "
               + std::to_string(endedFirst->pid)
               + ") ended first, while the others ran, and mpirun then ended them with SIGTERM, "
                 "which ends a StarPU program before it writes its trace; nothing was kept";
    }
    if (program.signal) {
        return message + ": " + program.signalName
               + " ended it before StarPU wrote its trace (StarPU writes it at starpu_shutdown, or "
                 "when "
                 "SIGINT ends the program); nothing was kept";
    }
    const std::string exited =
        program.exitCode != 0 ? " and exited with status " + std::to_string(*program.exitCode) : "";
    if (fxtStarted) {
        return message + exited
               + ": its StarPU started FxT tracing, but the program ended before starpu_shutdown, "
                 "where StarPU writes the trace (an exit() or _exit() before starpu_shutdown loses "
                 "it); nothing was kept";
    }
    return message + exited
           + ": is it linked against a StarPU built with FxT? (a StarPU without FxT ignores "
             "STARPU_FXT_TRACE; "
             "`ldd PROGRAM | grep starpu` names its library, which FxT builds link to libfxt; a "
             "script must "
             "pass the environment on to it); nothing was kept";
}

// How the program's end reads in run.json and which exit status record returns.
void applyEnd(int waitStatus, run::ProgramRecord& program, run::RunRecord& record, int& exitCode) {
    const std::string name = std::filesystem::path(program.argv.front()).filename().string();
    if (WIFSIGNALED(waitStatus)) {
        const int signal = WTERMSIG(waitStatus);
        program.signal = signal;
        program.signalName = signalName(signal);
        exitCode = exitCodeForSignal(signal);
        const bool stop = signal == SIGINT || signal == SIGTERM || signal == SIGHUP;
        record.status = stop ? RunStatus::Interrupted : RunStatus::Failed;
        if (stop) {
            record.interruptedBy = program.signalName;
        } else {
            record.error = name + " was killed by " + program.signalName;
        }
        return;
    }
    program.exitCode = WIFEXITED(waitStatus) ? WEXITSTATUS(waitStatus) : 1;
    exitCode = *program.exitCode;
    record.status = exitCode == 0 ? RunStatus::Completed : RunStatus::Failed;
    if (exitCode != 0) {
        record.error = name + " exited with status " + std::to_string(exitCode);
    }
}

// What the trace holds: its StarPU layout (the release series: StarPU writes no version), the
// workers and the tasks. A trace starscope cannot read still makes a run; the summary says why.
void readBackTrace(const fs::path& dir, run::RunRecord& record, ProgramOutcome& outcome) {
    auto trace = tracer::readTrace(dir);
    if (!trace) {
        outcome.traceProblem = trace.error().describe();
        record.starpuVersionFrom = run::StarpuVersionSource::Unknown;
        return;
    }
    const auto layout = trace->metadata.find("starpu.layout");
    const auto first = trace->metadata.find("starpu.layout.0");
    const auto& found = layout != trace->metadata.end() ? layout : first;
    if (found != trace->metadata.end()) {
        // "1.3.10 (how it was recognised)": the series is what the layout tells.
        const std::string& text = found->second;
        const auto dot = text.find('.');
        const auto second = dot == std::string::npos ? std::string::npos : text.find('.', dot + 1);
        record.starpuVersion =
            text.substr(0, second == std::string::npos ? text.find(' ') : second);
        record.starpuVersionFrom = run::StarpuVersionSource::TraceLayout;
    } else {
        record.starpuVersionFrom = run::StarpuVersionSource::Unknown;
    }
    const auto summary = tracer::summarize(*trace);
    outcome.workers = summary.workers;
    outcome.tasks = summary.tasks;
    record.workers = summary.workers;
    record.tasks.executed = summary.tasks;
}

} // namespace

Result<ProgramOutcome, ProgramRecordError> executeProgramRecord(const ProgramPlan& plan,
                                                                std::ostream& err) {
    g_child.store(0);
    g_stops.reset();
    ScopedStopSignals signals(onProgramSignal);
    auto prepared = prepareRunFolder(plan.folder.dir, plan.options.force);
    if (!prepared) {
        return fail(ProgramRecordError{prepared.error(), 2});
    }
    const bool created = prepared->created;
    std::optional<SetAsideRunFiles> previous;
    if (!created) {
        previous.emplace(plan.folder.dir);
    }
    // Leaves the folder as it was: removed when record made it, else the earlier run's files
    // put back (SetAsideRunFiles' destructor).
    const auto undo = [&] {
        std::error_code ec;
        if (created) {
            fs::remove_all(plan.folder.dir, ec);
        }
    };
    if (const int signal = g_stops.first.load(); signal != 0) {
        undo();
        return fail(ProgramRecordError{
            WorkloadError{ErrorCode::Runtime,
                          std::string(stopSignalName(signal))
                              + " before the program started: nothing was recorded",
                          {},
                          {}},
            exitCodeForSignal(signal)});
    }

    ProgramOutcome outcome;
    run::RunRecord& record = outcome.record;
    record.workload = run::WorkloadKind::Command;
    record.command = {"starscope", "record", "--"};
    record.command.insert(record.command.end(), plan.options.argv.begin(), plan.options.argv.end());
    run::ProgramRecord program{
        plan.options.argv, plan.executable.string(), plan.cwd.string(), {}, {}, {}};
    record.startedAt = utcNow();
    err << "starscope record: running " << shellCommandLine(plan.childArgv) << " with FxT "
        << (plan.trace.value ? "tracing into " + plan.folder.dir.string() : std::string("off"))
        << "\n"
        << std::flush;

    if (plan.options.ranks > 1) {
        setMpirunDefaults();
        adoptOrphanedRanks();
    }
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (const int error = spawnProgram(plan, pid); error != 0) {
        undo();
        return fail(ProgramRecordError{
            WorkloadError{ErrorCode::Runtime,
                          std::string("cannot run the program: ") + std::strerror(error),
                          plan.childArgv.front(),
                          {}},
            2});
    }
    const bool underMpirun = plan.options.ranks > 1;
    if (!underMpirun) {
        g_child.store(pid);
        // A signal that came between the check above and the spawn.
        if (const int signal = g_stops.first.load(); signal != 0) {
            ::kill(pid, signal);
        }
    }
    std::optional<RankEnd> endedFirst;
    int waitStatus = 0;
    if (underMpirun) {
        const auto end = waitForMpirun(pid, g_stops, PassOn::AsSigterm);
        waitStatus = end.status;
        endedFirst = rankThatEndedFirst(end);
    } else {
        waitStatus = waitForProgram(pid);
    }
    const double wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    applyEnd(waitStatus, program, record, outcome.exitCode);
    if (const int signal = g_stops.first.load();
        underMpirun && signal != 0 && record.status == RunStatus::Failed) {
        // The ranks ended on the signal record passed on; mpirun exits with a status of its own
        // then (130 when a rank ended on SIGINT, 1 when it ended the job itself).
        record.status = RunStatus::Interrupted;
        record.error.clear();
        record.interruptedBy = stopSignalName(signal);
        outcome.exitCode = exitCodeForSignal(signal);
    } else if (signal != 0 && record.interruptedBy.empty() && record.status != RunStatus::Completed) {
        // The program ended otherwise than by the signal record passed on (its own handler).
        record.interruptedBy = stopSignalName(signal);
    }
    if (endedFirst && record.status == RunStatus::Failed) {
        record.error += "; rank " + std::to_string(endedFirst->rank) + " (pid "
                        + std::to_string(endedFirst->pid) + ") ended first, while the others ran";
    }

    // Taken away before anything else looks at the folder's files.
    const bool fxtStarted = takeFxtStartedNote(plan.folder.dir);
    for (const auto& file : tracer::findProfFiles(plan.folder.dir)) {
        record.fxt.traceFiles.push_back(file.filename().string());
    }
    if (plan.trace.value && record.fxt.traceFiles.empty()) {
        undo();
        const int code = outcome.exitCode != 0 ? outcome.exitCode : 1;
        return fail(ProgramRecordError{
            WorkloadError{ErrorCode::Runtime,
                          noTraceMessage(plan, program, underMpirun ? g_stops.first.load() : 0,
                                         endedFirst, fxtStarted),
                          {},
                          {}},
            code});
    }
    if (const auto cut = cutTraceFiles(plan.folder.dir, record.fxt.traceFiles); !cut.empty()) {
        record.status = RunStatus::Failed;
        record.error += (record.error.empty() ? "" : "; ") + cut;
        outcome.exitCode = outcome.exitCode != 0 ? outcome.exitCode : 1;
    }
    record.program = std::move(program);
    record.ranks = std::max<std::uint64_t>(record.fxt.traceFiles.size(), 1);
    record.traced = plan.trace.value;
    record.fxt.prefix = plan.folder.dir.string();
    record.fxt.bufferSizeMb = plan.traceBuffer.value;
    record.fxt.flushes = measureFlushes(plan.folder.dir, record.fxt.traceFiles);
    if (plan.trace.value) {
        record.fxt.events = plan.events.set.value;
    }
    for (const auto& v : plan.environment) {
        record.environment.push_back({v.name, v.value, settingSourceName(v.source)});
        if (v.name == "STARPU_SCHED") {
            record.scheduler = v.value;
        }
    }
    record.starscopeStarpu = linkedStarpuVersion();
    record.starpuVersionFrom = run::StarpuVersionSource::Unknown;
    record.wallTimeS = wallSeconds;
    record.totalTimeS = wallSeconds;
    if (plan.trace.value) {
        readBackTrace(plan.folder.dir, record, outcome);
    }
    outcome.runJson = run::RunFolder(plan.folder.dir).runJson();
    if (auto written = run::writeRunRecord(outcome.runJson, record); !written) {
        undo();
        return fail(ProgramRecordError{
            WorkloadError{ErrorCode::Io, written.error().message, outcome.runJson.string(), {}},
            outcome.exitCode != 0 ? outcome.exitCode : 1});
    }
    if (previous) {
        previous->discard();
    }
    signals.leaveBehind(onSignalAfterTheRun);
    return outcome;
}

} // namespace starscope::workloads
