// Paje writer in StarPU's shape (src/debug/traces/starpu_paje.c, 1.4.12), so that tools made for
// starpu_fxt_tool's paje.trace (StarVZ, ViTE, pj_dump) read ours the same way: the container
// hierarchy MPIP > P > Mn > T > W and P > UT, names and aliases with the process's rank prefix
// ("0_p", "0_MEMNODE0", "0_w3", "0_CPU3"), StarPU's state values and colours. Additions of our
// own: the "Not profiled" state, task dependencies as links, barriers as events.
// Our Paje reader inverts this naming exactly, so export -> read keeps the trace.

#include "tracer/exporters/exporters.hpp"
#include "tracer/exporters/paje_header.hpp"
#include "tracer/exporters/text_format.hpp"
#include "tracer/model/starpu_states.hpp"
#include "tracer/model/time_unit.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

namespace starscope::tracer {

using detail::fixed;
using detail::kMsPerSecond;
using detail::spanLabel;

namespace {

std::string pajeQuote(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        out += c == '"' ? '\'' : (c == '\n' ? ' ' : c);
    }
    return out + "\"";
}

// StarPU's colours per state alias (starpu_paje.c), on worker ("WS") and user thread ("US")
// states alike.
struct StateColour {
    std::string_view alias;
    std::string_view colour;
};
// starpu_paje.c's colours of a memory node's states (kStarpuMemoryNodeStates), by alias.
constexpr StateColour kMemoryNodeColours[] = {
    {"A", ".4 .1 .0"},  {"Ar", ".1 .1 .8"}, {"F", ".6 .3 .0"},  {"W", ".0 .0 .5"},   {"Wa", ".0 .0 .4"},
    {"R", ".0 .1 .6"},  {"Co", ".3 .5 .1"}, {"CoA", ".1 .3 .1"}, {"No", ".0 .0 .0"},
};

constexpr StateColour kWorkerColours[] = {
    {"I", ".9 .1 .0"},     {"In", "0.0 .7 1.0"}, {"D", "0.0 .1 .7"},   {"Fi", "1.0 .1 1.0"},
    {"Po", "0.1 1.0 1.0"}, {"C", ".0 .3 .8"},    {"B", ".5 .18 .0"},   {"E", ".0 .6 .5"},
    {"Sc", ".7 .36 .0"},   {"Sl", ".9 .1 .0"},   {"P", ".1 .3 .1"},    {"U", ".0 .0 1.0"},
    {"H", ".5 .18 .0"},    {"Bu", ".5 .18 .0"},  {"Su", ".3 .09 .0"},  {"Th", ".8 .6 .6"},
    {"MD", ".5 .18 .2"},   {"MPr", ".4 .14 .2"}, {"MPo", ".3 .09 .2"}, {"W", ".9 .1 .0"},
    {"WA", ".9 .1 .0"},
};
// Ours: time FxT profiling was stopped is unknown, not idle; never red like sleeping.
constexpr std::string_view kNotProfiledColour = ".75 .8 .85";
// Ours: a thread writing FxT's full buffer (the tracing's own cost), declared where it occurs.
constexpr std::string_view kTraceFlushColour = ".18 .18 .24";
constexpr std::string_view kOtherColour = ".5 .5 .5";

// Codelets: distinct greens, stable per name (StarPU picks a colour per codelet too).
std::string codeletColour(std::string_view name) {
    std::uint32_t h = 2166136261U;
    for (const char c : name) {
        h = (h ^ static_cast<unsigned char>(c)) * 16777619U;
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f %.2f %.2f",
                  0.3 * static_cast<double>(h & 0xff) / 255.0,
                  0.5 + 0.45 * static_cast<double>((h >> 8) & 0xff) / 255.0,
                  0.15 + 0.45 * static_cast<double>((h >> 16) & 0xff) / 255.0);
    return buffer;
}

// The rank prefix the FxT reader gives the lanes of each process of a merged trace ("0_").
std::string rankPrefix(std::string_view name) {
    std::size_t i = 0;
    while (i < name.size() && name[i] >= '0' && name[i] <= '9') {
        ++i;
    }
    return i > 0 && i < name.size() && name[i] == '_' ? std::string(name.substr(0, i + 1))
                                                      : std::string();
}

// StarPU names workers "CPU3", "CUDA0_1": our lanes "CPU 3" are written so. Other names verbatim.
std::string workerContainerName(const std::string& lane, const std::string& prefix) {
    const auto rest = std::string_view(lane).substr(prefix.size());
    const auto space = rest.find(' ');
    const bool starpuShape =
        space != std::string_view::npos && space > 0 && space + 1 < rest.size()
        && rest[space + 1] >= '0' && rest[space + 1] <= '9'
        && std::all_of(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(space),
                       [](char c) { return (c >= 'A' && c <= 'Z') || c == '_'; });
    if (!starpuShape) {
        return lane;
    }
    return prefix + std::string(rest.substr(0, space)) + std::string(rest.substr(space + 1));
}

struct LaneContainer {
    std::string alias;
    std::string stateType; // WS or US
    std::string program;   // alias of its P container
    std::string thread;    // alias of its T container (workers)
};

// A line to write at a time; lines of one instant in (order, sequence) order.
struct Line {
    TimeNs time;
    int order;
    std::size_t sequence;
    std::string text;
};

// Order within an instant: markers and barrier events first, then pops (deepest first), links
// and variables, then pushes (shallowest first), so a state ending and one starting at the same
// instant never overlap.
constexpr int kEventOrder = -100000;
constexpr int kMiddleOrder = 500;
constexpr int kPushOrder = 1000;

class PajeWriter {
public:
    PajeWriter(const Trace& trace, std::ostream& out)
        : m_trace(trace), m_out(out), m_tps(ticksPerSecond(trace)) {}
    void write();

private:
    std::string date(TimeNs t) const { return fixed(t, m_tps, kMsPerSecond); }
    void add(TimeNs time, int order, std::string text) {
        m_lines.push_back(Line{time, order, m_lines.size(), std::move(text)});
    }
    void entityValues();
    void containers();
    void states();
    void links();
    void messages();
    void transfers();
    void events();
    void variables();

    const Trace& m_trace;
    std::ostream& m_out;
    std::int64_t m_tps;
    std::map<std::string, std::string> m_aliasOf; // StarPU state name -> alias
    std::map<std::string, std::string> m_memoryAliasOf; // memory-node state name -> alias
    std::vector<LaneContainer> m_lanes;
    std::vector<std::string> m_programs; // rank prefixes, in first-lane order
    std::vector<Line> m_lines;
};

void PajeWriter::entityValues() {
    for (const auto& entry : kStarpu13States) {
        m_aliasOf.emplace(entry.name, entry.alias);
    }
    m_aliasOf.emplace(kNotProfiledState, kNotProfiledState);
    std::map<std::string, std::string> colourOf;
    for (const auto& c : kWorkerColours) {
        colourOf.emplace(c.alias, c.colour);
    }
    colourOf.emplace(kNotProfiledState, kNotProfiledColour);
    // Every StarPU value is declared, used or not, as starpu_fxt_tool does: tools and colour
    // legends find the same set in every file.
    std::set<std::pair<std::string, std::string>> declared; // (type, alias)
    const auto declare = [&](const std::string& type, const std::string& alias,
                             const std::string& name, const std::string& colour) {
        if (declared.emplace(type, alias).second) {
            m_out << "6 " << pajeQuote(alias) << ' ' << type << ' ' << pajeQuote(name) << ' '
                  << pajeQuote(colour) << '\n';
        }
    };
    for (const auto& entry : kStarpu13States) {
        const std::string alias(entry.alias);
        declare(alias == "W" || alias == "WA" ? "US" : "WS", alias, std::string(entry.name),
                colourOf[alias]);
    }
    for (const auto* name : {"Building task", "Submitting task", "Callback", "Scheduling",
                             "Throttling task submission", "Decoding task for MPI",
                             "Preparing task for MPI", "Post-processing task for MPI"}) {
        const auto& alias = m_aliasOf[name];
        declare("US", alias, name, colourOf[alias]);
    }
    declare("WS", std::string(kNotProfiledState), std::string(kNotProfiledState),
            std::string(kNotProfiledColour));
    declare("US", std::string(kNotProfiledState), std::string(kNotProfiledState),
            std::string(kNotProfiledColour));
    // States of no StarPU name, and codelets, as they occur. An MPI thread's states are
    // written by name (starpu_fxt_tool's CtS aliases are its own); a memory node's by StarPU's
    // alias when it has one.
    for (const auto& lane : m_trace.lanes) {
        if (lane.kind == LaneKind::MemoryNode) {
            for (const auto& level : lane.levels) {
                for (const auto& span : level) {
                    const auto& name = m_trace.stateOf(span).name;
                    std::string alias = name;
                    std::string colour(kOtherColour);
                    for (std::size_t s = 0; s < std::size(kStarpuMemoryNodeStates); ++s) {
                        if (kStarpuMemoryNodeStates[s].name == name) {
                            alias = kStarpuMemoryNodeStates[s].alias;
                            colour = kMemoryNodeColours[s].colour;
                        }
                    }
                    m_memoryAliasOf.emplace(name, alias);
                    declare("MS", alias, name, colour);
                }
            }
            continue;
        }
        if (lane.kind == LaneKind::MpiThread) {
            for (const auto& level : lane.levels) {
                for (const auto& span : level) {
                    const auto& name = m_trace.stateOf(span).name;
                    declare("CtS", name, name,
                            colourOf.contains(m_aliasOf[name]) ? colourOf[m_aliasOf[name]]
                                                               : std::string(kOtherColour));
                }
            }
            continue;
        }
        const std::string type = lane.kind == LaneKind::MainThread ? "US" : "WS";
        for (const auto& level : lane.levels) {
            for (const auto& span : level) {
                // As states() decides: a worker span with a task shows its codelet.
                if (lane.isWorker() && m_trace.taskOf(lane, span) != nullptr) {
                    const auto label = spanLabel(m_trace, lane, span);
                    declare(type, label, label, codeletColour(label));
                } else {
                    const auto& name = m_trace.stateOf(span).name;
                    if (!m_aliasOf.contains(name)) {
                        declare(type, name, name,
                                std::string(name == kTraceFlushState ? kTraceFlushColour
                                                                     : kOtherColour));
                    }
                }
            }
        }
    }
}

void PajeWriter::containers() {
    m_out << "7 " << date(0) << " MPIroot MPIP 0 root\n";
    std::set<std::string> programs;
    std::set<std::string> memoryNodes;
    std::set<std::string> aliases;
    for (std::size_t i = 0; i < m_trace.lanes.size(); ++i) {
        const auto& lane = m_trace.lanes[i];
        const auto prefix = rankPrefix(lane.name);
        const auto program = prefix + "p";
        if (programs.insert(prefix).second) {
            m_programs.push_back(prefix);
            m_out << "7 " << date(0) << ' ' << pajeQuote(program) << " P MPIroot "
                  << pajeQuote("program " + prefix) << '\n';
            m_out << "7 " << date(0) << ' ' << pajeQuote(prefix + "sched") << " Sc "
                  << pajeQuote(program) << ' ' << pajeQuote(prefix + "scheduler") << '\n';
        }
        if (lane.kind == LaneKind::MpiThread) {
            // StarPU's "<rank>_mpict", one per process.
            std::string alias = prefix + "mpict";
            if (aliases.contains(alias)) {
                alias = prefix + "lane" + std::to_string(i);
            }
            aliases.insert(alias);
            m_out << "7 " << date(0) << ' ' << pajeQuote(alias) << " MPICt " << pajeQuote(program)
                  << ' ' << pajeQuote(alias) << '\n';
            m_lanes.push_back(LaneContainer{alias, "CtS", program, {}});
            continue;
        }
        if (lane.kind == LaneKind::MemoryNode) {
            // StarPU's memory manager "<rank>_mm<n>" in its node "<rank>_mn<n>".
            const auto n = std::to_string(lane.memoryNode);
            if (memoryNodes.insert(prefix + "mn" + n).second) {
                m_out << "7 " << date(0) << ' ' << pajeQuote(prefix + "mn" + n) << " Mn " << pajeQuote(program) << ' '
                      << pajeQuote(prefix + "MEMNODE" + n) << '\n';
            }
            if (memoryNodes.insert(prefix + "mm" + n).second) {
                m_out << "7 " << date(0) << ' ' << pajeQuote(prefix + "mm" + n) << " Mm " << pajeQuote(prefix + "mn" + n)
                      << ' ' << pajeQuote(prefix + "MEMMANAGER" + n) << '\n';
            }
            m_lanes.push_back(LaneContainer{prefix + "mm" + n, "MS", program, {}});
            continue;
        }
        if (lane.kind == LaneKind::MainThread) {
            const auto alias = prefix + "ut" + std::to_string(i);
            aliases.insert(alias);
            m_out << "7 " << date(0) << ' ' << pajeQuote(alias) << " UT " << pajeQuote(program)
                  << ' ' << pajeQuote(lane.name) << '\n';
            m_lanes.push_back(LaneContainer{alias, "US", program, {}});
            continue;
        }
        // A worker of no known memory node goes in a node of no number, which reads back so.
        const auto node = lane.memoryNode >= 0 ? std::to_string(lane.memoryNode) : std::string();
        const auto memnode = prefix + "mn" + node;
        if (memoryNodes.insert(memnode).second) {
            m_out << "7 " << date(0) << ' ' << pajeQuote(memnode) << " Mn " << pajeQuote(program)
                  << ' ' << pajeQuote(prefix + "MEMNODE" + node) << '\n';
        }
        // The worker id is read back from the alias "w<id>"; a lane without one (or one whose id
        // another lane of its process holds) gets an alias that does not look like an id.
        std::string alias = prefix + "w" + std::to_string(lane.workerId);
        if (lane.workerId < 0 || aliases.contains(alias)) {
            alias = prefix + "lane" + std::to_string(i);
        }
        aliases.insert(alias);
        const auto thread = prefix + "t" + alias.substr(prefix.size());
        m_out << "7 " << date(0) << ' ' << pajeQuote(thread) << " T " << pajeQuote(memnode) << ' '
              << pajeQuote(prefix + "T" + std::to_string(i)) << '\n';
        m_out << "7 " << date(0) << ' ' << pajeQuote(alias) << " W " << pajeQuote(thread) << ' '
              << pajeQuote(workerContainerName(lane.name, prefix)) << '\n';
        m_lanes.push_back(LaneContainer{alias, "WS", program, thread});
    }
    // The memory managers transfers run between, as starpu_fxt_tool nests them: "<rank>_mm<n>"
    // in "<rank>_mn<n>" (a process without lanes gets its program here).
    for (const auto& x : m_trace.transfers) {
        const auto prefix = x.rank >= 0 ? std::to_string(x.rank) + "_" : std::string();
        if (programs.insert(prefix).second) {
            m_programs.push_back(prefix);
            m_out << "7 " << date(0) << ' ' << pajeQuote(prefix + "p") << " P MPIroot "
                  << pajeQuote("program " + prefix) << '\n';
            m_out << "7 " << date(0) << ' ' << pajeQuote(prefix + "sched") << " Sc "
                  << pajeQuote(prefix + "p") << ' ' << pajeQuote(prefix + "scheduler") << '\n';
        }
        for (const auto node : {x.fromNode, x.toNode}) {
            const auto n = std::to_string(node);
            if (memoryNodes.insert(prefix + "mn" + n).second) {
                m_out << "7 " << date(0) << ' ' << pajeQuote(prefix + "mn" + n) << " Mn "
                      << pajeQuote(prefix + "p") << ' ' << pajeQuote(prefix + "MEMNODE" + n)
                      << '\n';
            }
            if (memoryNodes.insert(prefix + "mm" + n).second) {
                m_out << "7 " << date(0) << ' ' << pajeQuote(prefix + "mm" + n) << " Mm "
                      << pajeQuote(prefix + "mn" + n) << ' ' << pajeQuote(prefix + "MEMMANAGER" + n)
                      << '\n';
            }
        }
    }
}

void PajeWriter::states() {
    const auto alias = [&](const std::string& name) {
        const auto it = m_aliasOf.find(name);
        return it == m_aliasOf.end() ? name : it->second;
    };
    for (std::size_t i = 0; i < m_trace.lanes.size(); ++i) {
        const auto& lane = m_trace.lanes[i];
        const auto& c = m_lanes[i];
        const auto where = pajeQuote(c.alias) + ' ' + c.stateType;
        const bool byName = lane.kind == LaneKind::MpiThread;
        const bool memory = lane.kind == LaneKind::MemoryNode;
        for (std::size_t d = 0; d < lane.levels.size(); ++d) {
            const int depth = static_cast<int>(d);
            for (const auto& span : lane.levels[d]) {
                const Task* running = lane.isWorker() ? m_trace.taskOf(lane, span) : nullptr;
                if (running != nullptr) {
                    const auto& task = *running;
                    char footprint[16];
                    std::snprintf(footprint, sizeof footprint, "%08x", m_trace.footprintOf(task));
                    add(span.start, kPushOrder + depth,
                        "21 " + date(span.start) + ' ' + where + ' '
                            + pajeQuote(spanLabel(m_trace, lane, span)) + ' '
                            + std::to_string(task.jobId) + ' ' + footprint);
                } else {
                    add(span.start, kPushOrder + depth,
                        "11 " + date(span.start) + ' ' + where + ' '
                            + pajeQuote(byName   ? m_trace.stateOf(span).name
                                        : memory ? m_memoryAliasOf.at(m_trace.stateOf(span).name)
                                                 : alias(m_trace.stateOf(span).name)));
                }
                add(span.end, -depth, "12 " + date(span.end) + ' ' + where);
            }
        }
    }
}

// Task dependencies: an arrow from the end of the task waited for to the start of the waiting
// one, valued "<from>-><to>" (job ids) so that the reader restores Task::dependencies. A task
// waited for that did not run in the trace (profiling stopped, another process) has no end to
// start from: its arrow is a zero-length one on the waiting task, so the dependency survives.
void PajeWriter::links() {
    std::unordered_map<std::uint64_t, const Task*> byJob;
    for (const auto& task : m_trace.tasks) {
        byJob.emplace(task.jobId, &task);
    }
    const auto ran = [&](const Task* t) {
        return t->lane >= 0 && t->start >= 0 && t->end >= 0
               && m_lanes[static_cast<std::size_t>(t->lane)].stateType == "WS";
    };
    std::size_t key = 0;
    for (const auto& task : m_trace.tasks) {
        if (!ran(&task)) {
            continue; // the link type joins workers
        }
        const auto& to = m_lanes[static_cast<std::size_t>(task.lane)];
        for (const auto dep : m_trace.dependenciesOf(task)) {
            const auto it = byJob.find(dep);
            const bool joined =
                it != byJob.end() && ran(it->second)
                && m_lanes[static_cast<std::size_t>(it->second->lane)].program == to.program;
            const auto& from = joined ? m_lanes[static_cast<std::size_t>(it->second->lane)] : to;
            const auto value = pajeQuote(std::to_string(dep) + "->" + std::to_string(task.jobId));
            const auto k = "d" + std::to_string(key++);
            // A link cannot end before it starts; a successor that started before its
            // predecessor ended (clock skew) gets a zero-length arrow at its start.
            const TimeNs start = joined ? std::min(it->second->end, task.start) : task.start;
            add(start, kMiddleOrder,
                "18 " + date(start) + ' ' + pajeQuote(to.program) + " dep " + pajeQuote(from.alias)
                    + ' ' + value + ' ' + k);
            add(task.start, kMiddleOrder,
                "19 " + date(task.start) + ' ' + pajeQuote(to.program) + " dep "
                    + pajeQuote(to.alias) + ' ' + value + ' ' + k);
        }
    }
}

// Messages between ranks as StarPU draws them: an MPIL link from the sender's MPI thread to the
// receiver's, valued with the size in bytes, keyed "mpicom_<n>".
void PajeWriter::messages() {
    for (std::size_t i = 0; i < m_trace.messages.size(); ++i) {
        const auto& m = m_trace.messages[i];
        if (m.fromLane < 0 || m.toLane < 0) {
            continue; // the link type joins communication threads
        }
        const auto key = "mpicom_" + std::to_string(i);
        const auto size = std::to_string(m.size);
        add(m.start, kMiddleOrder,
            "18 " + date(m.start) + " MPIroot MPIL "
                + pajeQuote(m_lanes[static_cast<std::size_t>(m.fromLane)].alias) + ' ' + size + ' '
                + key);
        add(m.end, kMiddleOrder,
            "19 " + date(m.end) + " MPIroot MPIL "
                + pajeQuote(m_lanes[static_cast<std::size_t>(m.toLane)].alias) + ' ' + size + ' '
                + key);
    }
}

// Data transfers as starpu_fxt_tool draws them: a link typed by the fetch kind from the source
// node's memory manager to the destination's, valued with the size, keyed "com_<n>".
void PajeWriter::transfers() {
    for (std::size_t i = 0; i < m_trace.transfers.size(); ++i) {
        const auto& x = m_trace.transfers[i];
        const auto prefix = x.rank >= 0 ? std::to_string(x.rank) + "_" : std::string();
        const auto where = pajeQuote(prefix + "p") + ' ' + std::string(linkTypeOf(x.kind)) + ' ';
        const auto tail = ' ' + std::to_string(x.size) + " com_" + std::to_string(i);
        add(x.start, kMiddleOrder,
            "18 " + date(x.start) + ' ' + where
                + pajeQuote(prefix + "mm" + std::to_string(x.fromNode)) + tail);
        add(x.end, kMiddleOrder,
            "19 " + date(x.end) + ' ' + where + pajeQuote(prefix + "mm" + std::to_string(x.toNode))
                + tail);
    }
}

void PajeWriter::events() {
    // Markers: on the user thread that emitted them (StarPU's user_user_event), on the
    // worker's thread, or on the program.
    for (const auto& m : m_trace.markers) {
        std::string line = "9 " + date(m.time) + ' ';
        if (m.lane >= 0 && static_cast<std::size_t>(m.lane) < m_lanes.size()) {
            const auto& c = m_lanes[static_cast<std::size_t>(m.lane)];
            line += c.stateType == "US" ? "user_user_event " + pajeQuote(c.alias)
                                        : "thread_event " + pajeQuote(c.thread);
        } else {
            // A rank's own markers on its program.
            const auto prefix = m.rank >= 0 ? std::to_string(m.rank) + "_" : std::string();
            const bool known =
                std::find(m_programs.begin(), m_programs.end(), prefix) != m_programs.end();
            line += "prog_event "
                    + pajeQuote(known                ? prefix + "p"
                                : m_programs.empty() ? "p"
                                                     : m_programs.front() + "p");
        }
        add(m.time, kEventOrder, line + ' ' + pajeQuote(m_trace.textOf(m)));
    }
    // The job's barriers on every program, a rank's own on its program.
    const auto barriers = findJobAndRankBarriers(m_trace);
    for (const auto& b : barriers) {
        const auto label = (b.rank >= 0 ? " rank " + std::to_string(b.rank) : std::string())
                           + (b.transitionLabel.empty() ? std::string() : " " + b.transitionLabel);
        const auto own = std::to_string(b.rank) + "_";
        for (const auto& program : m_programs) {
            if (b.rank >= 0 && program != own) {
                continue;
            }
            add(b.start, kEventOrder,
                "9 " + date(b.start) + " barrier " + pajeQuote(program + "p") + ' '
                    + pajeQuote("barrier begin" + label));
            add(b.end, kEventOrder,
                "9 " + date(b.end) + " barrier " + pajeQuote(program + "p") + ' '
                    + pajeQuote("barrier end" + label));
        }
    }
}

// StarPU's "nsubmitted" counter per process: tasks submitted and not yet finished.
void PajeWriter::variables() {
    std::map<std::string, std::map<TimeNs, std::int64_t>>
        deltas; // program prefix -> time -> change
    for (const auto& task : m_trace.tasks) {
        if (task.submit < 0) {
            continue;
        }
        const Lane* lane = m_trace.laneAt(task.lane);
        const auto prefix = lane != nullptr ? rankPrefix(lane->name) : std::string();
        auto& d = deltas[prefix];
        d[task.submit] += 1;
        if (task.end >= 0) {
            d[std::max(task.end, task.submit)] -= 1;
        }
    }
    for (const auto& [prefix, changes] : deltas) {
        if (std::find(m_programs.begin(), m_programs.end(), prefix) == m_programs.end()) {
            continue;
        }
        const auto sched = pajeQuote(prefix + "sched");
        add(0, kMiddleOrder, "13 " + date(0) + ' ' + sched + " nsubmitted 0");
        std::int64_t value = 0;
        for (const auto& [time, change] : changes) {
            value += change;
            add(time, kMiddleOrder,
                "13 " + date(time) + ' ' + sched + " nsubmitted " + std::to_string(value));
        }
    }
}

void PajeWriter::write() {
    m_out << pajeEventDefinitions() << detail::pajeTypeDeclarations();
    // Only a trace with memory-node lanes declares their states: the others' files are as they were.
    if (std::any_of(m_trace.lanes.begin(), m_trace.lanes.end(),
                    [](const Lane& lane) { return lane.kind == LaneKind::MemoryNode; })) {
        m_out << "3 MS Mm \"Memory Node State\"\n";
    }
    entityValues();
    containers();
    states();
    links();
    messages();
    transfers();
    events();
    variables();
    std::sort(m_lines.begin(), m_lines.end(), [](const Line& a, const Line& b) {
        if (a.time != b.time) {
            return a.time < b.time;
        }
        return a.order != b.order ? a.order < b.order : a.sequence < b.sequence;
    });
    for (const auto& line : m_lines) {
        m_out << line.text << '\n';
    }
}

} // namespace

void writePaje(const Trace& trace, std::ostream& out) {
    PajeWriter(trace, out).write();
}

} // namespace starscope::tracer
