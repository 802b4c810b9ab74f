#pragma once
// Whether a stop signal record got also reached its process group, so the program record runs
// in that group has it already. A terminal's Ctrl-C, `kill -INT -- -PGID` (job schedulers,
// `timeout`) and a service manager signalling every process of its cgroup all reach the program
// themselves; `kill PID` of record alone does not. siginfo cannot tell a kill(2) to the group
// from one to record (both are SI_USER from the same sender), and passing a group's SIGINT on
// gives the program two: StarPU's handler writes the trace on one thread while the second
// starts writing it again on another, and the prof file is destroyed.
//
// The witness is a process of record's own, in record's process group and cgroup, that blocks
// the stop signals and waits: a signal sent to the group stays pending in it, where
// /proc/PID/status shows it (ShdPnd). It dies with record (PR_SET_PDEATHSIG).

#include <chrono>
#include <optional>
#include <sys/types.h>

namespace starscope::workloads {

class GroupSignalWitness {
public:
    // Starts the witness; nullopt when it could not be forked.
    static std::optional<GroupSignalWitness> start();

    GroupSignalWitness(GroupSignalWitness&& other) noexcept;
    GroupSignalWitness& operator=(GroupSignalWitness&&) = delete;
    GroupSignalWitness(const GroupSignalWitness&) = delete;
    GroupSignalWitness& operator=(const GroupSignalWitness&) = delete;
    // Ends and reaps the witness.
    ~GroupSignalWitness();

    // Whether `signal` has reached the witness, looking for up to `grace`: the kernel queues a
    // group's signal to each member in turn within one kill(2), so it may reach record a moment
    // before the witness.
    bool received(int signal, std::chrono::milliseconds grace) const;

    pid_t pid() const { return m_pid; }

private:
    explicit GroupSignalWitness(pid_t pid) : m_pid(pid) {}
    pid_t m_pid = -1;
};

} // namespace starscope::workloads
