#pragma once
// StarPU 1.4's FxT event categories: the names STARPU_FXT_EVENTS takes and the key mask bits
// (FUT_KEYMASKn) StarPU writes into the trace's setup event, checked against src/common/fxt.c
// and fxt.h of 1.4.12. They are StarPU's vocabulary, not one module's: `record --events` sets
// them, run.json records them, and the FxT reader reads the mask back to say which figures a
// trace cannot show. 1.3 has no categories and records every event.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace starscope::tracer {

// The enumerator's value is the category's bit: FUT_KEYMASK<value>.
enum class FxtCategory : std::uint8_t {
    Meta,
    User,
    Task,
    TaskVerbose,
    Data,
    DataVerbose,
    Worker,
    WorkerVerbose,
    Dsm,
    DsmVerbose,
    Sched,
    SchedVerbose,
    Lock,
    LockVerbose,
    Event,
    EventVerbose,
    Mpi,
    MpiVerbose,
    Hyp,
    HypVerbose,
    TaskVerboseExtra,
    MpiVerboseExtra,
};

// STARPU_FXT_EVENTS's names (META is StarPU's own, always on, never named by a user).
inline constexpr std::array<std::pair<FxtCategory, std::string_view>, 22> kFxtCategoryNames{{
    {FxtCategory::Meta, "META"},
    {FxtCategory::User, "USER"},
    {FxtCategory::Task, "TASK"},
    {FxtCategory::TaskVerbose, "TASK_VERBOSE"},
    {FxtCategory::Data, "DATA"},
    {FxtCategory::DataVerbose, "DATA_VERBOSE"},
    {FxtCategory::Worker, "WORKER"},
    {FxtCategory::WorkerVerbose, "WORKER_VERBOSE"},
    {FxtCategory::Dsm, "DSM"},
    {FxtCategory::DsmVerbose, "DSM_VERBOSE"},
    {FxtCategory::Sched, "SCHED"},
    {FxtCategory::SchedVerbose, "SCHED_VERBOSE"},
    {FxtCategory::Lock, "LOCK"},
    {FxtCategory::LockVerbose, "LOCK_VERBOSE"},
    {FxtCategory::Event, "EVENT"},
    {FxtCategory::EventVerbose, "EVENT_VERBOSE"},
    {FxtCategory::Mpi, "MPI"},
    {FxtCategory::MpiVerbose, "MPI_VERBOSE"},
    {FxtCategory::Hyp, "HYP"},
    {FxtCategory::HypVerbose, "HYP_VERBOSE"},
    {FxtCategory::TaskVerboseExtra, "TASK_VERBOSE_EXTRA"},
    {FxtCategory::MpiVerboseExtra, "MPI_VERBOSE_EXTRA"},
}};
std::string_view fxtCategoryName(FxtCategory category);
std::optional<FxtCategory> parseFxtCategory(std::string_view name); // case-insensitive, as StarPU

// A set of categories as a key mask. all() is what StarPU records when nothing selects:
// every category but the two *_VERBOSE_EXTRA ones, which StarPU leaves out as too costly.
class FxtEventSet {
public:
    constexpr FxtEventSet() = default;
    static constexpr FxtEventSet fromMask(std::uint64_t mask) { return FxtEventSet(mask); }
    static FxtEventSet all();
    // The smallest set that leaves every figure starscope makes as with all():
    // bench/workloads/fxt_categories_1.4.12.md has the measures (0.85 of the trace bytes).
    static FxtEventSet starscopeDefault();

    // "all" or a list of names separated by ',' or '|' (STARPU_FXT_EVENTS's syntax); an
    // unknown name is an error naming it and the names StarPU knows.
    static std::optional<FxtEventSet> parse(std::string_view text, std::string* error = nullptr);

    bool has(FxtCategory category) const { return (m_mask & bit(category)) != 0; }
    std::uint64_t mask() const { return m_mask; }
    bool isAll() const;
    // "all" for all(), else the names in bit order without META ("USER,TASK,..."): the value
    // STARPU_FXT_EVENTS takes and run.json records.
    std::string text() const;

    static constexpr std::uint64_t bit(FxtCategory c) {
        return std::uint64_t{1} << static_cast<unsigned>(c);
    }
    bool operator==(const FxtEventSet&) const = default;

private:
    constexpr explicit FxtEventSet(std::uint64_t mask) : m_mask(mask) {}
    std::uint64_t m_mask = 0;
};

} // namespace starscope::tracer
