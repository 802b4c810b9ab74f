#include "tracer/model/names.hpp"

#include <algorithm>
#include <vector>

namespace starscope::tracer {

bool isPrintableText(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const auto lead = static_cast<unsigned char>(text[i]);
        if (lead < 0x80) {
            if ((lead < 0x20 && lead != '\t') || lead == 0x7f) {
                return false;
            }
            ++i;
            continue;
        }
        // The length of the sequence and the lowest code point it may encode (no overlong form).
        std::size_t length = 0;
        std::uint32_t point = 0;
        std::uint32_t lowest = 0;
        if ((lead & 0xe0) == 0xc0) {
            length = 2;
            point = lead & 0x1fU;
            lowest = 0x80;
        } else if ((lead & 0xf0) == 0xe0) {
            length = 3;
            point = lead & 0x0fU;
            lowest = 0x800;
        } else if ((lead & 0xf8) == 0xf0) {
            length = 4;
            point = lead & 0x07U;
            lowest = 0x10000;
        } else {
            return false;
        }
        if (i + length > text.size()) {
            return false;
        }
        for (std::size_t k = 1; k < length; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            if ((next & 0xc0) != 0x80) {
                return false;
            }
            point = (point << 6) | (next & 0x3fU);
        }
        // C1 controls, surrogates and beyond Unicode are no text either.
        if (point < lowest || (point >= 0x80 && point < 0xa0) || (point >= 0xd800 && point < 0xe000)
            || point > 0x10ffff) {
            return false;
        }
        i += length;
    }
    return true;
}

std::string jobName(const Trace& trace, std::uint64_t job) {
    if (trace.ranks.size() < 2) {
        return "job " + std::to_string(job);
    }
    // The process's index among the trace's ranks (sorted by rank, as readers number them).
    const std::uint64_t process = job >> kJobProcessShift;
    const std::uint64_t own = job - jobOfProcess(process, 0);
    const auto rank = process < trace.ranks.size()
                          ? static_cast<std::uint64_t>(trace.ranks[process].rank)
                          : process;
    return "rank " + std::to_string(rank) + " job " + std::to_string(own);
}

std::string taskName(const Trace& trace, const Task& task) {
    const auto codelet = trace.codeletOf(task);
    return codelet.empty() ? "unnamed (" + jobName(trace, task.jobId) + ")" : std::string(codelet);
}

std::size_t unnameUnprintableCodelets(Trace& trace) {
    const auto keys = trace.codeletKeys.keys();
    std::vector<std::uint8_t> unprintable(keys.size(), 0);
    bool any = false;
    for (std::size_t k = 0; k < keys.size(); ++k) {
        const auto codelet = keys[k].codelet;
        const bool bad = codelet != kNoName && codelet < trace.names.size()
                         && !isPrintableText(trace.names.name(codelet));
        unprintable[k] = bad ? 1 : 0;
        any = any || bad;
    }
    if (!any) {
        return 0; // a pass over the tasks only for a trace that needs it
    }
    std::size_t unnamed = 0;
    auto& tasks = trace.tasks.edit();
    for (auto& task : tasks) {
        if (task.codeletKey < unprintable.size() && unprintable[task.codeletKey] != 0) {
            trace.setCodelet(task, kNoName, trace.footprintOf(task));
            ++unnamed;
        }
    }
    trace.indexTasks(); // drops the keys no task uses now
    return unnamed;
}

std::string unprintableNamesWarning(std::size_t tasks) {
    return std::to_string(tasks) + (tasks == 1 ? " task has" : " tasks have")
           + " a name that is not printable text (bytes StarPU recorded for jobs that never ran): "
             "shown as \"unnamed (job N)\"";
}

std::string userThreadName(std::size_t ordinal) {
    return ordinal <= 1 ? std::string("main") : "thread " + std::to_string(ordinal);
}

} // namespace starscope::tracer
