#pragma once
// One prof file's events, from whichever source reads its layout, chosen once when the file is
// opened: the direct parser (fxt_direct.hpp: fast, bounds-checked) for the layout libfxt 0.3
// writes, libfxt in a child process (fxt_source.hpp) for any other FxT variant. Every pass over
// a file (the release sniffing, the MPI clock plan, the decoding) walks it through here.

#include "tracer/readers/fxt/fxt_direct.hpp"
#include "tracer/readers/fxt/fxt_source.hpp"

#include <filesystem>
#include <functional>
#include <utility>
#include <vector>

namespace starscope::tracer::detail {

struct FxtWalk {
    FxtStreamSummary stream;
    std::vector<DirectFxtProblem>
        problems; // damage the direct parser found; libfxt reports endedEarly
};

class FxtEvents {
public:
    explicit FxtEvents(std::filesystem::path file)
        : m_file(std::move(file)), m_direct(isDirectFxtLayout(m_file)) {}

    const std::filesystem::path& file() const { return m_file; }
    bool direct() const { return m_direct; }

    // Calls onEvent for every event whose code is in [firstCode, lastCode], in file order;
    // onEvent or progress returning false cancels (ErrorCode::Cancelled).
    template <typename OnEvent>
    TraceResult<FxtWalk> walk(std::uint64_t firstCode, std::uint64_t lastCode, OnEvent&& onEvent,
                              const std::function<bool(double)>& progress) const {
        if (m_direct) {
            auto read = readFxtDirect(m_file, firstCode, lastCode, std::forward<OnEvent>(onEvent),
                                      progress);
            if (!read) {
                return fail(read.error());
            }
            return FxtWalk{read->stream, std::move(read->problems)};
        }
        auto streamed =
            streamFxtEvents(m_file, firstCode, lastCode, std::forward<OnEvent>(onEvent), progress);
        if (!streamed) {
            return fail(streamed.error());
        }
        return FxtWalk{*streamed, {}};
    }

private:
    std::filesystem::path m_file;
    bool m_direct = false;
};

} // namespace starscope::tracer::detail
