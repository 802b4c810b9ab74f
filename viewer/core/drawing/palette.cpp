#include "viewer/core/drawing/palette.hpp"

#include "tracer/analysis/machine.hpp"
#include "tracer/model/starpu_tasks.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace starscope::viewer {

namespace {

using tracer::StateClass;

constexpr std::array<Rgb, 6> kGreens{{
    {46, 160, 67}, {26, 120, 50}, {110, 190, 90}, {0, 140, 100}, {150, 200, 60}, {70, 130, 30},
}};
constexpr std::array<Rgb, 6> kGreys{{
    {150, 150, 150}, {120, 120, 120}, {180, 180, 180}, {200, 200, 200}, {100, 100, 100}, {135, 135, 135},
}};
constexpr std::array<Rgb, 4> kUserExtra{{{23, 190, 207}, {140, 86, 75}, {188, 189, 34}, {227, 119, 194}}};

Rgb overheadColour(std::string_view name, std::size_t& nextGrey) {
    if (name == "Scheduling") {
        return kGreys[0];
    }
    if (name == "FetchingInput") {
        return kGreys[1];
    }
    if (name == "PushingOutput") {
        return kGreys[2];
    }
    if (name == "Progressing" || name == "Idle") {
        return kGreys[3];
    }
    if (name == "Initializing" || name == "Deinitializing") {
        return kGreys[4];
    }
    return kGreys[(nextGrey++) % kGreys.size()];
}

Rgb userColour(std::string_view name, std::size_t& nextUser) {
    if (name == "Submitting" || name == "Submitting task") {
        return {31, 119, 180};
    }
    if (name == "Waiting task") {
        return {255, 127, 14};
    }
    if (name == "Waiting all tasks") {
        return {148, 103, 189};
    }
    return kUserExtra[(nextUser++) % kUserExtra.size()];
}

// FNV-1a: the same on every platform and build, so a codelet's shade never depends on where
// the viewer runs.
std::uint64_t nameHash(std::string_view text) {
    std::uint64_t hash = 14695981039346656037ull;
    for (const char c : text) {
        hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    }
    return hash;
}

std::size_t hashedShade(std::string_view codelet) { return static_cast<std::size_t>(nameHash(codelet) % kGreens.size()); }

std::uint8_t channel(double value) {
    return static_cast<std::uint8_t>(value < 0.0 ? 0.0 : value > 255.0 ? 255.0 : value + 0.5);
}

} // namespace

Rgb codeletShade(std::size_t index) { return kGreens[index % kGreens.size()]; }
std::size_t codeletShadeCount() { return kGreens.size(); }

CodeletShades::CodeletShades(std::vector<std::string> names) {
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    // First every codelet whose hashed shade is free keeps it, then the others take the next
    // free one: a codelet moves only for one before it in name order hashed alike, so most keep
    // their shade whatever else a trace runs.
    std::vector<bool> taken(kGreens.size(), false);
    std::vector<std::size_t> moved;
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::size_t shade = hashedShade(names[i]);
        if (taken[shade]) {
            moved.push_back(i);
            continue;
        }
        taken[shade] = true;
        m_shadeOf.emplace(names[i], shade);
    }
    for (const std::size_t i : moved) {
        std::size_t shade = hashedShade(names[i]);   // every shade taken: shared
        for (std::size_t step = 1; step < kGreens.size(); ++step) {
            const std::size_t next = (shade + step) % kGreens.size();
            if (!taken[next]) {
                shade = next;
                taken[next] = true;
                break;
            }
        }
        m_shadeOf.emplace(names[i], shade);
    }
}

std::size_t CodeletShades::shadeIndexOf(std::string_view codelet) const {
    const auto it = m_shadeOf.find(codelet);
    return it != m_shadeOf.end() ? it->second : hashedShade(codelet);
}

Rgb CodeletShades::shadeOf(std::string_view codelet) const { return codeletShade(shadeIndexOf(codelet)); }

namespace {

// The trace's codelet keys in the order tasks first use them, each once; a key no task uses is
// left out. The tasks are read only until every key has been seen.
std::vector<tracer::CodeletKeyId> keysByFirstUse(const tracer::Trace& trace) {
    std::vector<tracer::CodeletKeyId> order;
    std::vector<bool> seen(trace.codeletKeys.size(), false);
    for (const auto& task : trace.tasks) {
        if (order.size() == seen.size()) {
            break;
        }
        if (task.codeletKey < seen.size() && !seen[task.codeletKey]) {
            seen[task.codeletKey] = true;
            order.push_back(task.codeletKey);
        }
    }
    return order;
}

// A key's codelet name id, kNoName when it names none the trace holds.
tracer::NameId codeletOfKey(const tracer::Trace& trace, tracer::CodeletKeyId key) {
    const auto codelet = trace.codeletKeys.at(key).codelet;
    return codelet < trace.names.size() ? codelet : tracer::kNoName;
}

} // namespace

std::vector<bool> codeletsRun(const tracer::Trace& trace) {
    std::vector<bool> runs(trace.names.size(), false);
    for (const auto key : keysByFirstUse(trace)) {
        if (const auto codelet = codeletOfKey(trace, key); codelet != tracer::kNoName) {
            runs[codelet] = true;
        }
    }
    return runs;
}

std::vector<std::string> programCodelets(const tracer::Trace& trace) {
    const auto runs = codeletsRun(trace);
    std::vector<std::string> out;
    for (std::size_t name = 0; name < runs.size(); ++name) {
        const auto text = trace.names.name(static_cast<tracer::NameId>(name));
        if (runs[name] && !tracer::isStarpuInternalCodelet(text)) {
            out.emplace_back(text);
        }
    }
    return out;
}

std::vector<bool> usedStates(const tracer::Trace& trace) {
    std::vector<bool> used(trace.states.size(), false);
    for (const auto& lane : trace.lanes) {
        for (const auto& level : lane.levels) {
            for (const auto& span : level) {
                if (span.state < used.size()) {
                    used[span.state] = true;
                }
            }
        }
    }
    return used;
}

bool isGreenish(Rgb c) { return c.g > c.r + 30 && c.g > c.b + 20; }
bool isReddish(Rgb c) { return c.r > c.g + 60 && c.r > c.b + 40; }

Palette::Palette(const tracer::Trace& trace) : Palette(trace, CodeletShades(programCodelets(trace))) {}

Palette::Palette(const tracer::Trace& trace, const CodeletShades& shades) : Palette(trace, shades, usedStates(trace)) {}

Palette::Palette(const tracer::Trace& trace, const CodeletShades& shades, const std::vector<bool>& used)
    : m_shades(shades) {
    std::size_t nextGrey = 5;
    std::size_t nextUser = 0;
    m_states.reserve(trace.states.size());
    for (const auto& state : trace.states) {
        m_executing.push_back(state.cls == StateClass::Executing);
        switch (state.cls) {
        case StateClass::Executing: m_states.push_back(kExecutingGreen); break;
        case StateClass::Sleeping: m_states.push_back(kSleepingRed); break;
        case StateClass::Overhead:
            m_states.push_back(state.name == tracer::kFetchingInputState ? kWaitingForDataAmber
                                                                         : overheadColour(state.name, nextGrey));
            break;
        case StateClass::User: m_states.push_back(userColour(state.name, nextUser)); break;
        case StateClass::NotProfiled: m_states.push_back(kNotProfiledGrey); break;
        case StateClass::Tracing: m_states.push_back(kTraceFlushInk); break;
        }
    }
    // The program's codelets get their shades by name (shades); StarPU's own share their one
    // colour. The key lists shades in order of their first codelet's first task: the order of
    // the codelet keys' first tasks, a name first met with its first key.
    constexpr std::int32_t kInternal = -2;
    std::vector<std::int32_t> shadeOfName(trace.names.size(), -1);
    std::vector<std::size_t> shadeOrder;                          // shades, by first appearance
    std::vector<std::vector<std::string>> codeletsOfShade(kGreens.size());
    bool internalRuns = false;
    const auto shadeOf = [&](tracer::NameId codelet, bool listed) {
        auto& shade = shadeOfName[codelet];
        if (shade == -1) {
            const auto name = trace.names.name(codelet);
            if (tracer::isStarpuInternalCodelet(name)) {
                shade = kInternal;
            } else {
                shade = static_cast<std::int32_t>(shades.shadeIndexOf(name) % kGreens.size());
                if (listed) {
                    auto& named = codeletsOfShade[static_cast<std::size_t>(shade)];
                    if (named.empty()) {
                        shadeOrder.push_back(static_cast<std::size_t>(shade));
                    }
                    named.emplace_back(name);
                }
            }
        }
        return shade;
    };
    for (const auto key : keysByFirstUse(trace)) {
        if (const auto codelet = codeletOfKey(trace, key); codelet != tracer::kNoName) {
            internalRuns = shadeOf(codelet, true) == kInternal || internalRuns;
        }
    }
    // Each key's colour (tasks name theirs by key): a table as long as the codelet keys, where
    // a colour per task took 3 bytes a task.
    m_keyColours.reserve(trace.codeletKeys.size());
    for (tracer::CodeletKeyId key = 0; key < trace.codeletKeys.size(); ++key) {
        const auto codelet = codeletOfKey(trace, key);
        // A key no task uses is never drawn: its colour stays out of the key.
        const auto shade = codelet == tracer::kNoName ? -1 : shadeOf(codelet, false);
        m_keyColours.push_back(shade == -1 ? kExecutingGreen
                               : shade == kInternal ? kStarpuTaskMint
                                                    : codeletShade(static_cast<std::size_t>(shade)));
    }

    // The legend is a colour key: one entry per colour. Every codelet is named beside its
    // shade (codelets beyond the shades share one, and the entry says which), and states of
    // one colour share an entry ("Sleeping / Idle" are both the sleeping red; a state name
    // found on several lane kinds, "Scheduling", is listed once).
    const auto add = [this](const std::string& label, Rgb colour) {
        const auto same = std::find_if(m_legend.begin(), m_legend.end(),
                                       [colour](const LegendEntry& entry) { return entry.colour == colour; });
        if (same == m_legend.end()) {
            m_legend.push_back({label, colour});
        } else if (same->label != label && same->label.find(" / " + label) == std::string::npos
                   && same->label.rfind(label + " / ", 0) != 0) {
            same->label += " / " + label;
        }
    };
    bool codeletsListed = false;
    for (std::size_t i = 0; i < trace.states.size(); ++i) {
        if (i >= used.size() || !used[i]) {
            continue;
        }
        if (m_executing[i] && (!shadeOrder.empty() || internalRuns)) {
            if (codeletsListed) {
                continue;
            }
            codeletsListed = true;
            for (const std::size_t shade : shadeOrder) {
                std::string label;
                for (const auto& codelet : codeletsOfShade[shade]) {
                    label += (label.empty() ? "" : ", ") + codelet;
                }
                m_legend.push_back({label, codeletShade(shade)});
            }
            // StarPU's own in one short entry: their names would make the widest entry, which
            // sets the key's column width; the tooltip names each task's codelet.
            if (internalRuns) {
                m_legend.push_back({std::string(kStarpuTasksLabel), kStarpuTaskMint});
            }
            continue;
        }
        // The main thread may have a state named like a worker state ("Scheduling").
        const bool shared = trace.states[i].cls == StateClass::User
                            && std::any_of(trace.states.begin(), trace.states.end(), [&](const tracer::StateInfo& other) {
                                   return other.cls != StateClass::User && other.name == trace.states[i].name;
                               });
        if (trace.states[i].name == tracer::kFetchingInputState && trace.states[i].cls == StateClass::Overhead) {
            add(std::string(kWaitingForDataLabel), m_states[i]);
            continue;
        }
        add(shared ? trace.states[i].name + " (main thread)" : trace.states[i].name, m_states[i]);
    }
}

Rgb Palette::stateColour(std::uint32_t state) const {
    return state < m_states.size() ? m_states[state] : kGreys[0];
}

Rgb Palette::codeletColour(std::string_view codelet) const {
    return tracer::isStarpuInternalCodelet(codelet) ? kStarpuTaskMint : m_shades.shadeOf(codelet);
}

Rgb Palette::spanColour(const tracer::Trace& trace, const tracer::Lane& lane, const tracer::Span& span) const {
    if (span.state < m_executing.size() && m_executing[span.state]) {
        if (const auto task = trace.taskIndexOf(lane, span); task < trace.tasks.size()) {
            const auto key = trace.tasks[task].codeletKey;
            return key < m_keyColours.size() ? m_keyColours[key] : kExecutingGreen;
        }
    }
    return stateColour(span.state);
}

Rgb Palette::blend(const tracer::TimeNs* perState) const {
    double total = 0.0;
    double r = 0.0;
    double g = 0.0;
    double b = 0.0;
    for (std::size_t i = 0; i < m_states.size(); ++i) {
        const auto weight = static_cast<double>(perState[i]);
        if (weight <= 0.0) {
            continue;
        }
        total += weight;
        r += weight * m_states[i].r;
        g += weight * m_states[i].g;
        b += weight * m_states[i].b;
    }
    if (total <= 0.0) {
        // Only zero-length spans: a neutral mark that still shows something happened.
        return kGreys[0];
    }
    return {channel(r / total), channel(g / total), channel(b / total)};
}

} // namespace starscope::viewer
