// StarPU's FxT prof files -> trace model: for each file (one per process), the event source
// (fxt_events.hpp) and the StarPU release (starpu_layout.hpp) are chosen once, its events are
// typed by that release's layout and decoded into the model by a version-free decoder
// (record_decoder.hpp); several files are then put on one clock with their messages matched
// (mpi_merge.hpp).

#include "tracer/readers/fxt/fxt_reader.hpp"

#include "tracer/model/names.hpp"
#include "tracer/readers/fxt/fxt_events.hpp"
#include "tracer/readers/fxt/model_ops.hpp"
#include "tracer/readers/fxt/mpi_merge.hpp"
#include "tracer/readers/fxt/outlier_filter.hpp"
#include "tracer/readers/fxt/record_decoder.hpp"
#include "tracer/readers/fxt/starpu_layout.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/readers/trace_builder.hpp"

#include <algorithm>
#include <atomic>
#include <functional>
#include <mutex>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <utility>

namespace starscope::tracer {

namespace {

using detail::FxtEvents;
using detail::ModelOpSink;
using detail::RawEvent;
using detail::StarpuFxtLayout;
using detail::TraceBuilder;

// StarPU writes no version into its traces: a first pass reads events until one of them
// tells the layout (usually one of the first: a worker's start or the first task).
struct SniffedLayout {
    const StarpuFxtLayout* layout = nullptr;
    std::string how;
};

SniffedLayout sniffLayout(const FxtEvents& events) {
    detail::LayoutSniffer sniffer;
    const auto onEvent = [&sniffer](const RawEvent& ev) { return sniffer.feed(ev) == nullptr; };
    // Errors are the main pass's to report; a decision ends this one early ("cancelled").
    (void)events.walk(detail::kFirstDecodedCode, detail::kLastDecodedCode, onEvent, {});
    if (sniffer.decided() != nullptr) {
        return {sniffer.decided(), std::string(sniffer.reason())};
    }
    // No task and no 1.4-only event or CPU key: the two layouts agree on what such a trace
    // holds (worker starts, states, user events).
    return {&detail::starpu13Layout(),
            "no event tells 1.3 from 1.4; they agree on what this trace holds"};
}

// StarPU writes about 1 KB of FxT events per task and 150 bytes per state (a CNN training run:
// 970 and 150), so the task table and the lanes are reserved from the files' sizes instead of
// growing by copies. Only address space until used, so the task table gets twice the count
// (at exactly 1 KB a CNN run's table fell short by 5 % and was copied whole at its last task);
// capped so that a huge file of something else asks for little.
std::uintmax_t inputBytes(const std::vector<std::filesystem::path>& files) {
    std::uintmax_t bytes = 0;
    for (const auto& file : files) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(file, ec);
        bytes += ec ? 0 : size;
    }
    return bytes;
}

// Below this size the model is built in the decoding thread: a second thread and its
// hand-overs cost about what they save, or more. `stats` of one prof file, medians of
// alternating runs on the 2-core machine at load 5-7: 21.7 MB (a one-epoch CNN run), one
// thread 27.9 ms against two 28.8 (41 runs each); 41 MB, 47.9 against 47.5 (15); 78 MB, 116.4
// against 99.5 (9).
constexpr std::uintmax_t kTwoThreadsMinBytes = std::uintmax_t{32} << 20;

// A big file's model is built by a thread of its own while this one walks and decodes the
// events (model_ops.hpp: the same model). ReadOptions::threads 1 or more chooses.
bool buildInAThreadOfItsOwn(const std::filesystem::path& file, unsigned threads) {
    if (threads >= 1) {
        return threads >= 2;
    }
    std::error_code ec;
    const auto size = std::filesystem::file_size(file, ec);
    return !ec && size >= kTwoThreadsMinBytes && std::thread::hardware_concurrency() >= 2;
}

} // namespace

TraceResult<Done> checkFxtWhole(const std::filesystem::path& file) {
    if (!detail::isDirectFxtLayout(file)) {
        return fail(TraceError{ErrorCode::Corrupt,
                               "the trace is cut short or not an FxT trace of libfxt 0.3",
                               file.string(), 0});
    }
    // An empty code range: the walk checks every block and event without decoding any.
    const auto walked = detail::readFxtDirect(file, 1, 0, [](const RawEvent&) { return true; }, {});
    if (!walked) {
        return fail(walked.error());
    }
    if (!walked->problems.empty()) {
        const auto& first = walked->problems.front();
        return fail(TraceError{ErrorCode::Corrupt, "the trace is cut short: " + first.what,
                               file.string(), first.offset});
    }
    return Done{};
}

TraceResult<FxtFlushTotals> measureFxtFlushes(const std::filesystem::path& file) {
    FxtFlushTotals totals;
    std::optional<std::uint64_t> start;
    // Only FxT's two flush codes are asked for: the walk decodes nothing else.
    const auto onEvent = [&](const RawEvent& ev) {
        if (ev.code == detail::kFutStartFlushCode) {
            start = ev.time;
        } else if (start && ev.time >= *start) {
            const auto ns = static_cast<std::int64_t>(ev.time - *start);
            ++totals.count;
            totals.totalNs += ns;
            totals.maxNs = std::max(totals.maxNs, ns);
            start.reset();
        }
        return true;
    };
    const auto walked =
        FxtEvents(file).walk(detail::kFutStopFlushCode, detail::kFutStartFlushCode, onEvent, {});
    if (!walked) {
        return fail(walked.error());
    }
    return totals;
}

namespace {

// One file of a read: where it stands among the files, and the rank it is when there are several.
struct FileInRead {
    std::size_t index = 0;
    std::size_t count = 1;
    std::int32_t rank = -1;                   // -1: one process alone
    const detail::RankClock* clock = nullptr; // its clock on the job's, for a rank
    detail::RankTraffic* traffic = nullptr;   // its sends and receives, for a rank
};

// What one file added to the trace.
struct FileDecoded {
    TimeNs end = 0;
    std::uint64_t lastRecorded = 0; // its last event's time as recorded
    std::string_view version;
    std::size_t workers = 0;
    std::string noWorker; // why it has none, when it has none
};

// Decodes one prof file into the builder: its release, its events, and its warnings (naming the
// file when there are several); its lanes, transfers and markers get its rank.
// progress: the fraction of this file decoded. mayUseASecondThread: false while other files decode
// beside it (they have the cores).
TraceResult<FileDecoded> decodeFile(TraceBuilder& builder, detail::DataUse& dataUse, const FxtEvents& events,
                                    const FileInRead& at, const ReadOptions& options,
                                    const std::function<bool(double)>& progress, bool mayUseASecondThread) {
    const auto& file = events.file();
    const bool multi = at.count > 1;
    const auto sniffed = sniffLayout(events);
    // Lanes get the rank as prefix (as starpu_fxt_tool names them) and job ids a per-file
    // base, since each process numbers its jobs from 1.
    const std::string prefix = multi ? std::to_string(at.rank) + "_" : std::string();
    // One file: the caller names it already. Several: every warning says which one.
    const std::string where = multi ? file.string() + ": " : std::string();
    const std::size_t lanesBefore = builder.laneCount();
    const std::size_t markersBefore = builder.trace().markers.size();
    const std::size_t transfersBefore = builder.trace().transfers.size();
    // libfxt is run in a forked child: the reader forks it from one thread only, since a child
    // forked while another thread holds a lock (the allocator's, under ASan at exit) can hang.
    ModelOpSink ops(builder,
                    mayUseASecondThread && events.direct() && buildInAThreadOfItsOwn(file, options.threads));
    detail::RecordDecoder decoder(builder, ops, *sniffed.layout, prefix, where,
                                  multi ? jobOfProcess(at.index, 0) : 0, dataUse, at.clock,
                                  at.traffic);
    detail::OutlierFilter filter(decoder);
    const auto onEvent = [&filter](const RawEvent& ev) { return filter.push(ev); };
    auto walked =
        events.walk(detail::kFirstDecodedCode, detail::kLastDecodedCode, onEvent, progress);
    if (!walked) {
        return fail(walked.error());
    }
    const auto& summary = walked->stream;
    const auto& problems = walked->problems;
    if (summary.events == 0) {
        return fail(TraceError{
            ErrorCode::Corrupt,
            problems.empty() ? "the FxT trace holds no event" : problems.front().what,
            file.string(), problems.empty() ? summary.bytesRead : problems.front().offset});
    }
    filter.flush();
    decoder.finish();
    if (filter.dropped() > 0) {
        builder.warn(where + std::to_string(filter.dropped())
                     + " events with impossible timestamps were dropped");
    }
    for (const auto& problem : problems) {
        builder.warn(where + "byte " + std::to_string(problem.offset) + ": " + problem.what
                     + "; the events after it are missing");
    }
    if (summary.endedEarly && problems.empty()) {
        builder.warn(where + "libfxt stopped at byte " + std::to_string(summary.bytesRead)
                     + " on a damaged block: the events after it are missing");
    }
    if (summary.libfxtComplaints > 0) {
        builder.warn(where + "libfxt skipped " + std::to_string(summary.libfxtComplaints)
                     + " malformed events");
    }
    const std::string suffix = multi ? "." + std::to_string(at.index) : std::string();
    builder.setMetadata("source" + suffix, file.string());
    builder.setMetadata("starpu.layout" + suffix,
                        std::string(sniffed.layout->version) + " (" + sniffed.how + ")");
    if (decoder.workers() > 0 && decoder.executedTasks() == 0) {
        builder.warn(
            where + "the trace has " + std::to_string(decoder.workers())
            + " workers but no task execution: profiling stopped for the whole run, task "
              "events left out of STARPU_FXT_EVENTS, or a StarPU layout starscope misreads");
    }
    const bool cut = !problems.empty() || summary.endedEarly;
    if (multi && cut) {
        // The job goes on after a cut rank's last event, but what the rank did then is not known:
        // its lanes end where its data ends, its tasks in progress there.
        for (std::size_t l = lanesBefore; l < builder.laneCount(); ++l) {
            builder.resetState(static_cast<std::int32_t>(l), filter.lastTime());
        }
        char atMs[32];
        std::snprintf(atMs, sizeof atMs, "%.3f ms", static_cast<double>(filter.lastTime()) / 1e6);
        builder.warn(where + "rank " + std::to_string(at.rank) + " is cut short: its threads end at "
                     + atMs + " of the job, where its data ends, not at the job's end");
    }
    for (std::size_t l = lanesBefore; l < builder.laneCount(); ++l) {
        builder.trace().lanes[l].rank = at.rank;
    }
    for (std::size_t x = transfersBefore; x < builder.trace().transfers.size(); ++x) {
        builder.trace().transfers[x].rank = at.rank;
    }
    for (std::size_t m = markersBefore; m < builder.trace().markers.size(); ++m) {
        builder.trace().markers[m].rank =
            Trace::shortIndex(at.rank); // readTrace refuses a rank beyond
    }
    FileDecoded out;
    out.end = filter.lastTime();
    out.lastRecorded = filter.lastRecorded();
    out.version = sniffed.layout->version;
    out.workers = decoder.workers();
    if (out.workers == 0) {
        out.noWorker = decoder.noWorkerFound();
    }
    return out;
}

// Several files: the job's ranks, its messages matched as starpu_fxt_tool matches them.
void addRanks(Trace& trace, const detail::RankPlan& plan,
              const std::vector<detail::RankTraffic>& traffic) {
    trace.ranks.clear();
    for (const auto& r : plan.files) {
        trace.ranks.push_back(r.info);
    }
    std::size_t unmatched = 0;
    if (plan.oneRun) {
        trace.messages = detail::matchMessages(traffic, unmatched);
    }
    if (unmatched > 0) {
        trace.warnings.push_back(
            std::to_string(unmatched)
            + " MPI sends have no matching receive in the prof files (a rank's file missing?)");
    }
    for (const auto& m : trace.messages) {
        trace.end = std::max(trace.end, m.end);
    }
}

// StarPU writes about 1 KB of FxT events per task and 150 bytes per state (see inputBytes).
void reserveFor(TraceBuilder& builder, std::uintmax_t bytes) {
    builder.reserveTasks(
        static_cast<std::size_t>(std::min<std::uintmax_t>(bytes / 512, std::uintmax_t{1} << 22)));
    builder.expectSpans(
        static_cast<std::size_t>(std::min<std::uintmax_t>(bytes / 128, std::uintmax_t{1} << 24)));
    // A CNN training run writes a marker per 3.2 KB (75,000 in a 240 MB trace of 10 epochs: at
    // one per 4 KB the table was copied once as it grew); a trace without them reserves
    // untouched pages.
    builder.reserveMarkers(
        static_cast<std::size_t>(std::min<std::uintmax_t>(bytes / 2048, std::uintmax_t{1} << 20)));
}

// Below this many bytes of prof files in all, a job's files are decoded one after another:
// threads and the merge of their partial models cost about what they save. `stats` of recorded
// StarPU-MPI stencil jobs, one after another against on 2 threads, medians of alternating runs on
// the 2-core machine shared with two builds (load 6-7, so noisy): 2 ranks of 21 MB 0.061 against
// 0.064 s (11 runs), 4 of 29 MB 0.091 against 0.091 (11), 2 of 157 MB 0.291 against 0.256 (5),
// 4 of 212 MB 0.409 against 0.479 (5); the tests' 0.1 MB jobs 0.012 against 0.016 (21). A file
// from 32 MiB on has a second thread of its own one after another (kTwoThreadsMinBytes): on 2
// cores the parallel path pays little; on more cores, more.
constexpr std::uintmax_t kParallelRanksMinBytes = std::uintmax_t{64} << 20;

// How many of a job's files decode at once: 1 (one after another, into one builder) for one
// file, for files libfxt reads (forked from one thread only, see decodeFile) and for small jobs;
// else as many as there are cores and files, ReadOptions::threads capping it when set (any
// count above 1 then decodes in parallel, whatever the size).
unsigned rankThreads(const std::vector<FxtEvents>& sources, const ReadOptions& options) {
    if (sources.size() < 2 || options.threads == 1) {
        return 1;
    }
    if (!std::all_of(sources.begin(), sources.end(), [](const FxtEvents& s) { return s.direct(); })) {
        return 1;
    }
    std::vector<std::filesystem::path> files;
    for (const auto& source : sources) {
        files.push_back(source.file());
    }
    const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
    if (options.threads == 0 && (cores < 2 || inputBytes(files) < kParallelRanksMinBytes)) {
        return 1;
    }
    const unsigned cap = options.threads == 0 ? cores : options.threads;
    return static_cast<unsigned>(std::min<std::size_t>(cap, sources.size()));
}

// One rank's file decoded on its own: its partial model, until absorbed into the job's.
struct RankPart {
    TraceBuilder builder;
    detail::DataUse dataUse;
    TraceResult<FileDecoded> decoded = fail(TraceError{ErrorCode::Cancelled, "not decoded", {}, {}});
};

// Decodes the files on `threads` threads (this one among them), each file into its own part,
// its clock and traffic from fileAt as in the serial path. The caller's progress callback is
// called by one thread at a time, with the mean of the files' fractions; once it returns false
// every file's walk is cancelled.
template <typename FileAt, typename SourceOf>
std::vector<RankPart> decodeRanksInParallel(std::size_t count, unsigned threads, const FileAt& fileAt,
                                            const SourceOf& sourceOf, const ReadOptions& options) {
    std::vector<RankPart> parts(count);
    std::vector<FileInRead> at;
    for (std::size_t i = 0; i < count; ++i) {
        at.push_back(fileAt(i));   // before the threads: it names each rank's traffic
    }
    std::mutex progressMutex;
    std::vector<double> fractions(count, 0.0);
    bool cancelled = false;   // under progressMutex
    // Thread t decodes file t first (every thread has one at least: tests see them all), then
    // whichever comes next.
    std::atomic<std::size_t> next{threads};
    const auto work = [&](std::size_t first) {
        for (std::size_t i = first; i < count; i = next++) {
            const auto& source = sourceOf(i);
            std::error_code ec;
            const auto size = std::filesystem::file_size(source.file(), ec);
            reserveFor(parts[i].builder, ec ? 0 : size);
            std::function<bool(double)> progress;
            if (options.progress) {
                progress = [&, i](double fraction) {
                    const std::lock_guard lock(progressMutex);
                    if (cancelled) {
                        return false;
                    }
                    fractions[i] = fraction;
                    double sum = 0;
                    for (const double f : fractions) {
                        sum += f;
                    }
                    cancelled = !options.progress(sum / static_cast<double>(count));
                    return !cancelled;
                };
            }
            parts[i].decoded = decodeFile(parts[i].builder, parts[i].dataUse, source, at[i], options, progress, false);
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) {
        pool.emplace_back(work, t);
    }
    work(0);
    for (auto& thread : pool) {
        thread.join();
    }
    return parts;
}

} // namespace

TraceResult<Trace> detail::readFxt(const std::vector<std::filesystem::path>& files,
                                   const ReadOptions& options) {
    if (files.empty()) {
        return fail(TraceError{ErrorCode::InvalidArgument, "no FxT file to read", {}, {}});
    }
    TraceBuilder builder;
    // Each file's event source is chosen once, here; every pass over the file goes through it.
    std::vector<FxtEvents> sources(files.begin(), files.end());
    // Several files are several processes of one StarPU-MPI run: in rank order, each on the
    // job's clock (mpi_merge.hpp).
    const bool multi = files.size() > 1;
    detail::RankPlan plan;
    if (multi) {
        auto planned = detail::planRanks(sources);
        if (!planned) {
            return fail(planned.error());
        }
        plan = std::move(*planned);
        for (auto& note : plan.warnings) {
            builder.warn(std::move(note));
        }
    }
    std::vector<detail::RankTraffic> traffic(plan.files.size());
    const auto fileAt = [&](std::size_t i) {
        FileInRead at{i, files.size()};
        if (multi) {
            at.rank = plan.files[i].rank;
            at.clock = &plan.files[i].clock;
            at.traffic = &traffic[i];
            traffic[i].rank = at.rank;
        }
        return at;
    };
    const auto sourceOf = [&](std::size_t i) -> const FxtEvents& {
        return sources[multi ? plan.files[i].source : i];
    };
    detail::DataUse dataUse;
    TimeNs end = 0;
    std::string versions;
    std::size_t workers = 0;
    std::string noWorker; // why the first file without workers has none
    // What file i added, once decoded: its sync points checked against its data, its figures kept.
    const auto taken = [&](std::size_t i, const FileDecoded& decoded) -> std::optional<TraceError> {
        if (multi) {
            if (auto wrong = detail::syncBeyondData(plan.files[i], decoded.lastRecorded)) {
                return wrong;
            }
        }
        end = std::max(end, decoded.end);
        if (versions.find(decoded.version) == std::string::npos) {
            versions += (versions.empty() ? "" : ", ") + std::string(decoded.version);
        }
        workers += decoded.workers;
        if (noWorker.empty()) {
            noWorker = decoded.noWorker;
        }
        return std::nullopt;
    };
    const unsigned threads = rankThreads(sources, options);
    if (threads > 1) {
        auto parts = decodeRanksInParallel(files.size(), threads, fileAt, sourceOf, options);
        std::size_t tasks = builder.trace().tasks.size();
        for (const auto& part : parts) {
            tasks += part.builder.taskCount();
        }
        builder.trace().tasks.reserve(tasks);
        for (std::size_t i = 0; i < parts.size(); ++i) {
            auto& part = parts[i];
            if (!part.decoded) {
                return fail(part.decoded.error());
            }
            if (auto wrong = taken(i, *part.decoded)) {
                return fail(std::move(*wrong));
            }
            const auto lanes = static_cast<std::int32_t>(builder.laneCount());
            if (traffic[i].commLane >= 0) {
                traffic[i].commLane += lanes;
            }
            dataUse.append(part.dataUse, builder.trace().transfers.size());
            builder.absorb(std::move(part.builder));
        }
    } else {
        reserveFor(builder, inputBytes(files));
        for (std::size_t i = 0; i < files.size(); ++i) {
            std::function<bool(double)> progress;
            if (options.progress) {
                progress = [&options, i, count = files.size()](double fraction) {
                    return options.progress((static_cast<double>(i) + fraction) / static_cast<double>(count));
                };
            }
            const auto decoded = decodeFile(builder, dataUse, sourceOf(i), fileAt(i), options, progress, true);
            if (!decoded) {
                return fail(decoded.error());
            }
            if (auto wrong = taken(i, *decoded)) {
                return fail(std::move(*wrong));
            }
        }
    }
    builder.setMetadata("format", "fxt");
    builder.setMetadata("starpu.codes", versions);
    auto trace = builder.finish(end);
    // The transfers are still in the order the decoders added them.
    dataUse.assignTransferTasks(trace);
    std::stable_sort(trace.transfers.begin(), trace.transfers.end(),
                     [](const Transfer& a, const Transfer& b) { return a.start < b.start; });
    for (const auto& x : trace.transfers) {
        trace.end = std::max(trace.end, x.end);
    }
    if (multi) {
        addRanks(trace, plan, traffic);
    }
    if (workers == 0) {
        return fail(TraceError{ErrorCode::Unsupported, noWorker, files.front().string(), {}});
    }
    if (versions.find(',') != std::string::npos) {
        trace.warnings.push_back("the prof files were written by different StarPU versions ("
                                 + versions + ")");
    }
    return trace;
}

} // namespace starscope::tracer
