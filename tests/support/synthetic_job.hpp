#pragma once
// The synthetic traces of synthetic_trace.hpp made lane by lane and task by task, so that a job
// of any size can be written as a native file a few records at a time (tracer::TraceStream,
// writeNativeFile): 1 G spans, 36 GB of file, in some MiB. makeSyntheticTrace and
// makeSyntheticRanksTrace collect what it streams (tracer::collectTrace), so a streamed file and
// one written from the collected trace hold the same bytes.
//
// What makes that possible: every value is a function of where it is. A task's length draws its
// jitter from a hash of (its rank's seed, batch, worker, position), not from a sequential
// generator that would tie each lane to every other; batch b starts at b * period(), which holds
// the longest batch and its barrier (so the batch before has always ended). Each rank keeps its
// batches' ends (8 bytes a batch, 7 MB a rank at 1 G spans), which its main lane, its markers
// and the messages after each batch all need.

#include "tests/support/synthetic_trace.hpp"
#include "tracer/native/native_stream.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace starscope::viewer {

class SyntheticJob {
public:
    // ranks 0: one process (makeSyntheticTrace): lanes of no rank, no MPI lane, no messages.
    // 1 to 4: a StarPU-MPI job (makeSyntheticRanksTrace).
    SyntheticJob(const SyntheticOptions& options, int ranks);
    SyntheticJob(const SyntheticJob&) = delete;
    SyntheticJob& operator=(const SyntheticJob&) = delete;

    // The job's tables and columns; valid while the job is.
    tracer::TraceStream stream() const;

private:
    // One process of the job: its options (its tasks' and barrier's lengths, its seed), where
    // its lanes and tasks start in the job's tables, and its batches' ends.
    struct Rank {
        SyntheticOptions options;
        tracer::TimeNs period = 0;
        std::int32_t rank = -1;          // -1 in a one-process trace
        std::size_t firstLane = 0;       // its workers, its main thread, its MPI thread
        std::uint64_t firstTask = 0;
        std::vector<tracer::TimeNs> batchEnds;
        std::vector<tracer::TimeNs> lastEnds;   // each worker's end of the last batch
        std::uint64_t mpiSpans = 0;
    };
    // A task's length: its rank's taskNs, jittered by a hash of where it is.
    tracer::TimeNs taskLength(const Rank& rank, std::size_t batch, std::size_t worker, std::size_t position) const;
    tracer::TimeNs workStart(const Rank& rank, std::size_t batch) const;
    void workerSpans(const Rank& rank, std::size_t worker, const tracer::EmitRecords<tracer::Span>& emit) const;
    void mainSpans(const Rank& rank, const tracer::EmitRecords<tracer::Span>& emit) const;
    void mpiSpans(const Rank& rank, const tracer::EmitRecords<tracer::Span>& emit) const;
    void tasks(const tracer::EmitRecords<tracer::Task>& emit) const;
    void dependencyStarts(const tracer::EmitRecords<std::uint32_t>& emit) const;
    void dependencies(const tracer::EmitRecords<tracer::TaskIndex>& emit) const;
    // Merged across ranks as a stable sort by time (by start) of the ranks' lists would.
    void markers(const tracer::EmitRecords<tracer::MarkerEvent>& emit) const;
    void forEachMessage(const std::function<void(const tracer::Message&)>& take) const;
    void messages(const tracer::EmitRecords<tracer::Message>& emit) const;

    SyntheticOptions m_options;
    bool m_mpi = false;
    std::size_t m_workers = 0;
    std::size_t m_perWorker = 0;        // tasks per worker and batch
    std::size_t m_batches = 0;
    std::vector<Rank> m_ranks;
    tracer::Trace m_tables;             // everything but the streamed columns
    std::vector<tracer::CodeletKeyId> m_codeletKeys;   // of position % codelets
    tracer::MarkerEvent m_marker;       // a batch marker as Trace::makeMarker makes one
    struct States {
        std::uint32_t executing = 0, sleeping = 0, scheduling = 0, submitting = 0, waitingAll = 0, waitingTask = 0,
                      progressing = 0;
    } m_states;                         // in m_tables.states
};

} // namespace starscope::viewer
