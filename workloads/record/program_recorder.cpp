#include "workloads/record/program_recorder.hpp"

#include "common/text.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/run_folder/run_folder.hpp"
#include "workloads/record/free_space.hpp"
#include "workloads/record/fxt_started_note.hpp"
#include "workloads/record/group_signal_witness.hpp"
#include "workloads/record/mpi_launch.hpp"
#include "workloads/record/run_files.hpp"
#include "workloads/record/run_folder_setup.hpp"
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
#include <thread>
#include <unistd.h>

extern char** environ;

namespace starscope::workloads {

namespace fs = std::filesystem;
namespace run = tracer::run;
using run::RunStatus;

namespace {

StopSignals g_stops;
// A signal came from the terminal (si_code SI_KERNEL), which signals its whole foreground
// process group: the program got it too. What decides when no witness could be started.
std::atomic<bool> g_fromTerminal{false};
std::atomic<bool> g_underMpirun{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs lock-free atomics");

// Only counts: whether and how a signal is passed on is decided outside the handler
// (waitForProgram, waitForMpirun). Under mpirun, whose ranks run in process groups of their own
// that the terminal's Ctrl-C never reaches, every signal is passed on to the ranks as the
// SIGTERM mpirun would send, at once, by waitForMpirun. record itself waits for the program
// whatever comes: it is the program that decides when it ends, and StarPU writes its trace when
// SIGINT ends it.
extern "C" void onProgramSignal(int signal, siginfo_t* info, void*) {
    if (info != nullptr && info->si_code == SI_KERNEL) {
        g_fromTerminal.store(true);
    }
    if (g_stops.note(signal) == 1 && g_underMpirun.load()) {
        writeFromHandler("\nstarscope record: ");
        writeFromHandler(stopSignalName(signal));
        writeFromHandler(
            ": passed on to every rank as SIGTERM, as mpirun passes a stop on; waiting "
            "for them to end\n");
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
// SIGPIPE at their default action, as a shell starts it, except those the caller ignores
// (`nohup` ignores SIGHUP), which stay ignored. The run folder's lock goes with it (lockFd, >= 0):
// should record be killed, the folder stays locked until the program ends, and no later
// `record --force` can write it while this program still does. 0 or posix_spawn's error.
int spawnProgram(const ProgramPlan& plan, const ScopedStopSignals& signals, int lockFd,
                 pid_t& pid) {
    auto argv = plan.childArgv;
    auto environment = childEnvironment(plan);
    auto argvPointers = pointers(argv);
    auto environmentPointers = pointers(environment);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t defaults;
    sigemptyset(&defaults);
    for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
        if (!signals.callerIgnores(signal)) {
            sigaddset(&defaults, signal);
        }
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    // The same descriptor: glibc then clears its close-on-exec flag in the child alone.
    posix_spawn_file_actions_adddup2(&files, lockFd, lockFd);
    const int error = ::posix_spawn(&pid, argv.front().c_str(), &files, &attributes,
                                    argvPointers.data(), environmentPointers.data());
    posix_spawn_file_actions_destroy(&files);
    posix_spawnattr_destroy(&attributes);
    return error;
}

// How long a signal to record's process group may take to show in the witness: the kernel
// queues it to every member within one kill(2).
constexpr auto kGroupSignalGrace = std::chrono::milliseconds(50);
// How often waitForProgram looks at the program and at the signals record got.
constexpr auto kProgramPollInterval = std::chrono::milliseconds(10);

// Passes on to the program the stop signals record got that it did not get itself, one at
// most: a terminal's Ctrl-C, a signal to record's process group or to its cgroup reached the
// program already (the witness says so, or the terminal's si_code when there is none; a program
// that left record's process group gets them passed on), and a second SIGINT while StarPU
// writes its trace in its signal handler would have a second thread write it at once, which
// destroys it.
class SignalPassing {
public:
    SignalPassing(pid_t program, const std::optional<GroupSignalWitness>& witness,
                  std::ostream& err)
        : m_program(program), m_witness(witness), m_err(err) {}

    void handleNew() {
        for (const int count = g_stops.count.load(); m_handled < count; ++m_handled) {
            handle(m_handled == 0 ? g_stops.first.load() : g_stops.last.load());
        }
    }

private:
    bool reachedProgram(int signal) const {
        const bool sameGroup = ::getpgid(m_program) == ::getpgrp();
        if (m_witness) {
            return sameGroup && m_witness->received(signal, kGroupSignalGrace);
        }
        return sameGroup && g_fromTerminal.load();
    }

    void handle(int signal) {
        m_err << "\nstarscope record: " << stopSignalName(signal);
        // Whether this one reached the program too no longer matters (the witness keeps a
        // signal pending once it came, so it cannot tell a second one apart): record sends none.
        if (m_programGot != 0) {
            m_err
                << ": not passed on: the program got " << stopSignalName(m_programGot)
                << " already, and a second signal while StarPU writes its trace damages it (`kill "
                << m_program << "` reaches the program itself)\n"
                << std::flush;
            return;
        }
        m_programGot = signal;
        if (reachedProgram(signal)) {
            m_err << ": the program got it too";
        } else {
            ::kill(m_program, signal);
            m_err << ": passed on to the program";
        }
        m_err << "; waiting for it to end (StarPU writes its trace when SIGINT ends a program)\n"
              << std::flush;
    }

    pid_t m_program;
    const std::optional<GroupSignalWitness>& m_witness;
    std::ostream& m_err;
    int m_handled = 0;
    int m_programGot = 0; // the first stop signal the program got, from record or not
};

// The program's wait status. Looks for its end without reaping it: until it is reaped the pid
// cannot be reused, so a signal passed on never reaches a stranger.
int waitForProgram(pid_t pid, const std::optional<GroupSignalWitness>& witness, std::ostream& err) {
    SignalPassing passing(pid, witness, err);
    while (true) {
        passing.handleNew();
        siginfo_t info{};
        const int found =
            ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
        if ((found == 0 && info.si_pid == pid) || (found < 0 && errno != EINTR)) {
            break;
        }
        std::this_thread::sleep_for(kProgramPollInterval);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

// Why a program that ended so wrote no trace, for the refusal.
// fxtStarted: its StarPU started FxT tracing (the preloaded note, record/fxt_started_note.hpp).
std::string noTraceMessage(const ProgramPlan& plan, const run::ProgramRecord& program,
                           int passedOnToRanks, const std::optional<RankEnd>& endedFirst,
                           const std::string& mpirunKilled, bool fxtStarted) {
    std::string message =
        plan.options.argv.front() + " wrote no FxT trace into " + plan.folder.dir.string();
    if (!mpirunKilled.empty()) {
        message += ": " + mpirunKilled;
        return message
               + (endedFirst ? "; rank " + std::to_string(endedFirst->rank) + " (pid "
                                   + std::to_string(endedFirst->pid) + ") ended first"
                             : std::string())
               + "; nothing was kept";
    }
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

// "--ranks 4 started 4 ranks, the run folder holds 1 prof file (prof_file__0): ...".
std::string missingRankTraces(std::uint64_t ranks, const std::vector<std::string>& traceFiles) {
    std::string names;
    for (const auto& file : traceFiles) {
        names += (names.empty() ? "" : ", ") + file;
    }
    return "--ranks " + std::to_string(ranks) + " started " + std::to_string(ranks)
           + " ranks, the run folder holds " + std::to_string(traceFiles.size()) + " prof file"
           + (traceFiles.size() == 1 ? "" : "s") + " (" + names
           + "): a rank wrote no trace, or ranks wrote one file over each other (a program that "
             "does not use StarPU-MPI names its trace "
           + run::profFileName("USER", 0) + " on every rank)";
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
    // Counts only: the summary's figures (critical path, barriers) are the analyser's business.
    outcome.workers = trace->workerCount();
    outcome.tasks = trace->executedTaskCount();
    record.workers = outcome.workers;
    record.tasks.executed = outcome.tasks;
}

} // namespace

Result<ProgramOutcome, ProgramRecordError> executeProgramRecord(const ProgramPlan& plan,
                                                                std::ostream& err) {
    g_stops.reset();
    g_fromTerminal.store(false);
    const bool underMpirun = plan.options.ranks > 1;
    g_underMpirun.store(underMpirun);
    ScopedStopSignals signals(onProgramSignal);
    // Before the folder is locked: the witness holds none of record's files.
    const std::optional<GroupSignalWitness> witness =
        underMpirun ? std::optional<GroupSignalWitness>() : GroupSignalWitness::start();
    auto prepared = prepareRunFolder(plan.folder.dir, plan.options.force);
    if (!prepared) {
        return fail(ProgramRecordError{prepared.error(), 2});
    }
    const bool created = prepared->created;
    std::optional<SetAsideRunFiles> previous;
    if (!created) {
        previous.emplace(plan.folder.dir);
    }
    // Leaves the folder as it was when the program left no trace: removed when record made it,
    // else the earlier run's files put back (SetAsideRunFiles' destructor).
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
    std::optional<RunJsonRoom> room;
    if (plan.trace.value) {
        // Every rank keeps its own FxT buffer, which it writes whole at the end at least.
        const auto ranks = static_cast<std::uint64_t>(std::max(plan.options.ranks, 1));
        warnIfSpaceIsShort(plan.folder.dir, ranks * (plan.traceBuffer.value << 20), err);
        room.emplace(plan.folder.dir);
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

    if (underMpirun) {
        setMpirunDefaults();
        adoptOrphanedRanks();
    }
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (const int error = spawnProgram(plan, signals, prepared->lock.descriptor(), pid);
        error != 0) {
        undo();
        return fail(ProgramRecordError{
            WorkloadError{ErrorCode::Runtime,
                          std::string("cannot run the program: ") + std::strerror(error),
                          plan.childArgv.front(),
                          {}},
            2});
    }
    std::optional<RankEnd> endedFirst;
    std::string mpirunKilled;
    int waitStatus = 0;
    if (underMpirun) {
        const auto end = waitForMpirun(pid, g_stops, PassOn::AsSigterm);
        waitStatus = end.status;
        endedFirst = rankThatEndedFirst(end);
        mpirunKilled = describeMpirunKill(end);
    } else {
        waitStatus = waitForProgram(pid, witness, err);
    }
    const double wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    applyEnd(waitStatus, program, record, outcome.exitCode);
    if (const int signal = g_stops.first.load();
        underMpirun && signal != 0 && record.status == RunStatus::Failed && mpirunKilled.empty()) {
        // The ranks ended on the signal record passed on; mpirun exits with a status of its own
        // then (130 when a rank ended on SIGINT, 1 when it ended the job itself).
        record.status = RunStatus::Interrupted;
        record.error.clear();
        record.interruptedBy = stopSignalName(signal);
        outcome.exitCode = exitCodeForSignal(signal);
    } else if (signal != 0 && record.interruptedBy.empty()
               && record.status != RunStatus::Completed) {
        // The program ended otherwise than by the signal record passed on (its own handler).
        record.interruptedBy = stopSignalName(signal);
    }
    if (!mpirunKilled.empty()) {
        record.status = RunStatus::Failed;
        record.error = mpirunKilled;
        err << "starscope record: " << mpirunKilled << "\n" << std::flush;
    }
    if (endedFirst && record.status == RunStatus::Failed) {
        record.error += "; rank " + std::to_string(endedFirst->rank) + " (pid "
                        + std::to_string(endedFirst->pid) + ") ended first, while the others ran";
    }

    // Taken away before anything else looks at the folder's files.
    const bool fxtStarted = takeFxtStartedNote(plan.folder.dir);
    for (const auto& file : tracer::run::findProfFiles(plan.folder.dir)) {
        record.fxt.traceFiles.push_back(file.filename().string());
    }
    if (plan.trace.value && record.fxt.traceFiles.empty()) {
        undo();
        const int code = outcome.exitCode != 0 ? outcome.exitCode : 1;
        return fail(ProgramRecordError{
            WorkloadError{ErrorCode::Runtime,
                          noTraceMessage(plan, program, underMpirun ? g_stops.first.load() : 0,
                                         endedFirst, mpirunKilled, fxtStarted),
                          {},
                          {}},
            code});
    }
    const auto markFailed = [&](const std::string& why) {
        record.status = RunStatus::Failed;
        record.error += (record.error.empty() ? "" : "; ") + why;
        outcome.exitCode = outcome.exitCode != 0 ? outcome.exitCode : 1;
    };
    outcome.traceCut = traceCutProblem(plan.folder.dir, record.fxt.traceFiles);
    if (!outcome.traceCut.empty()) {
        markFailed(outcome.traceCut);
    }
    // The processes started, which readers compare with the prof files the folder holds.
    record.ranks = static_cast<std::uint64_t>(std::max(plan.options.ranks, 1));
    if (plan.trace.value && record.fxt.traceFiles.size() < record.ranks) {
        markFailed(missingRankTraces(record.ranks, record.fxt.traceFiles));
    }
    record.program = std::move(program);
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
    if (room) {
        room->release();
    }
    // The trace replaces an earlier run's (--force) and stays whatever becomes of run.json:
    // what was written stays.
    if (previous) {
        previous->discard();
    }
    if (auto written = run::writeRunRecord(outcome.runJson, record); !written) {
        return fail(ProgramRecordError{
            WorkloadError{ErrorCode::Io,
                          written.error().message + fullDiskNote(plan.folder.dir)
                              + "; the trace stays in " + plan.folder.dir.string()
                              + (record.error.empty() ? "" : " (" + record.error + ")"),
                          outcome.runJson.string(),
                          {}},
            outcome.exitCode != 0 ? outcome.exitCode : 1});
    }
    signals.leaveBehind(onSignalAfterTheRun);
    return outcome;
}

} // namespace starscope::workloads
