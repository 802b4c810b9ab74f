#include "viewer/core/format/time_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace starscope::viewer {

double unitScaleNs(TimeUnit unit) {
    switch (unit) {
    case TimeUnit::Ns: return 1.0;
    case TimeUnit::Us: return 1e3;
    case TimeUnit::Ms: return 1e6;
    case TimeUnit::S: return 1e9;
    }
    return 1.0;
}

const char* unitSuffix(TimeUnit unit) {
    switch (unit) {
    case TimeUnit::Ns: return "ns";
    case TimeUnit::Us: return "us";
    case TimeUnit::Ms: return "ms";
    case TimeUnit::S: return "s";
    }
    return "ns";
}

TimeUnit unitFor(double magnitudeNs) {
    const double m = std::abs(magnitudeNs);
    if (m >= 1e9) {
        return TimeUnit::S;
    }
    if (m >= 1e6) {
        return TimeUnit::Ms;
    }
    if (m >= 1e3) {
        return TimeUnit::Us;
    }
    return TimeUnit::Ns;
}

TickPlan planTicks(double startNs, double endNs, int maxTicks, double minStepNs) {
    TickPlan plan;
    plan.stepNs = minStepNs;
    const double range = std::abs(endNs - startNs);
    const double raw = range / std::max(1, maxTicks);
    if (raw > minStepNs) {
        const double power = std::pow(10.0, std::floor(std::log10(raw)));
        const double mantissa = raw / power;
        // Round the step up so there are never more than maxTicks ticks.
        const double nice = mantissa <= 1.0 ? 1.0 : mantissa <= 2.0 ? 2.0 : mantissa <= 5.0 ? 5.0 : 10.0;
        plan.stepNs = nice * power;
    }
    plan.unit = unitFor(std::max(std::abs(startNs), std::abs(endNs)));
    const double stepInUnit = plan.stepNs / unitScaleNs(plan.unit);
    plan.decimals = stepInUnit >= 1.0 ? 0 : static_cast<int>(std::ceil(-std::log10(stepInUnit) - 1e-9));
    return plan;
}

std::string formatTick(double ns, const TickPlan& plan) {
    const double value = ns / unitScaleNs(plan.unit);
    // Ticks are multiples of the step; anything below half a step of the last decimal is 0.
    if (std::abs(ns) < 0.5 * plan.stepNs) {
        return "0";
    }
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f %s", plan.decimals, value, unitSuffix(plan.unit));
    return buffer;
}

std::string formatInstant(double ns, double resolutionNs) {
    const TimeUnit unit = unitFor(ns);
    int decimals = static_cast<int>(std::lround(std::log10(unitScaleNs(unit))));
    for (double r = resolutionNs; r < 0.999 && decimals < 18; r *= 10.0) {
        ++decimals;
    }
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, ns / unitScaleNs(unit));
    std::string text = buffer;
    const auto point = text.find('.');
    if (point != std::string::npos) {
        for (auto at = point + 4; at < text.size(); at += 4) {
            text.insert(at, 1, ' ');
        }
    }
    return text + " " + unitSuffix(unit);
}

} // namespace starscope::viewer
