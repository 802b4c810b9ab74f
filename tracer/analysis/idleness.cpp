#include "tracer/analysis/idleness.hpp"

namespace starscope::tracer {

std::optional<double> idleness(TimeNs executing, TimeNs window, std::size_t lanes,
                               TimeNs unrecorded) {
    // In double: the window times the lanes of a damaged trace whose times reach centuries
    // would overflow in nanoseconds.
    const double capacity =
        static_cast<double>(window) * static_cast<double>(lanes) - static_cast<double>(unrecorded);
    if (capacity <= 0) {
        return std::nullopt;
    }
    return 1.0 - static_cast<double>(executing) / capacity;
}

} // namespace starscope::tracer
