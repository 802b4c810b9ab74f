// Paje, Chrome trace JSON and CSV writers.

#include "tracer/exporters/exporters.hpp"
#include "tracer/model/time_unit.hpp"
#include "tracer/readers/fxt/starpu_1_3_10_codes.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

namespace starscope::tracer {

namespace {

// Exact decimal of trace ticks in another unit (unitsPerSecond: 1e3 for ms, 1e6 for us, 1e9
// for ns), no float rounding: as many decimals as the trace's unit has below it (time_unit.hpp).
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

constexpr std::int64_t kMsPerSecond = 1'000;
constexpr std::int64_t kUsPerSecond = 1'000'000;

std::string pajeQuote(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        out += c == '"' ? '\'' : (c == '\n' ? ' ' : c);
    }
    return out + "\"";
}

std::string jsonEscape(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 2);
    for (const char c : text) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buffer[8];
                std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                out += buffer;
            } else {
                out += c;
            }
        }
    }
    return out;
}

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
    }
    return "unknown";
}

std::string codeletOf(const Trace& trace, TaskIndex task) {
    if (task == kNoTask || trace.tasks[task].codelet == kNoName) {
        return {};
    }
    return trace.names.name(trace.tasks[task].codelet);
}

// Name shown for a span: a running task shows its codelet, as in starpu_fxt_tool's output.
std::string spanLabel(const Trace& trace, const Span& span) {
    auto codelet = codeletOf(trace, span.task);
    return codelet.empty() ? trace.states[span.state].name : codelet;
}

constexpr std::string_view kPajeHeader = R"(%EventDef PajeDefineContainerType 1
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineEventType 2
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineStateType 3
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineEntityValue 6
% Alias string
% Type string
% Name string
% Color color
%EndEventDef
%EventDef PajeCreateContainer 7
% Time date
% Alias string
% Type string
% Container string
% Name string
%EndEventDef
%EventDef PajeDestroyContainer 8
% Time date
% Name string
% Type string
%EndEventDef
%EventDef PajeNewEvent 9
% Time date
% Type string
% Container string
% Value string
%EndEventDef
%EventDef PajePushState 11
% Time date
% Container string
% Type string
% Value string
%EndEventDef
%EventDef PajePopState 12
% Time date
% Container string
% Type string
%EndEventDef
%EventDef PajePushState 21
% Time date
% Container string
% Type string
% Value string
% JobId string
% Footprint string
%EndEventDef
1 P 0 "Program"
1 W P "Worker"
1 UT P "User Thread"
3 WS W "Worker State"
3 US UT "User Thread State"
2 prog_event P "program event type"
)";

} // namespace

void writePaje(const Trace& trace, std::ostream& out) {
    out << kPajeHeader;
    // Entity values: StarPU's aliases for its own state names, the name itself otherwise.
    std::map<std::string, std::string> aliasOf;
    for (const auto& entry : detail::starpu_1_3_10::kStateNames) {
        aliasOf.emplace(entry.name, entry.alias);
    }
    const auto alias = [&](const std::string& name) {
        const auto it = aliasOf.find(name);
        return it == aliasOf.end() ? name : it->second;
    };
    std::map<std::string, std::string> workerValues;   // alias -> name, defined on WS
    std::map<std::string, std::string> userValues;     // on US
    std::map<std::string, bool> codelets;
    for (const auto& lane : trace.lanes) {
        auto& values = lane.kind == LaneKind::MainThread ? userValues : workerValues;
        for (const auto& level : lane.levels) {
            for (const auto& span : level) {
                const auto& name = trace.states[span.state].name;
                if (span.task != kNoTask && lane.kind != LaneKind::MainThread) {
                    codelets[spanLabel(trace, span)] = true;
                } else {
                    values.emplace(alias(name), name);
                }
            }
        }
    }
    for (const auto& [a, name] : workerValues) {
        out << "6 " << pajeQuote(a) << " WS " << pajeQuote(name) << " \"0.5 0.5 0.5\"\n";
    }
    for (const auto& [name, unused] : codelets) {
        out << "6 " << pajeQuote(name) << " WS " << pajeQuote(name) << " \"0.0 0.6 0.5\"\n";
    }
    for (const auto& [a, name] : userValues) {
        out << "6 " << pajeQuote(a) << " US " << pajeQuote(name) << " \"0.3 0.3 0.3\"\n";
    }
    out << "7 0.000000 p P 0 \"program\"\n";
    struct Event {
        TimeNs time;
        int order;        // pops (deepest first) before pushes (shallowest first)
        std::size_t lane;
        const Span* span;
    };
    std::vector<Event> events;
    for (std::size_t i = 0; i < trace.lanes.size(); ++i) {
        const auto& lane = trace.lanes[i];
        const bool user = lane.kind == LaneKind::MainThread;
        out << "7 0.000000 " << (user ? "ut" : "w") << (user || lane.workerId < 0 ? static_cast<std::int64_t>(i) : lane.workerId)
            << (user ? " UT p " : " W p ") << pajeQuote(lane.name) << "\n";
        for (std::size_t d = 0; d < lane.levels.size(); ++d) {
            for (const auto& span : lane.levels[d]) {
                events.push_back(Event{span.start, 1000 + static_cast<int>(d), i, &span});
                events.push_back(Event{span.end, -static_cast<int>(d), i, nullptr});
            }
        }
    }
    std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
        return a.time != b.time ? a.time < b.time : a.order < b.order;
    });
    std::size_t marker = 0;
    // Paje dates in milliseconds, with every decimal the trace's unit needs.
    const auto tps = ticksPerSecond(trace);
    const auto flushMarkers = [&](TimeNs upTo) {
        for (; marker < trace.markers.size() && trace.markers[marker].time <= upTo; ++marker) {
            out << "9 " << fixed(trace.markers[marker].time, tps, kMsPerSecond) << " prog_event p "
                << pajeQuote(trace.markers[marker].text) << "\n";
        }
    };
    for (const auto& e : events) {
        flushMarkers(e.time);
        const auto& lane = trace.lanes[e.lane];
        const bool user = lane.kind == LaneKind::MainThread;
        const std::string container = (user ? "ut" : "w")
                                      + std::to_string(user || lane.workerId < 0 ? static_cast<std::int64_t>(e.lane) : lane.workerId);
        const char* type = user ? "US" : "WS";
        const std::string time = fixed(e.time, tps, kMsPerSecond);
        if (e.span == nullptr) {
            out << "12 " << time << ' ' << container << ' ' << type << '\n';
        } else if (e.span->task != kNoTask && !user) {
            const auto& task = trace.tasks[e.span->task];
            char footprint[16];
            std::snprintf(footprint, sizeof footprint, "%08x", task.footprint);
            out << "21 " << time << ' ' << container << ' ' << type << ' ' << pajeQuote(spanLabel(trace, *e.span))
                << ' ' << task.jobId << ' ' << footprint << '\n';
        } else {
            out << "11 " << time << ' ' << container << ' ' << type << ' '
                << pajeQuote(alias(trace.states[e.span->state].name)) << '\n';
        }
    }
    flushMarkers(trace.end);
}

void writeChromeJson(const Trace& trace, std::ostream& out) {
    out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    out << R"({"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"starscope trace"}})";
    for (std::size_t i = 0; i < trace.lanes.size(); ++i) {
        // tid 0 is left to trace-wide markers; lane i is thread i+1, sorted in lane order.
        out << ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":" << i + 1 << ",\"args\":{\"name\":\""
            << jsonEscape(trace.lanes[i].name) << "\"}}";
        out << ",\n{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":1,\"tid\":" << i + 1
            << ",\"args\":{\"sort_index\":" << i + 1 << "}}";
    }
    // Chrome's times are microseconds; fractions carry the trace's finer unit.
    const auto tps = ticksPerSecond(trace);
    for (std::size_t i = 0; i < trace.lanes.size(); ++i) {
        for (const auto& level : trace.lanes[i].levels) {
            for (const auto& span : level) {
                out << ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":" << i + 1 << ",\"ts\":" << fixed(span.start, tps, kUsPerSecond)
                    << ",\"dur\":" << fixed(span.duration(), tps, kUsPerSecond) << ",\"name\":\"" << jsonEscape(spanLabel(trace, span))
                    << "\",\"cat\":\"" << className(trace.states[span.state].cls) << "\"";
                if (span.task != kNoTask) {
                    out << ",\"args\":{\"job\":" << trace.tasks[span.task].jobId << ",\"state\":\""
                        << jsonEscape(trace.states[span.state].name) << "\"}";
                }
                out << "}";
            }
        }
    }
    for (const auto& m : trace.markers) {
        out << ",\n{\"ph\":\"i\",\"pid\":1,\"tid\":" << (m.lane >= 0 ? m.lane + 1 : 0) << ",\"s\":\""
            << (m.lane >= 0 ? "t" : "g") << "\",\"ts\":" << fixed(m.time, tps, kUsPerSecond) << ",\"name\":\""
            << jsonEscape(m.text) << "\",\"cat\":\"marker\"}";
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
                const auto& state = trace.states[span.state];
                out << csvField(lane.name) << ',' << d << ',' << csvField(state.name) << ',' << className(state.cls)
                    << ',' << fixed(span.start, tps, kNsPerSecond) << ',' << fixed(span.end, tps, kNsPerSecond) << ',';
                if (span.task != kNoTask) {
                    out << trace.tasks[span.task].jobId;
                }
                out << ',' << csvField(codeletOf(trace, span.task)) << '\n';
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
        std::snprintf(footprint, sizeof footprint, "%08x", task.footprint);
        out << task.jobId << ',' << csvField(task.codelet == kNoName ? "" : trace.names.name(task.codelet)) << ','
            << footprint << ',' << csvField(task.lane >= 0 ? trace.lanes[static_cast<std::size_t>(task.lane)].name : "")
            << ',' << ns(task.submit) << ',' << ns(task.start) << ',' << ns(task.end) << ',';
        for (std::size_t i = 0; i < task.dependencies.size(); ++i) {
            out << (i > 0 ? ";" : "") << task.dependencies[i];
        }
        out << '\n';
    }
}

void writeBarriersCsv(const std::vector<Barrier>& barriers, std::ostream& out, std::int64_t ticksPerSecond) {
    out << "start_ns,end_ns,duration_ns,transition,transition_label,main_thread_state\n";
    for (const auto& b : barriers) {
        out << fixed(b.start, ticksPerSecond, kNsPerSecond) << ',' << fixed(b.end, ticksPerSecond, kNsPerSecond) << ','
            << fixed(b.duration(), ticksPerSecond, kNsPerSecond) << ',' << b.transition << ','
            << csvField(b.transitionLabel) << ',' << csvField(b.mainThreadState) << '\n';
    }
}

} // namespace starscope::tracer
