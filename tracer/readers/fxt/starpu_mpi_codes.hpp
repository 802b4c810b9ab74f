#pragma once
// StarPU-MPI's private FxT event codes (mpi/src/starpu_mpi_fxt.h), for the events starscope
// reads. Checked against the 1.3.10 and the 1.4.12 source: the codes are the same; where the
// parameters differ, both layouts are listed. The readers tell them apart by the parameter
// count, which each version's macro fixes.

#include <cstdint>
#include <string_view>

namespace starscope::tracer::detail::starpu_mpi {

enum Code : std::uint64_t {
    Start = 0x5201,                  // rank, world size, tid (of the communication thread)
    Stop = 0x5202,                   // rank, world size, tid
    // 1.3: rank, world size, key, tid. 1.4: rank, world size, key, local sync time (ns, 0 for
    // an MPI_Barrier: the event's own time then), tid. One at initialisation; 1.4 adds one at
    // shutdown.
    Barrier = 0x5203,
    IsendSubmitBegin = 0x5204,       // dest, data tag, size, tid
    // 1.3: dest, data tag, size, job, tid. 1.4: type, dest, data tag, size, job, handle, prio, tid.
    IsendSubmitEnd = 0x5205,
    IrecvSubmitBegin = 0x5206,       // src, data tag, tid
    IrecvSubmitEnd = 0x5207,         // src, data tag, tid
    IsendCompleteBegin = 0x5208,     // dest, data tag, size, tid
    IsendCompleteEnd = 0x5209,       // dest, data tag, size, tid
    IrecvCompleteBegin = 0x520a,     // src, data tag, tid
    IrecvCompleteEnd = 0x520b,       // src, data tag, tid
    SleepBegin = 0x520c,             // tid
    SleepEnd = 0x520d,               // tid
    DtestingBegin = 0x520e,          // tid
    DtestingEnd = 0x520f,            // tid
    UtestingBegin = 0x5210,          // src, data tag, tid
    UtestingEnd = 0x5211,            // src, data tag, tid
    UwaitBegin = 0x5212,             // src, data tag, tid
    UwaitEnd = 0x5213,               // src, data tag, tid
    PollingBegin = 0x5214,           // tid
    PollingEnd = 0x5215,             // tid
    DriverRunBegin = 0x5216,         // tid
    DriverRunEnd = 0x5217,           // tid
    IrecvTerminated = 0x521b,        // src, data tag, job, tid (1.4: then the handle)
    IsendTerminated = 0x521c,        // dest, data tag, tid
    TestingDetachedBegin = 0x521d,   // tid (compiled out in both versions)
    TestingDetachedEnd = 0x521e,
    TestBegin = 0x521f,              // peer, data tag, tid (compiled out in both versions)
    TestEnd = 0x5220,
};

// Parameter counts that tell the 1.4 layouts from the 1.3 ones.
inline constexpr std::uint32_t kBarrierParams14 = 5;
inline constexpr std::uint32_t kIsendSubmitEndParams14 = 8;

// States of the communication thread ("CtS" in starpu_fxt_tool's Paje output) by alias, as
// src/debug/traces/starpu_paje.c names them; "DT" is not declared there and shows as is.
struct CommState {
    std::string_view alias;
    std::string_view name;
};
inline constexpr CommState kCommStates[] = {
    {"P", "Processing"},      {"Pl", "Polling"},         {"Dr", "DriverRun"},        {"Sl", "Sleeping"},
    {"UT", "UserTesting"},    {"UW", "UserWaiting"},     {"SdS", "SendSubmitted"},   {"RvS", "ReceiveSubmitted"},
    {"SdC", "SendCompleted"}, {"RvC", "ReceiveCompleted"}, {"TD", "Testing Detached"}, {"MT", "MPI Test"},
    {"DT", "DT"},             {"Bu", "Building task"},   {"Su", "Submitting task"},  {"Th", "Throttling task submission"},
    {"C", "Callback"},
};

} // namespace starscope::tracer::detail::starpu_mpi
