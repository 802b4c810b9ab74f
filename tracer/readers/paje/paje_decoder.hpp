#pragma once
// Builds the model from the typed records of a Paje trace (paje_records.hpp). Definitions,
// containers and links are taken as they come; the timed records (states, events, container
// destructions) are kept compact until every date is read, since Paje has no time unit and
// need not be in time order: then the tick that holds every date exactly is chosen
// (paje_time.hpp) and they are applied in time order, equal times in file order.
//
// StarPU specifics (starpu_fxt_tool's paje.trace): a worker state whose value is no declared
// entity value is a running codelet; its extra JobId/Footprint fields give the task record.
// Its memory managers ("Mm") are no lanes: the FxT reader draws no memory node states either.
// Of its events only those of its user event types are markers.

#include "tracer/model/error.hpp"
#include "tracer/model/read_options.hpp"
#include "tracer/model/trace.hpp"
#include "tracer/readers/paje/paje_containers.hpp"
#include "tracer/readers/paje/paje_links.hpp"
#include "tracer/readers/paje/paje_names.hpp"
#include "tracer/readers/paje/paje_records.hpp"
#include "tracer/readers/paje/paje_syntax.hpp"
#include "tracer/readers/paje/paje_time.hpp"
#include "tracer/readers/trace_builder.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace starscope::tracer::detail::paje {

class Decoder {
public:
    // file names the trace in errors and metadata; options.progress follows the second part of
    // the reading (applying the records in time order) from 0.6 to 1.
    Decoder(const std::filesystem::path& file, const ReadOptions& options)
        : m_file(file), m_options(options) {}
    Decoder(const Decoder&) = delete;
    Decoder& operator=(const Decoder&) = delete;

    // Room for the timed records of a text of this many bytes.
    void reserveFor(std::size_t textBytes);
    // The records of a prepared batch, in file order, and the figures of its dates.
    void apply(const LineBatch& batch);
    // The first line apply() found wrong: what, and a byte of that line (in the text the
    // records point into); the reader stops there.
    struct Problem {
        std::string what;
        const char* at = nullptr;
    };
    const std::optional<Problem>& problem() const { return m_problem; }
    // The model, once every line is applied; cutAt: the text's size when its last line has no
    // line end (Paje writers end every line: that is where the file was cut). Fails only when
    // options.progress cancels.
    TraceResult<Trace> finish(std::optional<std::size_t> cutAt);

private:
    // A timed record, kept compact until the stable sort by time. Its time is a PajeStamp's
    // mantissa until all dates are read, then ticks of the chosen unit. StarPU's job id and
    // footprint, which only codelet states carry (one event in 25 of the CNN traces), are in a
    // side table: 32 bytes per event instead of 40 in a table whose fresh pages the kernel zeroes
    // (a fifth of the samples of a 1-epoch render went to zeroing them).
    struct Timed {
        TimeNs time;
        std::int32_t container;
        std::uint32_t type;
        std::uint32_t value;
        std::uint32_t job; // in m_jobs, + 1; 0 without a job id or footprint
        std::int8_t decimals;
        Kind kind;
    };
    static_assert(sizeof(Timed) == 32);
    struct TimedJob {
        std::uint64_t jobId; // 0 when absent
        std::uint32_t footprint;
    };
    using Order = std::vector<std::pair<TimeNs, std::size_t>>; // (time, index in m_timed)

    std::uint32_t id(std::string_view s) { return m_names.intern(s); }
    void on(const DefineType& record);
    void on(const DefineEntityValue& record);
    void on(const CreateContainer& record);
    void on(const DestroyContainer& record);
    void on(const SetState& record);
    void on(const PushState& record);
    void on(const PopState& record);
    void on(const ResetState& record);
    void on(const NewEvent& record);
    void on(const StartLink& record);
    void on(const EndLink& record);
    // A state change or an event of a container, kept for applyInTimeOrder unless dropped.
    template <typename Record> void addTimed(Kind kind, const Record& record);
    // In StarPU's trace only its user event types carry user events; pushes, pops and data
    // registrations are runtime bookkeeping.
    bool isUserEventType(std::uint32_t type) {
        return m_userEventTypes.test(type, m_names, isStarpuUserEventType);
    }
    // Whether a value set on StarPU's worker state type "WS" is one of its runtime states (its
    // alias or name, or our export's "Not profiled"), and whether a type is "WS".
    bool isRuntimeValue(std::uint32_t value) {
        return m_runtimeValues.test(value, m_names, isStarpuRuntimeState);
    }
    bool isWorkerStateType(std::uint32_t type) {
        return m_workerStateTypes.test(type, m_names,
                                       [](const std::string& name) { return name == "WS"; });
    }
    static bool isStarpuUserEventType(const std::string& alias);
    static bool isStarpuRuntimeState(const std::string& name);

    // The timed records in time order: false when options.progress cancels.
    bool applyInTimeOrder();
    Order timeOrder() const;
    void applyState(const Order& order, std::size_t i);
    bool hasLaterJobTwin(const Order& order, std::size_t i);
    std::uint64_t jobIdOf(const Timed& t) const { return t.job == 0 ? 0 : m_jobs[t.job - 1].jobId; }
    std::uint32_t footprintOf(const Timed& t) const {
        return t.job == 0 ? 0 : m_jobs[t.job - 1].footprint;
    }

    const std::filesystem::path& m_file;
    const ReadOptions& m_options;
    NameIds m_names;
    TraceBuilder m_b;
    Containers m_containers{m_names, m_b};
    Links m_links{m_names, m_containers};
    std::unordered_map<std::uint64_t, std::uint32_t> m_entityValues; // (type, alias) -> name
    NameFlags m_userEventTypes;
    bool m_starpuEvents = false; // the trace declares StarPU's event types
    std::optional<Problem> m_problem;
    std::vector<Timed> m_timed;
    std::vector<TimedJob> m_jobs;

    // Figures of the dates, over every batch.
    PajeStamp m_end;
    double m_endMs = 0;
    double m_maxAbsMs = 0;
    int m_maxDecimals = 0;
    PajeTick m_tick;

    // What was read and what was dropped, for the metadata and the warnings.
    std::size_t m_variables = 0;
    std::size_t m_linkEvents = 0;
    std::size_t m_memoryStates = 0;
    std::size_t m_truncatedTimes = 0;
    std::size_t m_unknownContainers = 0;
    std::size_t m_badPops = 0;

    // While applying in time order: state ids by (interned name, lane class), which names are
    // StarPU's runtime states and its worker state type, the next synthetic job id, and the
    // events of one instant that carry a job id (hasLaterJobTwin).
    std::unordered_map<std::uint64_t, std::uint32_t> m_stateIds;
    NameFlags m_runtimeValues;
    NameFlags m_workerStateTypes;
    std::uint64_t m_syntheticJob = std::uint64_t{1} << 62;
    std::size_t m_instantBegin = 0;
    std::size_t m_instantEnd = 0;
    using TwinKey = std::pair<std::uint64_t, std::uint64_t>; // container+type, value+kind
    struct TwinHash {
        std::size_t operator()(const TwinKey& k) const {
            return std::hash<std::uint64_t>{}(k.first * 0x9e3779b97f4a7c15ULL ^ k.second);
        }
    };
    std::unordered_map<TwinKey, std::size_t, TwinHash> m_lastJobEvent;
};

} // namespace starscope::tracer::detail::paje
