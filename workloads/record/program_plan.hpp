#pragma once
// `starscope record -- PROGRAM [ARGS...]`: a user's own StarPU program recorded the way record
// records the CNN (the run folder as STARPU_FXT_PREFIX, FxT on, its buffer), but run as a child
// process: starscope cannot count its tasks or stop it at a batch, only set its environment,
// start it, pass signals on and look at what it left. planProgramRecord checks the program
// and every option and writes nothing; executeProgramRecord (program_recorder.hpp) runs it.

#include "workloads/error.hpp"
#include "workloads/record/run_settings.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace starscope::workloads {

struct ProgramOptions {
    std::vector<std::string> argv; // PROGRAM and its arguments, as given after `--`
    std::string out;               // empty: $STARPU_FXT_PREFIX
    bool force = false;
    std::uint64_t bufferMb = 0; // 0: STARPU_TRACE_BUFFER_SIZE, else kProgramTraceBufferMb
    bool noTrace = false;
    std::string events; // --events (empty: $STARPU_FXT_EVENTS, else record's default set)
    int ranks = 0; // > 1: under `mpirun -np N` on this machine
};

// StarPU's own default buffer (STARPU_TRACE_BUFFER_SIZE unset: 64 MiB), which record cannot
// size for a program whose task count it does not know; set explicitly so that run.json says
// it. libfxt keeps two such buffers resident.
inline constexpr std::uint64_t kProgramTraceBufferMb = 64;

struct ProgramPlan {
    ProgramOptions options;
    std::filesystem::path executable; // argv[0] resolved (through PATH when it has no '/')
    std::filesystem::path cwd;        // where record and the program run
    RunFolderChoice folder;           // the run folder (absolute), also STARPU_FXT_PREFIX
    StarpuSetting<bool> trace;
    StarpuSetting<std::uint64_t> traceBuffer; // value 0 when not traced
    // The FxT event set asked for. The program's StarPU applies it only when the program calls
    // starpu_fxt_autostart_profiling(1) itself, so record preloads a library that does
    // (record/fxt_events_preload.cpp), and that answers FxT's thread ids from a cache
    // (record/fxt_thread_id.cpp): LD_PRELOAD is among the variables set of every traced run. A
    // 1.3 program records every event whatever is asked; the trace's key mask says what was.
    EventsChoice events;
    // Every StarPU variable the program will see: those record sets (source Option or
    // Default) and the user's own (Environment), which record leaves as they are.
    std::vector<StarpuVariable> environment;
    // What record starts: argv with the executable resolved, or mpirun's command line for it.
    std::vector<std::string> childArgv;
};

// The program: a path with '/' must name an executable file; a bare name is looked up in PATH
// as a shell would. Errors name the program and say what is wrong.
WorkloadResult<std::filesystem::path> resolveProgram(const std::string& program);

WorkloadResult<ProgramPlan> planProgramRecord(const ProgramOptions& options);

} // namespace starscope::workloads
