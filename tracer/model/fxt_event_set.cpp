// The FxT event categories' names and the sets record uses; see fxt_event_set.hpp for why
// they live in the model.
#include "tracer/model/fxt_event_set.hpp"

#include "common/text.hpp"

#include <cctype>

namespace starscope::tracer {

namespace {

bool sameName(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::toupper(static_cast<unsigned char>(a[i]))
            != std::toupper(static_cast<unsigned char>(b[i]))) {
            return false;
        }
    }
    return true;
}

} // namespace

std::string_view fxtCategoryName(FxtCategory category) {
    for (const auto& [c, name] : kFxtCategoryNames) {
        if (c == category) {
            return name;
        }
    }
    return "?";
}

std::optional<FxtCategory> parseFxtCategory(std::string_view name) {
    for (const auto& [c, text] : kFxtCategoryNames) {
        if (sameName(text, name)) {
            return c;
        }
    }
    return std::nullopt;
}

FxtEventSet FxtEventSet::all() {
    std::uint64_t mask = 0;
    for (const auto& entry : kFxtCategoryNames) {
        mask |= bit(entry.first);
    }
    return FxtEventSet(mask & ~bit(FxtCategory::TaskVerboseExtra)
                       & ~bit(FxtCategory::MpiVerboseExtra));
}

FxtEventSet FxtEventSet::starscopeDefault() {
    // MPI: StarPU-MPI's messages and the sync points ranks are merged by; a single process
    // writes none of them.
    return FxtEventSet(bit(FxtCategory::Meta) | bit(FxtCategory::User) | bit(FxtCategory::Task)
                       | bit(FxtCategory::TaskVerbose) | bit(FxtCategory::Worker)
                       | bit(FxtCategory::WorkerVerbose) | bit(FxtCategory::Dsm)
                       | bit(FxtCategory::Event) | bit(FxtCategory::Mpi));
}

std::optional<FxtEventSet> FxtEventSet::parse(std::string_view text, std::string* error) {
    text = trimmed(text);
    if (sameName(text, "all")) {
        return all();
    }
    std::uint64_t mask = bit(FxtCategory::Meta); // StarPU keeps its meta events on
    std::size_t named = 0;
    while (!text.empty()) {
        const auto cut = text.find_first_of(",|");
        const auto word = trimmed(text.substr(0, cut));
        text = cut == std::string_view::npos ? std::string_view() : text.substr(cut + 1);
        if (word.empty()) {
            continue;
        }
        const auto category = parseFxtCategory(word);
        if (!category) {
            if (error != nullptr) {
                std::string known;
                for (const auto& [c, name] : kFxtCategoryNames) {
                    if (c != FxtCategory::Meta) {
                        known += (known.empty() ? "" : " ") + std::string(name);
                    }
                }
                *error = "unknown FxT event category '" + std::string(word)
                         + "' (StarPU 1.4 knows: all " + known + ")";
            }
            return std::nullopt;
        }
        mask |= bit(*category);
        ++named;
    }
    if (named == 0) {
        if (error != nullptr) {
            *error = "no FxT event category given (all, or a list such as USER,TASK,WORKER)";
        }
        return std::nullopt;
    }
    return FxtEventSet(mask);
}

bool FxtEventSet::isAll() const {
    return (m_mask & all().m_mask) == all().m_mask;
}

std::string FxtEventSet::text() const {
    if (isAll() && m_mask == all().m_mask) {
        return "all";
    }
    std::string out;
    for (const auto& [c, name] : kFxtCategoryNames) {
        if (c != FxtCategory::Meta && has(c)) {
            out += (out.empty() ? "" : ",") + std::string(name);
        }
    }
    return out;
}

} // namespace starscope::tracer
