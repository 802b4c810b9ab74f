#include "workloads/train_record/counters.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <papi.h>
#include <pthread.h>
#include <starpu.h>

namespace starscope::workloads {

namespace {

unsigned long threadId() {
    return static_cast<unsigned long>(::pthread_self());
}

std::string papiError(const char* call, int status) {
    const char* text = PAPI_strerror(status);
    return std::string(call) + ": "
           + (text != nullptr ? text : "PAPI error " + std::to_string(status));
}

// PAPI's reason for a disabled component, e.g. perf_event without a PMU.
std::string componentReason(const char* component) {
    const int index = PAPI_get_component_index(component);
    if (index < 0) {
        return {};
    }
    const PAPI_component_info_t* info = PAPI_get_component_info(index);
    if (info == nullptr || info->disabled == 0) {
        return {};
    }
    return std::string(component) + " component disabled: " + info->disabled_reason;
}

// Adds, starts and stops `name` alone in a fresh event set: "" when it can count here, else
// PAPI's reason.
std::string probeEvent(const std::string& name) {
    int set = PAPI_NULL;
    int status = PAPI_create_eventset(&set);
    if (status != PAPI_OK) {
        return papiError("PAPI_create_eventset", status);
    }
    std::string reason;
    status = PAPI_add_named_event(set, name.c_str());
    if (status != PAPI_OK) {
        reason = papiError("PAPI_add_named_event", status);
        const auto disabled = componentReason("perf_event");
        if (!disabled.empty()) {
            reason += " (" + disabled + ")";
        }
    } else if (status = PAPI_start(set); status != PAPI_OK) {
        reason = papiError("PAPI_start", status);
    } else {
        long long value = 0;
        if (status = PAPI_stop(set, &value); status != PAPI_OK) {
            reason = papiError("PAPI_stop", status);
        }
    }
    PAPI_cleanup_eventset(set);
    PAPI_destroy_eventset(&set);
    return reason;
}

} // namespace

WorkloadResult<Done> initPapi() {
    static std::once_flag once;
    static std::string failure;
    std::call_once(once, [] {
        if (PAPI_is_initialized() == PAPI_NOT_INITED) {
            const int version = PAPI_library_init(PAPI_VER_CURRENT);
            if (version != PAPI_VER_CURRENT) {
                failure = version < 0 ? papiError("PAPI_library_init", version)
                                      : "PAPI_library_init: header and library versions differ";
                return;
            }
        }
        if (const int status = PAPI_thread_init(threadId); status != PAPI_OK) {
            failure = papiError("PAPI_thread_init", status);
        }
    });
    if (!failure.empty()) {
        return workloadError(ErrorCode::Runtime, failure);
    }
    return Done{};
}

// ---- per-worker hardware counters

struct WorkerCounters::State {
    std::vector<std::string> events;     // the events that passed the probe
    std::vector<PapiEventReport> report; // one per eventNames() entry
    std::string reason;                  // why nothing can be counted
    struct Worker {
        int eventSet = PAPI_NULL;
        std::string error;
        std::vector<long long> values;
    };
    std::vector<Worker> workers; // indexed by StarPU worker id
};

const std::vector<std::string>& WorkerCounters::eventNames() {
    static const std::vector<std::string> names = {
        "PAPI_TOT_INS",          "PAPI_TOT_CYC",     "perf::LLC-loads",
        "perf::LLC-load-misses", "perf::LLC-stores", "perf::LLC-store-misses",
    };
    return names;
}

WorkerCounters::WorkerCounters() : m_state(std::make_unique<State>()) {}
WorkerCounters::~WorkerCounters() = default;

namespace {

void startOnWorker(void* arg) {
    auto& state = *static_cast<WorkerCounters::State*>(arg);
    const int id = starpu_worker_get_id();
    if (id < 0 || static_cast<std::size_t>(id) >= state.workers.size()) {
        return;
    }
    auto& worker = state.workers[static_cast<std::size_t>(id)];
    if (const int status = PAPI_register_thread(); status != PAPI_OK) {
        worker.error = papiError("PAPI_register_thread", status);
        return;
    }
    if (const int status = PAPI_create_eventset(&worker.eventSet); status != PAPI_OK) {
        worker.error = papiError("PAPI_create_eventset", status);
        return;
    }
    for (const auto& name : state.events) {
        if (const int status = PAPI_add_named_event(worker.eventSet, name.c_str());
            status != PAPI_OK) {
            worker.error = papiError("PAPI_add_named_event", status) + " (" + name + ")";
            return;
        }
    }
    if (const int status = PAPI_start(worker.eventSet); status != PAPI_OK) {
        worker.error = papiError("PAPI_start", status);
    }
}

void stopOnWorker(void* arg) {
    auto& state = *static_cast<WorkerCounters::State*>(arg);
    const int id = starpu_worker_get_id();
    if (id < 0 || static_cast<std::size_t>(id) >= state.workers.size()) {
        return;
    }
    auto& worker = state.workers[static_cast<std::size_t>(id)];
    if (worker.eventSet == PAPI_NULL) {
        return;
    }
    if (worker.error.empty()) {
        worker.values.assign(state.events.size(), 0);
        if (const int status = PAPI_stop(worker.eventSet, worker.values.data());
            status != PAPI_OK) {
            worker.error = papiError("PAPI_stop", status);
            worker.values.clear();
        }
    }
    PAPI_cleanup_eventset(worker.eventSet);
    PAPI_destroy_eventset(&worker.eventSet);
    PAPI_unregister_thread();
}

} // namespace

void WorkerCounters::start() {
    auto& state = *m_state;
    state.report.clear();
    state.events.clear();
    state.workers.assign(starpu_worker_get_count(), State::Worker{});
    if (auto init = initPapi(); !init) {
        state.reason = init.error().message;
        return;
    }
    for (const auto& name : eventNames()) {
        PapiEventReport event;
        event.name = name;
        event.reason = probeEvent(name);
        event.available = event.reason.empty();
        if (event.available) {
            state.events.push_back(name);
        }
        state.report.push_back(std::move(event));
    }
    if (state.events.empty()) {
        // The first event's reason stands for all: on a VM without a PMU they share it.
        state.reason = state.report.front().reason;
        return;
    }
    starpu_execute_on_each_worker(startOnWorker, &state, STARPU_CPU);
}

PapiReport WorkerCounters::stop() {
    auto& state = *m_state;
    PapiReport report;
    const auto workers = starpu_worker_get_count();
    for (unsigned w = 0; w < workers; ++w) {
        char name[64];
        starpu_worker_get_name(static_cast<int>(w), name, sizeof name);
        report.workers.emplace_back(name);
    }
    if (!state.events.empty()) {
        starpu_execute_on_each_worker(stopOnWorker, &state, STARPU_CPU);
        for (const auto& worker : state.workers) {
            if (!worker.error.empty() && state.reason.empty()) {
                state.reason = worker.error;
            }
        }
    }
    report.events = state.report;
    if (!state.reason.empty()) {
        report.reason = state.reason;
        for (auto& event : report.events) {
            if (event.available) {
                event.available = false;
                event.reason = state.reason;
            }
        }
        return report;
    }
    std::size_t counted = 0;
    for (auto& event : report.events) {
        if (!event.available) {
            continue;
        }
        for (const auto& worker : state.workers) {
            const long long value = worker.values.at(counted);
            event.perWorker.push_back(value);
            event.total += value;
        }
        ++counted;
    }
    report.available = counted > 0;
    return report;
}

// ---- RAPL energy

void RaplMeter::start() {
    namespace fs = std::filesystem;
    m_domains.clear();
    m_reason.clear();
    const fs::path root = "/sys/class/powercap";
    std::error_code ec;
    if (!fs::is_directory(root, ec)) {
        m_reason = root.string() + " does not exist (no powercap/RAPL interface on this machine)";
        return;
    }
    for (const auto& entry : fs::directory_iterator(root, ec)) {
        const auto dirName = entry.path().filename().string();
        // Top-level packages only ("intel-rapl:0"); their sub-zones are included in them.
        if (!dirName.starts_with("intel-rapl:") || dirName.find(':', 11) != std::string::npos) {
            continue;
        }
        Domain domain;
        domain.path = (entry.path() / "energy_uj").string();
        std::ifstream nameFile(entry.path() / "name");
        std::getline(nameFile, domain.name);
        if (domain.name.empty()) {
            domain.name = dirName;
        }
        std::ifstream energy(domain.path);
        if (!(energy >> domain.start)) {
            m_reason = "cannot read " + domain.path + ": " + std::strerror(errno);
            m_domains.clear();
            return;
        }
        std::ifstream range(entry.path() / "max_energy_range_uj");
        range >> domain.range;
        m_domains.push_back(domain);
    }
    if (m_domains.empty()) {
        m_reason = "no intel-rapl domain under " + root.string();
    }
}

EnergyReport RaplMeter::stop() const {
    EnergyReport report;
    if (m_domains.empty()) {
        report.reason = m_reason;
        return report;
    }
    for (const auto& domain : m_domains) {
        std::ifstream energy(domain.path);
        std::uint64_t now = 0;
        if (!(energy >> now)) {
            report.reason = "cannot read " + domain.path + ": " + std::strerror(errno);
            report.domains.clear();
            return report;
        }
        const std::uint64_t delta =
            now >= domain.start ? now - domain.start : now + domain.range - domain.start;
        const double joules = static_cast<double>(delta) * 1e-6;
        report.domains[domain.name] += joules;
        report.joules += joules;
    }
    report.available = true;
    return report;
}

// ---- arenas' SDE counters

const std::vector<std::string>& SdeArenaReader::counterNames() {
    static const std::vector<std::string> names = {"peak_bytes", "bytes_reserved", "resets",
                                                   "wait_ns", "max_wait_ns"};
    return names;
}

SdeArenaReader::SdeArenaReader() = default;
SdeArenaReader::~SdeArenaReader() {
    cleanup();
}

void SdeArenaReader::cleanup() {
    if (m_eventSet != PAPI_NULL) {
        if (m_started) {
            std::vector<long long> ignored(m_events.size());
            PAPI_stop(m_eventSet, ignored.data());
            m_started = false;
        }
        PAPI_cleanup_eventset(m_eventSet);
        PAPI_destroy_eventset(&m_eventSet);
        m_eventSet = PAPI_NULL;
    }
    m_counters.reset();
}

void SdeArenaReader::arenasCreated(std::span<const runtime::Arena* const> arenas) {
    m_report = {};
    m_events.clear();
    m_counters = std::make_unique<runtime::ArenaCounters>();
    for (const auto* arena : arenas) {
        if (auto added = m_counters->add(*arena); !added) {
            m_report.reason = added.error().message;
            cleanup();
            return;
        }
    }
    if (auto init = initPapi(); !init) {
        m_report.reason = init.error().message;
        cleanup();
        return;
    }
    if (const int status = PAPI_create_eventset(&m_eventSet); status != PAPI_OK) {
        m_report.reason = papiError("PAPI_create_eventset", status);
        cleanup();
        return;
    }
    for (const auto* arena : arenas) {
        for (const auto& counter : counterNames()) {
            const auto name = m_counters->eventName(arena->name(), counter);
            if (const int status = PAPI_add_named_event(m_eventSet, name.c_str());
                status != PAPI_OK) {
                m_report.reason = papiError("PAPI_add_named_event", status) + " (" + name + ")";
                cleanup();
                return;
            }
            m_events.emplace_back(arena->name(), counter);
        }
    }
    if (const int status = PAPI_start(m_eventSet); status != PAPI_OK) {
        m_report.reason = papiError("PAPI_start", status);
        cleanup();
        return;
    }
    m_started = true;
}

void SdeArenaReader::trainingFinished(std::span<const runtime::Arena* const> /*arenas*/) {
    if (!m_started) {
        cleanup();
        return;
    }
    std::vector<long long> values(m_events.size());
    const int status = PAPI_stop(m_eventSet, values.data());
    m_started = false;
    if (status != PAPI_OK) {
        m_report.reason = papiError("PAPI_stop", status);
    } else {
        for (std::size_t i = 0; i < m_events.size(); ++i) {
            m_report.values[m_events[i].first][m_events[i].second] = values[i];
        }
        m_report.available = true;
    }
    cleanup();
}

} // namespace starscope::workloads
