#include "tracer/model/read_options.hpp"

#include <cstdlib>

namespace starscope::tracer {

std::filesystem::path verifiedFilesFolder() {
    if (const char* chosen = std::getenv("STARSCOPE_VERIFIED_FILES")) {
        return chosen;
    }
    const char* cache = std::getenv("XDG_CACHE_HOME");
    if (cache != nullptr && *cache == '/') {   // the XDG rule: a relative value is ignored
        return std::filesystem::path(cache) / "starscope" / "verified";
    }
    const char* home = std::getenv("HOME");
    if (home != nullptr && *home == '/') {
        return std::filesystem::path(home) / ".cache" / "starscope" / "verified";
    }
    return {};
}

} // namespace starscope::tracer
