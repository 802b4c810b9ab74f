#pragma once
// What `record` measures besides the trace: hardware counters per StarPU worker through PAPI
// (instructions, cycles, LLC loads/stores and misses), package energy through RAPL's powercap
// files, and the arenas' software-defined counters read back through PAPI's sde component.
// Where something cannot be measured the report says so with the reason (PAPI's own message,
// the errno of a sysfs file), never with zeros.

#include "runtime/arena.hpp"
#include "runtime/arena_counters.hpp"
#include "workloads/train/trainer.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace starscope::workloads {

// Initialises PAPI once in the process (with thread support); the error is PAPI's message.
WorkloadResult<Done> initPapi();

struct PapiEventReport {
    std::string name;
    bool available = false;
    std::string reason;               // why not, when unavailable
    std::vector<long long> perWorker; // indexed like PapiReport::workers
    long long total = 0;
};

struct PapiReport {
    bool available = false; // at least one event counted on every worker
    std::string reason;
    std::vector<std::string> workers; // StarPU worker names
    std::vector<PapiEventReport> events;
};

// Event sets started and stopped inside each CPU worker thread (starpu_execute_on_each_worker).
class WorkerCounters {
public:
    static const std::vector<std::string>& eventNames();
    WorkerCounters();
    ~WorkerCounters();
    WorkerCounters(const WorkerCounters&) = delete;
    WorkerCounters& operator=(const WorkerCounters&) = delete;
    // After starpu_init, before the work to measure.
    void start();
    // After the work; every worker stops and reports.
    PapiReport stop();

    struct State;

private:
    std::unique_ptr<State> m_state;
};

struct EnergyReport {
    bool available = false;
    std::string reason;
    double joules = 0.0;
    std::map<std::string, double> domains; // RAPL domain name -> joules
};

// Package energy from /sys/class/powercap/intel-rapl:* (energy_uj, with wrap-around).
class RaplMeter {
public:
    void start();
    EnergyReport stop() const;

private:
    struct Domain {
        std::string name;
        std::string path;
        std::uint64_t start = 0;
        std::uint64_t range = 0;
    };
    std::vector<Domain> m_domains;
    std::string m_reason;
};

struct SdeReport {
    bool available = false;
    std::string reason;
    // arena -> counter -> value, as read through PAPI ("sde:::starscope::<arena>::<counter>").
    std::map<std::string, std::map<std::string, long long>> values;
};

// Exports the arenas' counters (runtime::ArenaCounters) when they are created, starts one PAPI
// event set on them, and reads it when training finishes: the cumulative counters then cover
// the whole run.
class SdeArenaReader : public ArenaObserver {
public:
    // The counters read per arena (PAPI's sde component caps simultaneous events).
    static const std::vector<std::string>& counterNames();
    SdeArenaReader();
    ~SdeArenaReader() override;
    SdeArenaReader(const SdeArenaReader&) = delete;
    SdeArenaReader& operator=(const SdeArenaReader&) = delete;

    void arenasCreated(std::span<const runtime::Arena* const> arenas) override;
    void trainingFinished(std::span<const runtime::Arena* const> arenas) override;
    const SdeReport& report() const { return m_report; }

private:
    void cleanup();

    std::unique_ptr<runtime::ArenaCounters> m_counters;
    int m_eventSet = -1;
    bool m_started = false;
    std::vector<std::pair<std::string, std::string>> m_events; // (arena, counter) in set order
    SdeReport m_report;
};

} // namespace starscope::workloads
