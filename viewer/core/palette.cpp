#include "viewer/core/palette.hpp"

#include "tracer/analysis/codelet_stats.hpp"
#include "tracer/analysis/machine.hpp"

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

std::uint8_t channel(double value) {
    return static_cast<std::uint8_t>(value < 0.0 ? 0.0 : value > 255.0 ? 255.0 : value + 0.5);
}

} // namespace

Rgb codeletShade(std::size_t index) { return kGreens[index % kGreens.size()]; }

bool isGreenish(Rgb c) { return c.g > c.r + 30 && c.g > c.b + 20; }
bool isReddish(Rgb c) { return c.r > c.g + 60 && c.r > c.b + 40; }

Palette::Palette(const tracer::Trace& trace) {
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
    // The program's codelets get shades in order of first appearance among the interned names
    // that tasks use, so a codelet keeps its colour however the tasks are ordered; StarPU's own
    // share their one colour and take no shade from the program's.
    constexpr std::int32_t kInternal = -2;
    std::vector<std::int32_t> shadeOfName(trace.names.size(), -1);
    std::size_t nextShade = 0;
    bool internalRuns = false;
    m_taskColours.reserve(trace.tasks.size());
    for (const auto& task : trace.tasks) {
        const auto codelet = trace.codeletIdOf(task);
        if (codelet == tracer::kNoName || codelet >= shadeOfName.size()) {
            m_taskColours.push_back(kExecutingGreen);
            continue;
        }
        auto& shade = shadeOfName[codelet];
        if (shade == -1) {
            shade = tracer::isStarpuInternalCodelet(trace.names.name(codelet)) ? kInternal
                                                                                : static_cast<std::int32_t>(nextShade++);
        }
        if (shade == kInternal) {
            internalRuns = true;
            m_taskColours.push_back(kStarpuTaskMint);
        } else {
            m_taskColours.push_back(codeletShade(static_cast<std::size_t>(shade)));
        }
    }

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
    // The legend is a colour key: one entry per colour. Every codelet is named beside its
    // shade (codelets beyond the shade cycle share one, and the entry says which), and states
    // of one colour share an entry ("Sleeping / Idle" are both the sleeping red; a state
    // name found on several lane kinds, "Scheduling", is listed once).
    std::vector<std::vector<std::string>> codeletsOfShade(std::min(nextShade, kGreens.size()));
    for (std::size_t name = 0; name < shadeOfName.size(); ++name) {
        if (shadeOfName[name] >= 0) {
            const auto order = static_cast<std::size_t>(shadeOfName[name]);
            codeletsOfShade[order % kGreens.size()].push_back(std::string(trace.names.name(static_cast<tracer::NameId>(name))));
        }
    }
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
        if (!used[i]) {
            continue;
        }
        if (m_executing[i] && (!codeletsOfShade.empty() || internalRuns)) {
            if (codeletsListed) {
                continue;
            }
            codeletsListed = true;
            for (std::size_t k = 0; k < codeletsOfShade.size(); ++k) {
                std::string label;
                for (const auto& codelet : codeletsOfShade[k]) {
                    label += (label.empty() ? "" : ", ") + codelet;
                }
                m_legend.push_back({label, codeletShade(k)});
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

Rgb Palette::spanColour(const tracer::Trace& trace, const tracer::Lane& lane, const tracer::Span& span) const {
    if (span.state < m_executing.size() && m_executing[span.state]) {
        if (const auto task = trace.taskIndexOf(lane, span); task < m_taskColours.size()) {
            return m_taskColours[task];
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
