#pragma once
// The names of a run folder's and a sweep folder's files, spelled here only: StarPU's prof files,
// run.json, the native cache, record's own lock and notes, and a sweep's sweep.json and summary.
// Readers, the recorder, sweep, the CLI and the viewer all name the folder's files through these,
// so that what one writes is what the others look for.

#include <string_view>

namespace starscope::tracer::run {

// ---- a run folder (what `record` writes) -------------------------------------------------------

// StarPU names its FxT trace <prefix>prof_file_<user>_<id> (one per process: a StarPU-MPI run has
// one per rank). Every file whose name starts so is one of the run's prof files.
inline constexpr std::string_view kProfFilePrefix = "prof_file_";
// run.json (RunRecord): what the run was and what it measured.
inline constexpr const char* kRunJsonName = "run.json";
// The native cache `starscope convert RUN` writes, checked against the folder before use.
inline constexpr const char* kNativeCacheName = "trace.sstrace";
// What a name starting "trace." is: a conversion of the run (trace.sstrace, trace.json, ...).
inline constexpr std::string_view kTraceConversionPrefix = "trace.";
// starpu_fxt_tool's Paje output, when a user converted the run in place.
inline constexpr std::string_view kPajeTraceName = "paje.trace";
// A data-parallel CNN run's per-rank weight checksums: weights_rank_<rank>.txt.
inline constexpr std::string_view kWeightsFilePrefix = "weights_rank_";
inline constexpr std::string_view kWeightsFileSuffix = ".txt";

// record's own files. The lock (flock) that keeps two records out of one folder; it stays after
// its holder ends.
inline constexpr const char* kLockFileName = ".starscope.lock";
// Room set aside at the start for run.json, so that a full disk cannot lose it.
inline constexpr const char* kRunJsonRoomName = ".starscope-run-json-room";
// The previous run's files, set aside while a forced record replaces them.
inline constexpr const char* kSetAsideName = ".starscope-previous-run";
// The file written and removed to learn that the folder can be written.
inline constexpr const char* kWriteProbeName = ".starscope-write-test";
// The note a traced program's StarPU leaves when it starts tracing (the FxT preload writes it).
inline constexpr const char* kFxtStartedNote = ".starscope_fxt_started";

// ---- a sweep folder (what `sweep` writes) ------------------------------------------------------

// sweep.json (SweepRecord): the configuration every run shares and the strategies' order.
inline constexpr const char* kSweepJsonName = "sweep.json";
// The figures of every run of the sweep (SweepSummary), as a table and as JSON.
inline constexpr const char* kSummaryCsvName = "summary.csv";
inline constexpr const char* kSummaryJsonName = "summary.json";

// Whether a file name in a run folder is one of the run's files (a prof file, run.json or a
// temporary of it, a conversion, weight checksums): what a forced record replaces. record's own
// files (the lock, the notes) are not.
bool isRunArtifact(std::string_view name);

} // namespace starscope::tracer::run
