#include "tracer/run_folder/run_record.hpp"

#include "common/file_writer.hpp"
#include "common/input_file.hpp"
#include "common/json_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace starscope::tracer::run {

using nlohmann::json;

std::string StrategyRecord::name() const {
    if (arenas.empty() && loader.empty()) {
        return text;
    }
    return arenas + (arenas.empty() || loader.empty() ? "" : "+") + loader;
}

std::optional<double> PapiRecord::eventTotal(std::string_view name) const {
    for (const auto& e : events) {
        if (e.name == name && e.available) {
            return static_cast<double>(e.total);
        }
    }
    return std::nullopt;
}

namespace {

// ---- writer -------------------------------------------------------------------------------

json unavailable(const std::string& reason) { return json{{"available", false}, {"reason", reason}}; }

json availabilityJson(const Availability& a) {
    return a.available ? json{{"available", true}} : unavailable(a.reason);
}

json papiJson(const PapiRecord& papi) {
    json out = availabilityJson(papi.availability);
    if (papi.availability.available) {
        out["workers"] = papi.workers;
    }
    json events = json::array();
    for (const auto& e : papi.events) {
        if (!e.available) {
            events.push_back({{"name", e.name}, {"available", false}, {"reason", e.reason}});
        } else {
            events.push_back({{"name", e.name}, {"available", true}, {"total", e.total}, {"per_worker", e.perWorker}});
        }
    }
    out["events"] = events;
    if (papi.availability.available) {
        out["ipc"] = papi.ipc ? json(*papi.ipc) : unavailable(papi.ipcReason);
    }
    return out;
}

// The CNN's measurements: epochs, test, counters and arenas.
void addCnnSections(const RunRecord& r, json& out) {
    json epochs = json::array();
    for (const auto& e : r.epochStats) {
        epochs.push_back({{"epoch", e.epoch},
                          {"batches", e.batches},
                          {"loss", e.loss},
                          {"accuracy", e.accuracy},
                          {"seconds", e.seconds}});
    }
    out["epoch_stats"] = epochs;
    if (r.test) {
        const auto& t = *r.test;
        out["test"] = t.accuracy
                          ? json{{"images", t.images}, {"accuracy", *t.accuracy}, {"loss", t.loss}}
                          : json{{"images", t.images}, {"accuracy", nullptr}, {"reason", t.reason}};
    }
    json energy = availabilityJson(r.energy.availability);
    if (r.energy.availability.available) {
        energy["joules"] = r.energy.joules.value_or(0.0);
        energy["domains"] = r.energy.domains;
    }
    out["counters"] = {{"papi", papiJson(r.papi)}, {"energy", energy}};
    json arenas = json::array();
    for (const auto& a : r.arenas) {
        json entry{{"name", a.name},
                   {"role", a.role},
                   {"peak_bytes", a.peakBytes},
                   {"bytes_reserved", a.bytesReserved},
                   {"blocks", a.blocks},
                   {"resets", a.resets},
                   {"deferred_resets", a.deferredResets},
                   {"handles_released", a.handlesReleased},
                   {"wait_ns", a.waitNs},
                   {"max_wait_ns", a.maxWaitNs}};
        entry["sde"] = a.sde.available ? json{{"available", true}, {"values", a.sdeValues}}
                                       : unavailable(a.sde.reason);
        arenas.push_back(entry);
    }
    out["arenas"] = arenas;
    out["peak_arena_bytes"] = r.peakArenaBytes.value_or(std::map<std::string, std::uint64_t>{});
}

json toJson(const RunRecord& r) {
    json out;
    out["format"] = kRunRecordFormat;
    out["version"] = kRunRecordVersion;
    out["status"] = statusName(r.status);
    if (!r.error.empty()) {
        out["error"] = r.error;
    }
    if (!r.interruptedBy.empty()) {
        out["interrupted_by"] = r.interruptedBy;
    }
    out["started_at"] = r.startedAt;
    out["command"] = r.command;
    json workload{{"kind", workloadKindName(r.workload)}};
    if (r.program) {
        const auto& p = *r.program;
        workload["argv"] = p.argv;
        workload["executable"] = p.executable;
        workload["cwd"] = p.cwd;
        workload["exit"] = p.signal ? json{{"signal", p.signalName}, {"signal_number", *p.signal}}
                                    : json{{"code", p.exitCode.value_or(0)}};
    }
    out["workload"] = workload;
    // The CNN's own sections: a command run has no strategy, epochs, arenas or counters.
    const bool cnn = r.workload == WorkloadKind::Cnn;
    if (cnn) {
        out["strategy"] = {{"arenas", r.strategy.arenas},
                           {"ring_slots", r.strategy.ringSlots},
                           {"loader", r.strategy.loader}};
    }
    if (r.dataset) {
        const auto& d = *r.dataset;
        out["dataset"] = {{"dir", d.dir},   {"train_images", d.trainImages}, {"test_images", d.testImages},
                          {"rows", d.rows}, {"cols", d.cols},                {"train_images_used", d.trainImagesUsed}};
    }
    const auto put = [&out](const char* key, const auto& value) {
        if (value) {
            out[key] = *value;
        }
    };
    put("batch_size", r.batchSize);
    put("epochs", r.epochs);
    put("batches_per_epoch", r.batchesPerEpoch);
    put("chunk", r.chunk);
    put("learning_rate", r.learningRate);
    put("seed", r.seed);
    put("workers", r.workers);
    out["scheduler"] = r.scheduler;
    out["ranks"] = r.ranks;
    out["traced"] = r.traced;
    json environment = json::array();
    for (const auto& e : r.environment) {
        environment.push_back({{"name", e.name}, {"value", e.value}, {"from", e.from}});
    }
    out["starpu"] = {{"version", r.starpuVersion},
                     {"fxt",
                      {{"prefix", r.fxt.prefix},
                       {"trace", r.traced ? 1 : 0},
                       {"buffer_size_mb", r.fxt.bufferSizeMb},
                       {"trace_files", r.fxt.traceFiles}}},
                     {"environment", environment}};
    if (r.fxt.flushes) {
        out["starpu"]["fxt"]["flushes"] = {{"count", r.fxt.flushes->count},
                                           {"total_ns", r.fxt.flushes->totalNs},
                                           {"max_ns", r.fxt.flushes->maxNs}};
    }
    out["starpu"]["version_from"] = starpuVersionSourceName(r.starpuVersionFrom);
    if (r.fxt.events) {
        out["starpu"]["fxt"]["events"] = r.fxt.events->text();
    }
    if (!r.starscopeStarpu.empty()) {
        out["starpu"]["starscope_built_against"] = r.starscopeStarpu;
    }
    if (!r.starpuIdleWorkers.empty()) {
        out["starpu"]["idle_workers"] = r.starpuIdleWorkers;
    }
    put("wall_time_s", r.wallTimeS);
    put("total_time_s", r.totalTimeS);
    put("train_time_s", r.trainTimeS);
    put("eval_time_s", r.evalTimeS);
    put("batches_run", r.batchesRun);
    // A command's executed tasks come from its trace; the CNN's estimate and submissions from
    // record itself.
    json tasks = cnn ? json{{"estimated", r.tasks.estimated}} : json::object();
    if (r.tasks.submitted) {
        tasks["submitted"] = *r.tasks.submitted;
    }
    if (r.tasks.executed) {
        tasks["executed"] = *r.tasks.executed;
    }
    out["tasks"] = tasks;
    if (cnn) {
        addCnnSections(r, out);
    }
    return out;
}

// ---- reader -------------------------------------------------------------------------------

// Reads typed fields out of one JSON object; the first key of a wrong type is remembered
// (with its path) and turns the whole read into a Corrupt error.
class Fields {
public:
    Fields(const json& node, std::string path, std::string* problem)
        : m_node(node), m_path(std::move(path)), m_problem(problem) {}

    const json* find(const char* key) const {
        if (!m_node.is_object()) {
            return nullptr;
        }
        const auto it = m_node.find(key);
        return it == m_node.end() || it->is_null() ? nullptr : &*it;
    }
    bool has(const char* key) const { return find(key) != nullptr; }
    Fields object(const char* key) const {
        static const json kEmpty = json::object();
        const json* v = find(key);
        if (v && !v->is_object()) {
            wrong(key, "an object");
            v = nullptr;
        }
        return Fields(v ? *v : kEmpty, name(key), m_problem);
    }
    const json& array(const char* key) const {
        static const json kEmpty = json::array();
        const json* v = find(key);
        if (v && !v->is_array()) {
            wrong(key, "an array");
            return kEmpty;
        }
        return v ? *v : kEmpty;
    }
    std::optional<double> number(const char* key) const {
        const json* v = find(key);
        if (v && !v->is_number()) {
            wrong(key, "a number");
            return std::nullopt;
        }
        return v ? std::optional<double>(v->get<double>()) : std::nullopt;
    }
    std::optional<std::uint64_t> count(const char* key) const {
        const json* v = find(key);
        if (v && !v->is_number_unsigned()) {
            wrong(key, "a count (an integer >= 0)");
            return std::nullopt;
        }
        return v ? std::optional<std::uint64_t>(v->get<std::uint64_t>()) : std::nullopt;
    }
    long long integer(const char* key) const {
        const json* v = find(key);
        if (v && !v->is_number_integer()) {
            wrong(key, "an integer");
            return 0;
        }
        return v ? v->get<long long>() : 0;
    }
    std::string text(const char* key) const {
        const json* v = find(key);
        if (v && !v->is_string()) {
            wrong(key, "a string");
            return {};
        }
        return v ? v->get<std::string>() : std::string();
    }
    bool flag(const char* key) const {
        const json* v = find(key);
        if (v && !v->is_boolean()) {
            wrong(key, "true or false");
            return false;
        }
        return v && v->get<bool>();
    }
    std::vector<std::string> texts(const char* key) const {
        std::vector<std::string> out;
        for (const auto& item : array(key)) {
            if (!item.is_string()) {
                wrong(key, "an array of strings");
                return {};
            }
            out.push_back(item.get<std::string>());
        }
        return out;
    }
    Availability availability() const {
        return Availability{true, flag("available"), text("reason")};
    }
    std::string name(const char* key) const { return m_path.empty() ? key : m_path + "." + key; }
    void wrong(const char* key, const char* expected) const {
        if (m_problem->empty()) {
            *m_problem = name(key) + " is not " + expected;
        }
    }
    const json& node() const { return m_node; }
    std::string* problem() const { return m_problem; }

private:
    const json& m_node;
    std::string m_path;
    std::string* m_problem;
};

PapiRecord readPapi(const Fields& f) {
    PapiRecord p;
    p.availability = f.availability();
    p.availability.recorded = !f.node().empty();
    p.workers = f.texts("workers");
    for (const auto& e : f.array("events")) {
        const Fields ef(e, f.name("events[]"), f.problem());
        p.events.push_back({ef.text("name"), ef.flag("available"), ef.text("reason"), ef.integer("total"), {}});
        for (const auto& w : ef.array("per_worker")) {
            p.events.back().perWorker.push_back(w.is_number_integer() ? w.get<long long>() : 0);
        }
    }
    if (const json* ipc = f.find("ipc"); ipc && ipc->is_number()) {
        p.ipc = ipc->get<double>();
    } else if (ipc) {
        p.ipcReason = f.object("ipc").text("reason");
    }
    return p;
}

RunRecord readRecord(const Fields& f) {
    RunRecord r;
    r.version = static_cast<int>(f.count("version").value_or(1));
    r.error = f.text("error");
    r.interruptedBy = f.text("interrupted_by");
    r.startedAt = f.text("started_at");
    r.command = f.texts("command");
    if (f.has("workload")) {
        const auto w = f.object("workload");
        const std::string kind = w.text("kind");
        if (const auto parsed = parseWorkloadKind(kind)) {
            r.workload = *parsed;
        } else {
            w.wrong("kind", "\"cnn\" or \"command\"");
        }
        if (r.workload == WorkloadKind::Command) {
            ProgramRecord p;
            p.argv = w.texts("argv");
            if (p.argv.empty()) {
                w.wrong("argv",
                        "a non-empty array of strings (the command's program and arguments)");
            }
            p.executable = w.text("executable");
            p.cwd = w.text("cwd");
            const auto exit = w.object("exit");
            if (exit.has("signal_number")) {
                p.signal = static_cast<int>(exit.integer("signal_number"));
                p.signalName = exit.text("signal");
            } else {
                p.exitCode = static_cast<int>(exit.integer("code"));
            }
            r.program = std::move(p);
        }
    }
    if (const json* s = f.find("strategy"); s && s->is_string()) {
        r.strategy.text = s->get<std::string>();
    } else {
        const auto s2 = f.object("strategy");
        r.strategy.arenas = s2.has("arenas") ? s2.text("arenas") : s2.text("arena");
        r.strategy.ringSlots = s2.count("ring_slots").value_or(0);
        r.strategy.loader = s2.text("loader");
    }
    if (f.has("dataset")) {
        const auto d = f.object("dataset");
        r.dataset = DatasetRecord{d.text("dir"),
                                  d.count("train_images").value_or(0),
                                  d.count("test_images").value_or(0),
                                  d.count("rows").value_or(0),
                                  d.count("cols").value_or(0),
                                  d.count("train_images_used").value_or(0)};
    }
    r.batchSize = f.count("batch_size");
    r.epochs = f.count("epochs");
    r.batchesPerEpoch = f.count("batches_per_epoch");
    r.chunk = f.count("chunk");
    r.learningRate = f.number("learning_rate");
    r.seed = f.count("seed");
    r.workers = f.count("workers");
    r.scheduler = f.text("scheduler");
    r.ranks = f.count("ranks").value_or(1);
    const auto starpu = f.object("starpu");
    r.starpuVersion = starpu.text("version");
    if (starpu.has("version_from")) {
        const auto from = parseStarpuVersionSource(starpu.text("version_from"));
        if (!from) {
            starpu.wrong("version_from", "\"linked\", \"trace layout\" or \"unknown\"");
        }
        r.starpuVersionFrom = from.value_or(StarpuVersionSource::Unknown);
    }
    r.starscopeStarpu = starpu.text("starscope_built_against");
    r.starpuIdleWorkers = starpu.text("idle_workers");
    const auto fxt = starpu.object("fxt");
    r.fxt = FxtRecord{
        fxt.text("prefix"), fxt.count("buffer_size_mb").value_or(0), fxt.texts("trace_files"), {}, {}};
    if (fxt.has("events")) {
        r.fxt.events = FxtEventSet::parse(fxt.text("events"));
        if (!r.fxt.events) {
            fxt.wrong("events", "\"all\" or StarPU's FxT category names separated by commas");
        }
    }
    if (fxt.has("flushes")) {
        const auto flushes = fxt.object("flushes");
        r.fxt.flushes = FlushRecord{flushes.count("count").value_or(0), flushes.integer("total_ns"),
                                    flushes.integer("max_ns")};
    }
    r.traced = !f.has("traced") || f.flag("traced");
    for (const auto& e : starpu.array("environment")) {
        const Fields ef(e, starpu.name("environment[]"), f.problem());
        r.environment.push_back({ef.text("name"), ef.text("value"), ef.text("from")});
    }
    r.wallTimeS = f.number("wall_time_s");
    r.totalTimeS = f.number("total_time_s");
    r.trainTimeS = f.number("train_time_s");
    r.evalTimeS = f.number("eval_time_s");
    r.batchesRun = f.count("batches_run");
    for (const auto& e : f.array("epoch_stats")) {
        const Fields ef(e, f.name("epoch_stats[]"), f.problem());
        r.epochStats.push_back({ef.count("epoch").value_or(0), ef.count("batches").value_or(0),
                                ef.number("loss").value_or(0.0), ef.number("accuracy").value_or(0.0),
                                ef.number("seconds").value_or(0.0)});
    }
    if (f.has("test")) {
        const auto t = f.object("test");
        r.test = TestRecord{t.count("images").value_or(0), t.number("accuracy"), t.number("loss").value_or(0.0),
                            t.text("reason")};
    }
    const auto tasks = f.object("tasks");
    r.tasks = TaskCounts{tasks.count("estimated").value_or(0), tasks.count("submitted"), tasks.count("executed")};
    const auto counters = f.object("counters");
    r.papi = readPapi(counters.object("papi"));
    const auto energy = counters.object("energy");
    r.energy.availability = energy.availability();
    r.energy.availability.recorded = counters.has("energy");
    r.energy.joules = energy.number("joules");
    if (r.energy.joules && !energy.has("available")) {
        r.energy.availability.available = true; // older files: a number is its own availability
    }
    for (const auto& [name, value] : energy.object("domains").node().items()) {
        r.energy.domains[name] = value.is_number() ? value.get<double>() : 0.0;
    }
    for (const auto& a : f.array("arenas")) {
        const Fields af(a, f.name("arenas[]"), f.problem());
        ArenaRecord arena{af.text("name"),
                          af.text("role"),
                          af.count("peak_bytes").value_or(0),
                          af.count("bytes_reserved").value_or(0),
                          af.count("blocks").value_or(0),
                          af.count("resets").value_or(0),
                          af.count("deferred_resets").value_or(0),
                          af.count("handles_released").value_or(0),
                          af.count("wait_ns").value_or(0),
                          af.count("max_wait_ns").value_or(0),
                          {},
                          {}};
        const auto sde = af.object("sde");
        arena.sde = sde.availability();
        for (const auto& [name, value] : sde.object("values").node().items()) {
            arena.sdeValues[name] = value.is_number_integer() ? value.get<long long>() : 0;
        }
        r.arenas.push_back(std::move(arena));
    }
    if (f.has("peak_arena_bytes")) {
        // Byte counts; a hand-written file may hold them as floating-point numbers.
        std::map<std::string, std::uint64_t> peaks;
        for (const auto& [name, value] : f.object("peak_arena_bytes").node().items()) {
            if (!value.is_number() || value.get<double>() < 0.0) {
                f.wrong("peak_arena_bytes", "an object of byte counts");
            }
            peaks[name] = value.is_number_unsigned() ? value.get<std::uint64_t>()
                          : value.is_number()        ? static_cast<std::uint64_t>(std::max(0.0, std::round(value.get<double>())))
                                                     : 0;
        }
        if (!peaks.empty()) {
            r.peakArenaBytes = std::move(peaks);
        }
    }
    return r;
}

} // namespace

std::string runRecordText(const RunRecord& record) {
    return jsonText(toJson(record), 2) + "\n";
}

TraceResult<RunRecord> parseRunRecord(const std::string& text, const std::string& file) {
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        return fail(TraceError{ErrorCode::Corrupt, "not valid JSON (a run.json is one JSON object)", file, {}});
    }
    if (const auto format = doc.find("format");
        format != doc.end() && (!format->is_string() || format->get<std::string>() != kRunRecordFormat)) {
        return fail(TraceError{ErrorCode::Format,
                               std::string("not a run record (format is ") + jsonText(*format)
                                   + ", expected \"" + kRunRecordFormat + "\")",
                               file,
                               {}});
    }
    std::string problem;
    const Fields fields(doc, "", &problem);
    if (const auto version = fields.count("version"); version && *version > static_cast<std::uint64_t>(kRunRecordVersion)) {
        return fail(TraceError{ErrorCode::TooNew, "run.json version " + std::to_string(*version)
                                                      + " is newer than this starscope reads (up to "
                                                      + std::to_string(kRunRecordVersion) + ")",
                               file, {}});
    }
    RunRecord record = readRecord(fields);
    const std::string statusText = fields.text("status");
    if (fields.has("status")) {
        const auto status = parseStatus(statusText);
        if (!status && problem.empty()) {
            problem = "status \"" + statusText + "\" is not completed, interrupted, failed or not run";
        }
        record.status = status.value_or(RunStatus::Failed);
    }
    if (!problem.empty()) {
        return fail(TraceError{ErrorCode::Corrupt, problem, file, {}});
    }
    return record;
}

TraceResult<std::string> detail::readRecordText(const std::filesystem::path& path) {
    if (const auto why = files::notRegularFile(path)) {
        return fail(TraceError{ErrorCode::Io, *why, path.string(), {}});
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return fail(TraceError{ErrorCode::Io, "cannot open", path.string(), {}});
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

TraceResult<Done> detail::writeRecordText(const std::filesystem::path& path, const std::string& text) {
    if (auto written = files::writeFile(path, text); !written) {
        return fail(TraceError{ErrorCode::Io, written.error().message, path.string(), {}});
    }
    return Done{};
}

TraceResult<RunRecord> readRunRecord(const std::filesystem::path& path) {
    auto text = detail::readRecordText(path);
    if (!text) {
        return fail(text.error());
    }
    return parseRunRecord(*text, path.string());
}

TraceResult<Done> writeRunRecord(const std::filesystem::path& path, const RunRecord& record) {
    return detail::writeRecordText(path, runRecordText(record));
}

} // namespace starscope::tracer::run
