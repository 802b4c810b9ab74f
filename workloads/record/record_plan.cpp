#include "workloads/record/record_plan.hpp"

#include "workloads/record/folder_lock.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
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

// A variable of the environment StarPU reads, when set to something.
std::optional<std::string> environmentValue(const char* name) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') {
        return std::nullopt;
    }
    return std::string(value);
}

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

// --no-trace > STARPU_FXT_TRACE (StarPU reads it as a number: 0 off, else on) > on.
WorkloadResult<StarpuSetting<bool>> resolveTrace(bool noTrace) {
    if (noTrace) {
        return StarpuSetting<bool>{false, SettingSource::Option, {}};
    }
    if (const auto text = environmentValue("STARPU_FXT_TRACE")) {
        long value = 0;
        const char* end = text->data() + text->size();
        const auto [ptr, ec] = std::from_chars(text->data(), end, value);
        if (ec != std::errc{} || ptr != end) {
            return workloadError(ErrorCode::InvalidArgument,
                                 "'" + *text + "' is not a number (0: no trace, 1: trace): correct or "
                                               "unset it, or pass --no-trace",
                                 "STARPU_FXT_TRACE");
        }
        return StarpuSetting<bool>{value != 0, SettingSource::Environment, "STARPU_FXT_TRACE"};
    }
    return StarpuSetting<bool>{true, SettingSource::Default, {}};
}

// A user's STARPU_TRACE_BUFFER_SIZE (MiB, as StarPU reads it) wins over record's sizing.
WorkloadResult<std::optional<std::uint64_t>> userTraceBuffer() {
    const auto text = environmentValue("STARPU_TRACE_BUFFER_SIZE");
    if (!text) {
        return std::optional<std::uint64_t>();
    }
    std::uint64_t mb = 0;
    const char* end = text->data() + text->size();
    const auto [ptr, ec] = std::from_chars(text->data(), end, mb);
    if (ec != std::errc{} || ptr != end || mb < 1 || mb > (std::uint64_t{1} << 20)) {
        return workloadError(ErrorCode::InvalidArgument,
                             "'" + *text + "' is not a buffer size in MiB from 1 to 1048576: correct or "
                                           "unset it (record then sizes the buffer for the run)",
                             "STARPU_TRACE_BUFFER_SIZE");
    }
    return std::optional<std::uint64_t>(mb);
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

// The folder a path names, for comparing two spellings of it ("runs/a/", "./runs/a", a
// symlink to it).
fs::path comparablePath(const fs::path& path) {
    std::error_code ec;
    fs::path out = fs::weakly_canonical(fs::absolute(path, ec), ec);
    if (ec) {
        out = fs::absolute(path, ec).lexically_normal();
    }
    if (!out.has_filename() && out.has_relative_path()) {
        out = out.parent_path();
    }
    return out;
}

WorkloadResult<fs::path> checkOutput(const std::string& out, bool force, bool& exists) {
    if (out.empty()) {
        return badFlag("--out", "missing: name the run folder to write (e.g. --out "
                                "runs/single-naive), or set STARPU_FXT_PREFIX to it");
    }
    std::error_code ec;
    fs::path dir = fs::absolute(out, ec).lexically_normal();
    if (ec) {
        return workloadError(ErrorCode::Io, "cannot resolve the path: " + ec.message(), out);
    }
    // "runs/a/" is the folder runs/a: run.json and the summary name it without the slash.
    if (!dir.has_filename() && dir.has_relative_path()) {
        dir = dir.parent_path();
    }
    const char* user = std::getenv("USER");
    const std::size_t traceName =
        std::strlen("/prof_file__0000000000") + (user != nullptr ? std::strlen(user) : 0);
    if (dir.string().size() + traceName >= kStarpuTracePathMax) {
        return workloadError(ErrorCode::InvalidArgument,
                             "path too long: StarPU keeps the trace file path in "
                                 + std::to_string(kStarpuTracePathMax)
                                 + " bytes; choose a shorter --out",
                             dir.string());
    }
    exists = fs::exists(dir, ec);
    if (exists) {
        if (!fs::is_directory(dir, ec)) {
            return workloadError(ErrorCode::Io, "exists and is not a folder (--out)", dir.string());
        }
        if (const auto holder = folderLockHolder(dir)) {
            return fail(lockedFolderError(dir, "run folder", *holder));
        }
        if (!force && !isEmptyRunFolder(dir)) {
            return workloadError(ErrorCode::Io,
                                 "run folder already exists and is not empty: pass --force to "
                                 "overwrite it, or choose another --out",
                                 dir.string());
        }
        if (::access(dir.c_str(), W_OK | X_OK) != 0) {
            return workloadError(ErrorCode::Io,
                                 std::string("run folder is not writable: ") + std::strerror(errno),
                                 dir.string());
        }
        return dir;
    }
    fs::path parent = dir.parent_path();
    while (!parent.empty() && !fs::exists(parent, ec)) {
        parent = parent.parent_path();
    }
    if (parent.empty() || !fs::is_directory(parent, ec)) {
        return workloadError(
            ErrorCode::Io, "cannot create the run folder: " + parent.string() + " is not a folder",
            dir.string());
    }
    if (::access(parent.c_str(), W_OK | X_OK) != 0) {
        return workloadError(ErrorCode::Io,
                             "cannot create the run folder: " + parent.string()
                                 + " is not writable (" + std::strerror(errno) + ")",
                             dir.string());
    }
    return dir;
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

const char* settingSourceName(SettingSource source) {
    switch (source) {
    case SettingSource::Option: return "option";
    case SettingSource::Environment: return "environment";
    case SettingSource::Default: return "default";
    }
    return "default";
}

std::uint64_t traceBufferMbFor(std::uint64_t traceBytes) {
    const std::uint64_t mib = std::uint64_t{1} << 20;
    const std::uint64_t half = (traceBytes / 2 + mib - 1) / mib;
    return std::clamp(half, kTraceMinMb, kTraceMaxMb);
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
    plan.estimatedTasks = batches * (3 * chunks + 3) + exchangeTasks + evalTasks + 4 * plan.workers;
    plan.estimatedMessages = messages;
    plan.expectedTraceBytes = plan.estimatedTasks * kTraceBytesPerTask + messages * kTraceBytesPerMessage;
    plan.traceBufferMb = 0;
    plan.traceBufferSource = SettingSource::Default;
    if (plan.trace.value) {
        auto userBuffer = userTraceBuffer();
        if (!userBuffer) {
            return fail(userBuffer.error());
        }
        plan.traceBufferMb = userBuffer->value_or(traceBufferMbFor(plan.expectedTraceBytes));
        plan.traceBufferSource = *userBuffer ? SettingSource::Environment : SettingSource::Default;
    }
    plan.environment = starpuEnvironment(plan);
    return Done{};
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

std::string settingOrigin(SettingSource source, const std::string& variable) {
    return source == SettingSource::Environment ? " (from " + variable + ")" : std::string();
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
    // StarPU names its trace file <STARPU_FXT_SUFFIX>_<id> instead of prof_file_<user>_<id>
    // when it is set, and every reader looks for prof_file_*.
    if (plan.trace.value && environmentValue("STARPU_FXT_SUFFIX")) {
        return workloadError(ErrorCode::InvalidArgument,
                             "is set, so StarPU would not name the trace prof_file_*, which is what "
                             "every reader of a run folder opens: unset it",
                             "STARPU_FXT_SUFFIX");
    }
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

    const auto prefix = environmentValue("STARPU_FXT_PREFIX");
    plan.outSource = options.out.empty() && prefix ? SettingSource::Environment : SettingSource::Option;
    auto out = checkOutput(plan.outSource == SettingSource::Environment ? *prefix : options.out,
                           options.force, plan.outExists);
    if (!out) {
        return fail(out.error());
    }
    plan.outDir = *out;
    if (prefix && comparablePath(*prefix) != comparablePath(plan.outDir)) {
        return workloadError(ErrorCode::InvalidArgument,
                             "names " + *prefix + ", but the run folder (--out) is "
                                 + plan.outDir.string()
                                 + ": the trace must go into the run folder, which is what every "
                                   "reader opens; unset STARPU_FXT_PREFIX, or pass the same folder "
                                   "as --out",
                             "STARPU_FXT_PREFIX");
    }

    if (auto sized = sizeTrace(plan); !sized) {
        return fail(sized.error());
    }
    return plan;
}

} // namespace starscope::workloads
