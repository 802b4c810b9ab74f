#include "workloads/record/mpi_launch.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <signal.h>
#include <string_view>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace starscope::workloads {

namespace {

// Open MPI's time between the signals mpirun sends to end a job (SIGCONT, SIGTERM, SIGKILL).
constexpr const char* kSigkillTimeoutVariable = "OMPI_MCA_odls_base_sigkill_timeout";

void setDefault(const char* name, const char* value) {
    ::setenv(name, value, 0);
}

// How often waitForMpirun looks at its signals and at mpirun: a stop reaches the ranks within
// this (a batch of the CNN takes 40 ms or more).
constexpr auto kPollInterval = std::chrono::milliseconds(10);

// How long record waits for the ranks of a killed mpirun to write what they can and end (Open
// MPI ends them itself one second after it lost mpirun).
constexpr auto kOrphansWait = std::chrono::minutes(1);

// What mpirun may still do after its last rank ended (see mpirunGraceAfterRanks), beyond its
// sigkill timeout: reap, print its report and exit.
constexpr auto kMpirunExitGrace = std::chrono::seconds(5);

// A rank's number, from the environment Open MPI started it with; -1 when unreadable.
int rankOf(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
    constexpr std::string_view kRank = "OMPI_COMM_WORLD_RANK=";
    for (std::string entry; std::getline(in, entry, '\0');) {
        if (entry.starts_with(kRank)) {
            return std::atoi(entry.c_str() + kRank.size());
        }
    }
    return -1;
}

// The fields of /proc/PID/stat after the command name ("STATE PPID ..."); empty when the process
// is gone. "PID (COMM) STATE ...": COMM may hold spaces and parentheses, the last ')' ends it.
std::string statFields(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat;
    std::getline(in, stat);
    const auto close = stat.rfind(')');
    return close == std::string::npos || close + 2 >= stat.size() ? std::string()
                                                                  : stat.substr(close + 2);
}

// Whether a rank mpirun started has ended: gone (mpirun reaped it), a zombie waiting to be reaped
// (mpirun reaps its ranks only between the steps of ending a job, 10 s apart), or its pid is
// another process's now (its parent is neither mpirun nor this process, which adopts orphans).
bool rankHasEnded(pid_t rank, pid_t mpirun) {
    const auto fields = statFields(rank); // "STATE PPID ..."
    if (fields.size() < 3 || fields[0] == 'Z') {
        return true;
    }
    const auto parent = static_cast<pid_t>(std::atoi(fields.c_str() + 2));
    return parent != mpirun && parent != ::getpid();
}

// Sends a signal to a rank the way mpirun does: to its process group when it leads one (a
// program's own children get it too), else to the process.
void signalRank(pid_t rank, int signal) {
    if (::getpgid(rank) == rank) {
        ::kill(-rank, signal);
    } else {
        ::kill(rank, signal);
    }
}

} // namespace

std::vector<std::string> mpirunCommand(int ranks, const std::vector<std::string>& program) {
    std::vector<std::string> command{"mpirun", "-np", std::to_string(ranks),
                                     // more ranks than cores on one machine
                                     "--oversubscribe",
                                     // the ranks share the cores: no rank pinned to one
                                     "--bind-to", "none"};
    command.insert(command.end(), program.begin(), program.end());
    return command;
}

void setMpirunDefaults() {
    if (::geteuid() == 0) {
        // Open MPI refuses to run as root without both.
        setDefault("OMPI_ALLOW_RUN_AS_ROOT", "1");
        setDefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    }
    // When mpirun ends a job (a signal of its own, a rank that failed), it sends SIGTERM one
    // timeout after SIGCONT and SIGKILL one more timeout later; the default of one second is too
    // soon for a rank to finish its batch and write its trace. mpirun also waits this long
    // whenever a rank exits non-zero, so it stays short.
    setDefault(kSigkillTimeoutVariable, "10");
    // Ranks on one machine share its cores: StarPU must not pin every rank's workers to the
    // same first cores.
    setDefault("STARPU_WORKERS_NOBIND", "1");
}

std::vector<pid_t> ranksStartedBy(pid_t mpirun) {
    std::vector<pid_t> ranks;
    std::error_code ec;
    const std::filesystem::path tasks = "/proc/" + std::to_string(mpirun) + "/task";
    // Any of mpirun's threads may have started a rank: each lists its own children.
    for (const auto& task : std::filesystem::directory_iterator(tasks, ec)) {
        std::ifstream in(task.path() / "children");
        for (pid_t pid = 0; in >> pid;) {
            ranks.push_back(pid);
        }
    }
    return ranks;
}

std::optional<RankEnd> rankThatEndedFirst(const MpirunEnd& end) {
    // Two seconds apart at least: ranks stopped together end within a second of each other.
    constexpr double kApartSeconds = 2.0;
    const auto& ranks = end.ranks;
    if (ranks.empty() || ranks.front().rank < 0
        || (ranks.size() > 1
            && ranks[1].endedAfterSeconds - ranks.front().endedAfterSeconds < kApartSeconds)) {
        return std::nullopt;
    }
    return ranks.front();
}

void adoptOrphanedRanks() {
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
}

std::chrono::seconds mpirunGraceAfterRanks() {
    const char* timeout = std::getenv(kSigkillTimeoutVariable);
    const long seconds = timeout != nullptr ? std::atol(timeout) : 0;
    return 2 * std::chrono::seconds(std::max(seconds, 0L)) + kMpirunExitGrace;
}

std::string describeMpirunKill(const MpirunEnd& end) {
    if (!end.mpirunKilledAfterSeconds) {
        return {};
    }
    return "mpirun had not ended "
           + std::to_string(static_cast<long>(*end.mpirunKilledAfterSeconds))
           + " s after its last rank: record killed it (SIGKILL)";
}

MpirunEnd waitForMpirun(pid_t mpirun, const StopSignals& stops, PassOn passOn) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const auto now = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    MpirunEnd end;
    std::map<pid_t, int> running; // rank processes seen and not yet ended, with their rank
    int passedOn = 0;
    bool mpirunEnded = false;
    bool sawRanks = false;
    std::optional<Clock::time_point> orphansDeadline;
    // While mpirun outlives every rank: since when (a plain value: GCC 12 takes an optional
    // time point for uninitialised).
    bool outlived = false;
    Clock::time_point lastRankEnded{};
    const auto grace = mpirunGraceAfterRanks();
    // Moves the ranks that `gone` says ended from running to end.ranks.
    const auto noteEnded = [&](const auto& gone) {
        for (auto it = running.begin(); it != running.end();) {
            if (gone(it->first)) {
                end.ranks.push_back({it->second, it->first, now()});
                it = running.erase(it);
            } else {
                ++it;
            }
        }
    };
    while (true) {
        if (!mpirunEnded) {
            int status = 0;
            const pid_t ended = ::waitpid(mpirun, &status, WNOHANG);
            if (ended == mpirun || (ended < 0 && errno != EINTR)) {
                end.status = status;
                mpirunEnded = true;
                orphansDeadline = Clock::now() + kOrphansWait;
            }
        }
        if (!mpirunEnded) {
            // Until mpirun is reaped its pid is not reused: its children are the job's ranks.
            const auto ranks = ranksStartedBy(mpirun);
            for (const pid_t pid : ranks) {
                const bool endedAlready =
                    std::any_of(end.ranks.begin(), end.ranks.end(),
                                [pid](const RankEnd& e) { return e.pid == pid; });
                if (endedAlready) {
                    continue; // a zombie mpirun has not reaped yet
                }
                // Read again while -1: a rank just forked may not have exec'd its program yet.
                if (auto [it, added] = running.try_emplace(pid, -1); it->second < 0) {
                    it->second = rankOf(pid);
                }
            }
            // Not when mpirun's list no longer holds it: an mpirun that is being killed lists no
            // children before waitpid says it ended, while its ranks live on (reparented to this
            // process) and write their traces.
            noteEnded([&](pid_t pid) { return rankHasEnded(pid, mpirun); });
            sawRanks = sawRanks || !end.ranks.empty() || !running.empty();
            if (!sawRanks || !running.empty()) {
                outlived = false;
            } else if (!outlived) {
                outlived = true;
                lastRankEnded = Clock::now();
            } else if (Clock::now() - lastRankEnded > grace) {
                // Reaped at the next turn; the ranks it left unreaped are this process's then.
                if (!end.mpirunKilledAfterSeconds) {
                    end.mpirunKilledAfterSeconds =
                        std::chrono::duration<double>(Clock::now() - lastRankEnded).count();
                }
                ::kill(mpirun, SIGKILL);
            }
            for (const int count = stops.count.load(); passedOn < count; ++passedOn) {
                const int signal = passOn == PassOn::AsSigterm ? SIGTERM : stops.last.load();
                if (ranks.empty()) {
                    ::kill(mpirun, signal);
                }
                for (const pid_t rank : ranks) {
                    signalRank(rank, signal);
                }
            }
        } else {
            // Ranks mpirun left behind are ours now: reap them as they end.
            while (::waitpid(-1, nullptr, WNOHANG) > 0) {
            }
            noteEnded([](pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; });
            if (running.empty() || Clock::now() > *orphansDeadline) {
                return end;
            }
        }
        std::this_thread::sleep_for(kPollInterval);
    }
}

} // namespace starscope::workloads
