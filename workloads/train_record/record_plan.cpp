#include "workloads/train_record/record_plan.hpp"

#include "workloads/record/folder_lock.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <starpu.h>
#include <optional>
#include <thread>
#include <unistd.h>

namespace starscope::workloads {

namespace fs = std::filesystem;

namespace {

Unexpected<WorkloadError> badFlag(const std::string& flag, std::string message) {
    return workloadError(ErrorCode::InvalidArgument, std::move(message), flag);
}

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& name : names) {
        out += out.empty() ? "" : ", ";
        out += name;
    }
    return out;
}

constexpr std::size_t kMaxWorkers = 1024;

WorkloadResult<StarpuSetting<std::size_t>> resolveWorkers(std::size_t option, bool idleWorkersSpin) {
    if (option != 0) {
        if (option > kMaxWorkers) {
            return badFlag("--workers", "at most " + std::to_string(kMaxWorkers) + " workers (got "
                                            + std::to_string(option) + ")");
        }
        return StarpuSetting<std::size_t>{option, SettingSource::Option, {}};
    }
    // STARPU_NCPUS is the older name StarPU still reads when STARPU_NCPU is not set.
    for (const char* variable : {"STARPU_NCPU", "STARPU_NCPUS"}) {
        const auto text = environmentValue(variable);
        if (!text) {
            continue;
        }
        std::size_t count = 0;
        const char* end = text->data() + text->size();
        const auto [ptr, ec] = std::from_chars(text->data(), end, count);
        if (ec != std::errc{} || ptr != end || count < 1 || count > kMaxWorkers) {
            return workloadError(ErrorCode::InvalidArgument,
                                 "'" + *text + "' is not a CPU worker count from 1 to "
                                     + std::to_string(kMaxWorkers)
                                     + ": correct or unset it, or pass --workers",
                                 variable);
        }
        return StarpuSetting<std::size_t>{count, SettingSource::Environment, variable};
    }
    return StarpuSetting<std::size_t>{defaultCpuWorkersHere(idleWorkersSpin), SettingSource::Default, {}};
}

// The user's value of a variable when set, else record's.
StarpuVariable variable(const char* name, std::string recordValue, SettingSource recordSource) {
    if (auto text = environmentValue(name)) {
        return {name, std::move(*text), SettingSource::Environment};
    }
    return {name, std::move(recordValue), recordSource};
}

// What the run puts into StarPU's environment, in the order executeRecord sets it.
std::vector<StarpuVariable> starpuEnvironment(const RecordPlan& plan) {
    std::vector<StarpuVariable> out;
    out.push_back({"STARPU_FXT_TRACE", plan.trace.value ? "1" : "0", plan.trace.source});
    if (plan.trace.value) {
        out.push_back({"STARPU_FXT_PREFIX", plan.outDir.string(), plan.outSource});
        out.push_back({"STARPU_TRACE_BUFFER_SIZE", std::to_string(plan.traceBufferMb), plan.traceBufferSource});
        if (plan.events.applies) {
            out.push_back(
                {"STARPU_FXT_EVENTS", plan.events.set.value.text(), plan.events.set.source});
        }
    }
    const auto& workers = plan.workersAsked;
    out.push_back({workers.source == SettingSource::Environment ? workers.variable : "STARPU_NCPU",
                   std::to_string(workers.value), workers.source});
    out.push_back({"STARPU_SCHED", plan.schedAsked.value, plan.schedAsked.source});
    // record's handler stops at a batch boundary and keeps the trace; StarPU's would end the
    // process mid-batch. A user's own STARPU_CATCH_SIGNALS still wins.
    out.push_back(variable("STARPU_CATCH_SIGNALS", "0", SettingSource::Default));
    // StarPU's start-up banner (FxT slows things down a bit...) is noise in record's output.
    out.push_back(variable("STARPU_SILENT", "1", SettingSource::Default));
    return out;
}

WorkloadResult<StarpuSetting<std::string>> resolveScheduler(const std::string& option) {
    StarpuSetting<std::string> sched{option, SettingSource::Option, {}};
    std::string flag = "--sched";
    if (option.empty()) {
        if (auto text = environmentValue("STARPU_SCHED")) {
            sched = {std::move(*text), SettingSource::Environment, "STARPU_SCHED"};
            flag = "STARPU_SCHED";
        } else {
            sched = {kDefaultScheduler, SettingSource::Default, {}};
        }
    }
    const auto schedulers = starpuSchedulers();
    if (std::find(schedulers.begin(), schedulers.end(), sched.value) == schedulers.end()) {
        return workloadError(ErrorCode::InvalidArgument,
                             "unknown StarPU scheduler '" + sched.value + "': known are "
                                 + joined(schedulers),
                             flag);
    }
    return sched;
}

} // namespace

WorkloadResult<std::size_t> parseArenas(const std::string& text) {
    if (text == "single") {
        return std::size_t{1};
    }
    if (text == "double") {
        return std::size_t{2};
    }
    std::size_t slots = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), slots);
    if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size() || slots < 1
        || slots > 64) {
        return badFlag("--arenas", "unknown arena strategy '" + text
                                       + "': use single, double or a slot count 1-64");
    }
    return slots;
}

std::uint64_t traceBufferMbFor(std::uint64_t measuredBytes, std::uint64_t capMb) {
    const std::uint64_t mib = std::uint64_t{1} << 20;
    const std::uint64_t withRoom = measuredBytes + measuredBytes / 16;
    const std::uint64_t wanted = withRoom / mib + (withRoom % mib != 0 ? 1 : 0);
    return std::clamp(wanted, kTraceMinMb, std::max(capMb, kTraceMinMb));
}

std::uint64_t traceBufferCapMb(std::optional<std::uint64_t> availableBytes, std::size_t ranksOnMachine) {
    if (!availableBytes) {
        return kTraceMaxMb;
    }
    const std::uint64_t buffers = 2 * std::max<std::uint64_t>(ranksOnMachine, 1);
    return std::clamp(*availableBytes / 8 / buffers / (std::uint64_t{1} << 20), kTraceMinMb, kTraceMaxMb);
}

std::optional<std::uint64_t> availableMemoryBytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string name;
    std::uint64_t kib = 0;
    std::string unit;
    while (meminfo >> name >> kib >> unit) {
        if (name == "MemAvailable:") {
            return kib * 1024;
        }
    }
    return std::nullopt;
}

std::uint64_t traceBytesPerTask(const EventsChoice& events, bool starpuSelectsEvents) {
    if (!starpuSelectsEvents) {
        return kTraceBytesPerTaskStarpu13;
    }
    const bool defaultSet = events.applies && events.set.value == tracer::FxtEventSet::starscopeDefault();
    return defaultSet ? kTraceBytesPerTaskDefaultEvents : kTraceBytesPerTask;
}

WorkloadResult<Done> sizeTrace(RecordPlan& plan) {
    const auto& train = plan.train;
    const std::uint64_t chunks = (train.batchSize + train.chunk - 1) / train.chunk;
    const std::uint64_t batches = plan.options.epochs * plan.batchesPerEpoch;
    const std::size_t testImages =
        plan.options.testImages == 0
            ? plan.dataset->test().count()
            : std::min<std::size_t>(plan.options.testImages, plan.dataset->test().count());
    const std::uint64_t evalTasks =
        train.evaluate ? 2 * ((testImages + train.evalChunk - 1) / train.evalChunk) : 0;
    // Under StarPU-MPI (train.shardCount ranks) every rank checksums its parameters after each
    // batch; rank 0 averages each parameter and exchanges it with every other rank (a receive
    // and a send per rank), the others send theirs and receive the average (param_exchange.cpp).
    const std::uint64_t ranks = std::max<std::size_t>(train.shardCount, 1);
    const std::uint64_t params = 2;
    std::uint64_t exchangeTasks = 0;
    std::uint64_t messages = 0;
    if (ranks > 1) {
        const bool root = train.shardIndex == 0;
        exchangeTasks = batches * (root ? params + 1 : 1);
        messages = batches * params * 2 * (root ? ranks - 1 : 1);
    }
    // Per chunk 3 layer tasks (network.hpp), per batch 2 SGD tasks and the loader's conversion.
    const std::uint64_t trainingTasks = batches * (3 * chunks + 3) + exchangeTasks + 4 * plan.workers;
    plan.estimatedTasks = trainingTasks + evalTasks;
    plan.estimatedMessages = messages;
    const std::uint64_t bytesPerTask = traceBytesPerTask(plan.events, starpuSelectsFxtEvents());
    const std::uint64_t messageBytes = messages * kTraceBytesPerMessage;
    plan.expectedTraceBytes = plan.estimatedTasks * bytesPerTask + messageBytes;
    plan.expectedTrainingTraceBytes = trainingTasks * bytesPerTask + messageBytes;
    plan.traceBufferMb = 0;
    plan.traceBufferSource = SettingSource::Default;
    if (plan.trace.value) {
        auto buffer =
            resolveTraceBuffer(plan.options.bufferMb,
                               traceBufferMbFor(plan.expectedTrainingTraceBytes,
                                                traceBufferCapMb(availableMemoryBytes(), ranksOnThisMachine())));
        if (!buffer) {
            return fail(buffer.error());
        }
        plan.traceBufferMb = buffer->value;
        plan.traceBufferSource = buffer->source;
    }
    plan.environment = starpuEnvironment(plan);
    return Done{};
}

bool starpuSelectsFxtEvents() {
#if STARPU_MAJOR_VERSION > 1 || (STARPU_MAJOR_VERSION == 1 && STARPU_MINOR_VERSION >= 4)
    return true;
#else
    return false;
#endif
}

bool starpuIdleWorkersSpin() {
#ifdef STARPU_NON_BLOCKING_DRIVERS
    return true;
#else
    return false;
#endif
}

std::size_t defaultCpuWorkers(std::size_t hardwareThreads, bool idleWorkersSpin, std::size_t ranksOnMachine) {
    const std::size_t threads =
        std::max<std::size_t>(hardwareThreads / std::max<std::size_t>(ranksOnMachine, 1), 1);
    return idleWorkersSpin ? std::max<std::size_t>(threads - 1, 1) : threads;
}

std::size_t defaultCpuWorkersHere(bool idleWorkersSpin, std::size_t ranksOnMachine) {
    return defaultCpuWorkers(std::thread::hardware_concurrency(), idleWorkersSpin, ranksOnMachine);
}

std::size_t ranksOnThisMachine() {
    for (const char* variable : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"}) {
        const auto text = environmentValue(variable);
        std::size_t count = 0;
        if (text && std::from_chars(text->data(), text->data() + text->size(), count).ec == std::errc{}
            && count >= 1) {
            return count;
        }
    }
    return 1;
}

std::vector<std::string> starpuSchedulers() {
    std::vector<std::string> names;
    for (starpu_sched_policy** policy = starpu_sched_get_predefined_policies();
         policy != nullptr && *policy != nullptr; ++policy) {
        names.emplace_back((*policy)->policy_name);
    }
    return names;
}

WorkloadResult<RecordPlan> planRecord(const RecordOptions& options) {
    RecordPlan plan;
    plan.options = options;
    if (plan.options.chunk == 0) {
        plan.options.chunk = std::min(kDefaultChunk, std::max<std::size_t>(options.batchSize, 1));
    }

    auto slots = parseArenas(options.arenas);
    if (!slots) {
        return fail(slots.error());
    }
    plan.ringSlots = *slots;
    plan.arenasName = options.arenas;
    auto loader = runtime::parseLoaderKind(options.loader);
    if (!loader) {
        return badFlag("--loader", loader.error().message);
    }
    plan.loader = *loader;
    if (options.epochs == 0) {
        return badFlag("--epochs", "must be at least 1 (got 0)");
    }
    if (options.batchSize == 0) {
        return badFlag("--batch-size", "must be at least 1 (got 0)");
    }
    if (plan.options.chunk > options.batchSize) {
        return badFlag("--chunk", "chunk of " + std::to_string(plan.options.chunk)
                                      + " images is larger than the batch size "
                                      + std::to_string(options.batchSize));
    }
    if (options.batchSize / plan.options.chunk > 4096) {
        return badFlag("--chunk", "more than 4096 chunks per batch: raise --chunk");
    }
    plan.idleWorkersSpin = starpuIdleWorkersSpin();
    auto workers = resolveWorkers(options.workers, plan.idleWorkersSpin);
    if (!workers) {
        return fail(workers.error());
    }
    plan.workersAsked = std::move(workers.value());
    plan.coreLeftToMainThread = plan.workersAsked.source == SettingSource::Default
                                && plan.workersAsked.value < std::thread::hardware_concurrency();
    plan.workers = plan.workersAsked.value;
    auto sched = resolveScheduler(options.sched);
    if (!sched) {
        return fail(sched.error());
    }
    plan.schedAsked = std::move(sched.value());
    plan.sched = plan.schedAsked.value;
    auto trace = resolveTrace(options.noTrace);
    if (!trace) {
        return fail(trace.error());
    }
    plan.trace = std::move(trace.value());
    auto events = resolveEvents(options.events, starpuSelectsFxtEvents());
    if (!events) {
        return fail(events.error());
    }
    plan.events = std::move(events.value());
    plan.events.applies = plan.events.applies && plan.trace.value;
    if (!(options.learningRate > 0.0F)) {
        return badFlag("--learning-rate", "must be positive");
    }

    plan.datasetDir = options.dataset.empty() ? defaultDatasetDir() : fs::path(options.dataset);
    auto dataset = MnistDataset::open(plan.datasetDir);
    if (!dataset) {
        return fail(dataset.error());
    }
    plan.dataset.emplace(std::move(dataset.value()));
    const auto& train = plan.dataset->train();
    if (train.rows() < 6 || train.cols() < 6) {
        return workloadError(ErrorCode::Corrupt,
                             "images of " + std::to_string(train.rows()) + "x"
                                 + std::to_string(train.cols())
                                 + " are too small for the 5x5 convolution and 2x2 pooling",
                             train.images.path().string());
    }
    const std::size_t images = options.trainImages == 0
                                   ? train.count()
                                   : std::min<std::size_t>(options.trainImages, train.count());
    if (options.batchSize > images) {
        return badFlag("--batch-size", "batch size " + std::to_string(options.batchSize)
                                           + " is larger than the " + std::to_string(images)
                                           + " training images of " + plan.datasetDir.string());
    }

    plan.train.epochs = options.epochs;
    plan.train.batchesPerEpoch = options.batches;
    plan.train.batchSize = options.batchSize;
    plan.train.chunk = plan.options.chunk;
    plan.train.ringSlots = plan.ringSlots;
    plan.train.loader = plan.loader;
    plan.train.learningRate = options.learningRate;
    plan.train.seed = options.seed;
    plan.train.trainLimit = options.trainImages;
    plan.train.testLimit = options.testImages;
    const std::size_t fullBatches = images / options.batchSize;
    if (options.batches > fullBatches) {
        return badFlag("--batches", std::to_string(options.batches) + " batches per epoch, but "
                                        + std::to_string(images) + " training images make only "
                                        + std::to_string(fullBatches) + " batches of "
                                        + std::to_string(options.batchSize));
    }
    plan.batchesPerEpoch = options.batches == 0 ? fullBatches : options.batches;

    auto out = chooseRunFolder(options.out, options.force);
    if (!out) {
        return fail(out.error());
    }
    plan.outDir = out->dir;
    plan.outExists = out->exists;
    plan.outSource = out->source;

    if (auto sized = sizeTrace(plan); !sized) {
        return fail(sized.error());
    }
    return plan;
}

} // namespace starscope::workloads
