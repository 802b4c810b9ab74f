// Chrome trace JSON and CSV writers (Paje: paje_exporter.cpp).

#include "common/json_text.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/exporters/text_format.hpp"
#include "tracer/model/time_unit.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <unordered_map>

namespace starscope::tracer {

using detail::codeletOf;
using detail::fixed;
using detail::kUsPerSecond;
using detail::spanLabel;

namespace {

std::string csvField(std::string_view text) {
    if (text.find_first_of(",\"\n\r") == std::string_view::npos) {
        return std::string(text);
    }
    std::string out = "\"";
    for (const char c : text) {
        out += c;
        if (c == '"') {
            out += '"';
        }
    }
    return out + "\"";
}

std::string_view className(StateClass cls) {
    switch (cls) {
    case StateClass::Executing: return "executing";
    case StateClass::Sleeping: return "sleeping";
    case StateClass::Overhead: return "overhead";
    case StateClass::User: return "user";
    case StateClass::NotProfiled: return "not_profiled";
    case StateClass::Tracing: return "tracing";
    }
    return "unknown";
}

// Each StarPU-MPI rank is a process of its own (pid rank + 1); a one-process trace is pid 1.
std::int32_t pidOfRank(std::int32_t rank) { return rank >= 0 ? rank + 1 : 1; }

} // namespace

void writeChromeJson(const Trace& trace, std::ostream& out) {
    out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    if (trace.ranks.empty()) {
        out << R"({"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"starscope trace"}})";
    } else {
        for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
            const auto pid = pidOfRank(trace.ranks[r].rank);
            out << (r > 0 ? ",\n" : "") << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << pid
                << ",\"tid\":0,\"args\":{\"name\":\"rank " << trace.ranks[r].rank << "\"}}";
            out << ",\n{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" << pid
                << ",\"tid\":0,\"args\":{\"sort_index\":" << pid << "}}";
        }
    }
    const auto pid = [&trace](std::int32_t lane) {
        const Lane* l = trace.laneAt(lane);
        return pidOfRank(l != nullptr ? l->rank : -1);
    };
    for (std::size_t i = 0; i < trace.lanes.size(); ++i) {
        // tid 0 is left to trace-wide markers; lane i is thread i+1, sorted in lane order.
        const auto p = pidOfRank(trace.lanes[i].rank);
        out << ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << p << ",\"tid\":" << i + 1
            << ",\"args\":{\"name\":" << jsonString(trace.lanes[i].name) << "}}";
        out << ",\n{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":" << p << ",\"tid\":" << i + 1
            << ",\"args\":{\"sort_index\":" << i + 1 << "}}";
    }
    // Chrome's times are microseconds; fractions carry the trace's finer unit.
    const auto tps = ticksPerSecond(trace);
    for (std::size_t i = 0; i < trace.lanes.size(); ++i) {
        for (const auto& level : trace.lanes[i].levels) {
            for (const auto& span : level) {
                out << ",\n{\"ph\":\"X\",\"pid\":" << pidOfRank(trace.lanes[i].rank)
                    << ",\"tid\":" << i + 1 << ",\"ts\":" << fixed(span.start, tps, kUsPerSecond)
                    << ",\"dur\":" << fixed(span.duration(), tps, kUsPerSecond)
                    << ",\"name\":" << jsonString(spanLabel(trace, trace.lanes[i], span))
                    << ",\"cat\":\"" << className(trace.stateOf(span).cls) << "\"";
                if (const Task* task = trace.taskOf(trace.lanes[i], span)) {
                    out << ",\"args\":{\"job\":" << task->jobId
                        << ",\"state\":" << jsonString(trace.stateOf(span).name) << "}";
                }
                out << "}";
            }
        }
    }
    // Task dependencies as flow arrows from the predecessor's slice to the successor's: "s"
    // binds to the slice enclosing its time on its thread, "f" with "bp":"e" likewise.
    std::unordered_map<std::uint64_t, const Task*> byJob;
    for (const auto& task : trace.tasks) {
        byJob.emplace(task.jobId, &task);
    }
    const auto ran = [](const Task* t) { return t != nullptr && t->lane >= 0 && t->start >= 0; };
    std::uint64_t flow = 0;
    for (const auto& task : trace.tasks) {
        for (const auto dep : trace.dependenciesOf(task)) {
            const auto it = byJob.find(dep);
            if (!ran(&task) || it == byJob.end() || !ran(it->second)) {
                continue;   // nothing to bind an end of the arrow to
            }
            ++flow;
            out << ",\n{\"ph\":\"s\",\"id\":" << flow << ",\"pid\":" << pid(it->second->lane)
                << ",\"tid\":" << it->second->lane + 1
                << ",\"ts\":" << fixed(it->second->start, tps, kUsPerSecond)
                << ",\"name\":\"dependency\",\"cat\":\"dependency\"}";
            out << ",\n{\"ph\":\"f\",\"bp\":\"e\",\"id\":" << flow << ",\"pid\":" << pid(task.lane)
                << ",\"tid\":" << task.lane + 1
                << ",\"ts\":" << fixed(task.start, tps, kUsPerSecond)
                << ",\"name\":\"dependency\",\"cat\":\"dependency\",\"args\":{\"from\":" << dep
                << ",\"to\":" << task.jobId << "}}";
        }
    }
    // Messages between ranks: flow arrows from the sender's MPI thread to the receiver's.
    for (std::size_t i = 0; i < trace.messages.size(); ++i) {
        const auto& m = trace.messages[i];
        if (m.fromLane < 0 || m.toLane < 0) {
            continue;   // a rank without its communication thread: nothing to bind to
        }
        ++flow;
        out << ",\n{\"ph\":\"s\",\"id\":" << flow << ",\"pid\":" << pid(m.fromLane) << ",\"tid\":" << m.fromLane + 1
            << ",\"ts\":" << fixed(m.start, tps, kUsPerSecond) << ",\"name\":\"message\",\"cat\":\"mpi\"}";
        out << ",\n{\"ph\":\"f\",\"bp\":\"e\",\"id\":" << flow << ",\"pid\":" << pid(m.toLane) << ",\"tid\":"
            << m.toLane + 1 << ",\"ts\":" << fixed(m.end, tps, kUsPerSecond)
            << ",\"name\":\"message\",\"cat\":\"mpi\",\"args\":{\"from_rank\":" << m.fromRank << ",\"to_rank\":" << m.toRank
            << ",\"size\":" << m.size << ",\"tag\":" << m.tag << "}}";
    }
    // Data transfers on a track per memory node of each process, after its lanes, named as
    // starpu_fxt_tool names the node ("MEMNODE1"): the destination's, where the data arrives.
    std::map<std::pair<std::int32_t, std::int32_t>, std::size_t> nodeTracks;   // (rank, node) -> tid
    for (const auto& x : trace.transfers) {
        const auto key = std::pair(x.rank, x.toNode);
        auto [it, added] = nodeTracks.emplace(key, trace.lanes.size() + nodeTracks.size() + 1);
        if (added) {
            out << ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << pidOfRank(x.rank) << ",\"tid\":" << it->second
                << ",\"args\":{\"name\":\"MEMNODE" << x.toNode << "\"}}";
        }
        out << ",\n{\"ph\":\"X\",\"pid\":" << pidOfRank(x.rank) << ",\"tid\":" << it->second
            << ",\"ts\":" << fixed(x.start, tps, kUsPerSecond) << ",\"dur\":" << fixed(x.duration(), tps, kUsPerSecond)
            << ",\"name\":\"" << nameOf(x.kind) << "\",\"cat\":\"transfer\",\"args\":{\"from_node\":" << x.fromNode
            << ",\"to_node\":" << x.toNode << ",\"size\":" << x.size << "}}";
    }
    for (const auto& m : trace.markers) {
        out << ",\n{\"ph\":\"i\",\"pid\":" << pidOfRank(m.rank)
            << ",\"tid\":" << (m.lane >= 0 ? m.lane + 1 : 0) << ",\"s\":\""
            << (m.lane >= 0 ? "t" : "g") << "\",\"ts\":" << fixed(m.time, tps, kUsPerSecond)
            << ",\"name\":" << jsonString(trace.textOf(m)) << ",\"cat\":\"marker\"}";
    }
    out << "\n]}\n";
}

void writeSpansCsv(const Trace& trace, std::ostream& out) {
    // Nanoseconds, with decimals when the trace's unit is finer.
    out << "lane,level,state,class,start_ns,end_ns,job,codelet\n";
    const auto tps = ticksPerSecond(trace);
    for (const auto& lane : trace.lanes) {
        for (std::size_t d = 0; d < lane.levels.size(); ++d) {
            for (const auto& span : lane.levels[d]) {
                const auto& state = trace.stateOf(span);
                out << csvField(lane.name) << ',' << d << ',' << csvField(state.name) << ',' << className(state.cls)
                    << ',' << fixed(span.start, tps, kNsPerSecond) << ',' << fixed(span.end, tps, kNsPerSecond) << ',';
                const Task* task = trace.taskOf(lane, span);
                if (task != nullptr) {
                    out << task->jobId;
                }
                out << ',' << csvField(codeletOf(trace, task)) << '\n';
            }
        }
    }
}

void writeTasksCsv(const Trace& trace, std::ostream& out) {
    out << "job,codelet,footprint,worker,submit_ns,start_ns,end_ns,dependencies\n";
    const auto tps = ticksPerSecond(trace);
    const auto ns = [&](TimeNs t) { return t < 0 ? std::to_string(t) : fixed(t, tps, kNsPerSecond); };
    for (const auto& task : trace.tasks) {
        char footprint[16];
        std::snprintf(footprint, sizeof footprint, "%08x", trace.footprintOf(task));
        const Lane* lane = trace.laneAt(task.lane);
        out << task.jobId << ',' << csvField(trace.codeletOf(task)) << ',' << footprint << ','
            << csvField(lane != nullptr ? std::string_view(lane->name) : std::string_view{})
            << ',' << ns(task.submit) << ',' << ns(task.start) << ',' << ns(task.end) << ',';
        const auto dependencies = trace.dependenciesOf(task);
        for (std::size_t i = 0; i < dependencies.size(); ++i) {
            out << (i > 0 ? ";" : "") << dependencies[i];
        }
        out << '\n';
    }
}

void writeCodeletsCsv(const std::vector<CodeletStats>& codelets, std::ostream& out, std::int64_t ticksPerSecond) {
    out << "codelet,internal,kind,tasks,total_ns,mean_ns,median_ns,min_ns,max_ns\n";
    const auto ns = [&](TimeNs t) { return fixed(t, ticksPerSecond, kNsPerSecond); };
    const auto row = [&](const CodeletStats& c, std::string_view kind, const DurationSummary& d) {
        out << csvField(c.codelet) << ',' << (c.internal ? 1 : 0) << ',' << kind << ',' << d.count << ','
            << ns(d.total) << ',' << ns(d.mean) << ',' << ns(d.median) << ',' << ns(d.min) << ',' << ns(d.max)
            << '\n';
    };
    for (const auto& c : codelets) {
        row(c, "all", c.all);
        for (const auto& k : c.perKind) {
            row(c, workerKindName(k.kind), k.durations);
        }
    }
}

void writeBarriersCsv(const std::vector<Barrier>& barriers, std::ostream& out, std::int64_t ticksPerSecond) {
    out << "start_ns,end_ns,duration_ns,transition,transition_label,main_thread_state,rank,cause,from_rank,message,"
           "arena\n";
    for (const auto& b : barriers) {
        out << fixed(b.start, ticksPerSecond, kNsPerSecond) << ',' << fixed(b.end, ticksPerSecond, kNsPerSecond) << ','
            << fixed(b.duration(), ticksPerSecond, kNsPerSecond) << ',' << b.transition << ','
            << csvField(b.transitionLabel) << ',' << csvField(b.mainThreadState) << ',' << b.rank << ','
            << causeName(b.cause) << ',' << b.fromRank << ',' << b.message << ',' << csvField(b.arena) << '\n';
    }
}

namespace detail {

std::string fixed(TimeNs ticks, std::int64_t ticksPerSecond, std::int64_t unitsPerSecond) {
    const TimeNs divisor = ticksPerSecond / unitsPerSecond;
    if (divisor <= 1) {
        return std::to_string(ticks);
    }
    int digits = 0;
    for (TimeNs d = divisor; d > 1; d /= 10) {
        ++digits;
    }
    const bool negative = ticks < 0;
    const TimeNs a = negative ? -ticks : ticks;
    std::string fraction = std::to_string(a % divisor);
    fraction.insert(0, static_cast<std::size_t>(digits) - fraction.size(), '0');
    return (negative ? "-" : "") + std::to_string(a / divisor) + "." + fraction;
}

std::string codeletOf(const Trace& trace, const Task* task) {
    return task != nullptr ? std::string(trace.codeletOf(*task)) : std::string();
}

std::string spanLabel(const Trace& trace, const Lane& lane, const Span& span) {
    auto codelet = codeletOf(trace, trace.taskOf(lane, span));
    return codelet.empty() ? trace.stateOf(span).name : codelet;
}

} // namespace detail

} // namespace starscope::tracer
