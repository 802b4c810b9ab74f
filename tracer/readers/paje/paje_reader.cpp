// Paje traces -> trace model. Any Paje trace: event definitions with arbitrary ids and extra
// fields, events in any time order, quoted strings, containers, Set/Push/Pop/ResetState,
// NewEvent, variables and links, the field names of the Paje specification and ViTE
// ("ContainerType", "EntityType", "SourceContainer"...) as well as pajeng's. Paje has no time
// unit; like StarPU and ViTE we read milliseconds, exactly (paje_time.hpp): a file whose dates
// need more than six decimals is read at a finer tick than nanoseconds (time_unit.hpp).
//
// The reading has three layers: the header's %EventDef table and the event lines prepared in
// batches (paje_event_defs.hpp, paje_syntax.hpp), each event line typed into a record
// (paje_records.hpp), and the records turned into the model (paje_decoder.hpp, with the
// containers and lanes of paje_containers.hpp and the links of paje_links.hpp). This file
// walks the text: header lines in file order, event lines in batches between them.

#include "common/mapped_file.hpp"
#include "tracer/readers/paje/paje_decoder.hpp"
#include "tracer/readers/paje/paje_event_defs.hpp"
#include "tracer/readers/paje/paje_reader.hpp"
#include "tracer/readers/paje/paje_syntax.hpp"
#include "tracer/readers/read_trace.hpp"

#include <algorithm>
#include <array>
#include <future>
#include <optional>
#include <string_view>
#include <system_error>

namespace starscope::tracer {

namespace fs = std::filesystem;

namespace {

using namespace detail::paje;

// Lines per batch: about 1 MB of StarPU's Paje, few enough thread starts per file.
constexpr std::size_t kBatchLines = std::size_t{1} << 14;

class PajeReader {
public:
    // A second thread can prepare lines while this one applies them, but on this 2-core machine
    // busy with other work it cost time: a headless render of the 5-epoch CNN trace (90 MB) took
    // 1.036 s with two threads and 0.890 s with one at nice 10 among niced builds (611 vs 549 ms
    // of CPU, medians of 5 alternating runs, load 3.5), and render_vs_vite.sh and the CNN traces
    // showed the same. So one thread unless the caller asks for two (ReadOptions::threads).
    PajeReader(const fs::path& file, const files::MappedFile& map, const ReadOptions& options)
        : m_file(file), m_map(map), m_options(options), m_twoThreads(options.threads >= 2),
          m_decoder(file, options) {}
    TraceResult<Trace> run(std::string_view text);

private:
    TraceError error(std::string message, std::size_t offset, std::size_t line) const {
        return TraceError{ErrorCode::Corrupt, "line " + std::to_string(line) + ": " + message,
                          m_file.string(), offset};
    }
    std::optional<TraceError> events(std::string_view text, std::size_t& pos, std::size_t& lineNo);

    // Lets go of the text before `to` (the pages wholly before it) every few MiB: a Paje file
    // of several GB read front to back then holds a step of itself in the process, not all of
    // it on top of the model. What a later look back reads (an error's line number) the page
    // cache gives again.
    void releaseBefore(std::size_t to) {
        constexpr std::size_t kStep = std::size_t{4} << 20;
        if (to >= m_released + kStep) {
            m_map.release(m_released, to);
            m_released = to;
        }
    }

    const fs::path& m_file;
    const files::MappedFile& m_map;
    std::size_t m_released = 0;
    const ReadOptions& m_options;
    bool m_twoThreads = false;
    EventDefs m_defs;
    std::array<LineBatch, 2> m_batches; // one applied while the other is prepared
    Decoder m_decoder;
};

// The event lines from pos to the next '%' line or the end, prepared in batches and applied
// here in file order. With two threads the next batch is prepared while one is applied:
// prepareLines needs only the definitions, which no event line changes.
std::optional<TraceError> PajeReader::events(std::string_view text, std::size_t& pos,
                                             std::size_t& lineNo) {
    prepareLines(text, pos, lineNo, kBatchLines, m_defs, m_batches[0]);
    for (std::size_t k = 0;; k ^= 1U) {
        const LineBatch& ready = m_batches[k];
        LineBatch& next = m_batches[k ^ 1U];
        std::future<void> preparing;
        if (ready.stop == LineStop::Batch) {
            const auto prepare = [this, text, &next, from = ready.next, line = ready.nextLine] {
                prepareLines(text, from, line, kBatchLines, m_defs, next);
            };
            if (m_twoThreads) {
                try {
                    preparing = std::async(std::launch::async, prepare);
                } catch (const std::system_error&) {
                    prepare(); // no thread to be had: prepared here, as a short file is
                }
            } else {
                prepare();
            }
        }
        m_decoder.apply(ready);
        if (const auto& problem = m_decoder.problem()) {
            if (preparing.valid()) {
                preparing.get();   // it reads the text and the definitions: let it end first
            }
            // The line's start and number, counted only now that one is wrong.
            const auto at = static_cast<std::size_t>(problem->at - text.data());
            const auto before = text.rfind('\n', at);
            const auto begin = before == std::string_view::npos ? 0 : before + 1;
            const auto line = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(begin), '\n');
            return error(problem->what, begin, static_cast<std::size_t>(line) + 1);
        }
        pos = ready.next;
        lineNo = ready.nextLine;
        releaseBefore(pos);
        if (ready.stop == LineStop::Problem) {
            return ready.problemIsFormat
                       ? TraceError{ErrorCode::Format, ready.problem, m_file.string(), pos}
                       : error(ready.problem, pos, lineNo + 1);
        }
        if (ready.stop != LineStop::Batch) {
            return std::nullopt;
        }
        if (m_options.progress
            && !m_options.progress(0.6 * static_cast<double>(pos)
                                   / static_cast<double>(text.size()))) {
            return TraceError{ErrorCode::Cancelled, "reading cancelled", m_file.string(), pos};
        }
        if (preparing.valid()) {
            preparing.get();
        }
    }
}

TraceResult<Trace> PajeReader::run(std::string_view text) {
    m_decoder.reserveFor(text.size());
    std::size_t pos = 0;
    std::size_t lineNo = 0;
    while (pos < text.size()) {
        if (auto problem = events(text, pos, lineNo)) {
            return fail(*problem);
        }
        if (pos >= text.size()) {
            break;
        }
        // A '%' line (events() checked its length): definitions change only here, in file order.
        const auto eol = text.find('\n', pos);
        const auto end = eol == std::string_view::npos ? text.size() : eol;
        std::string_view line = text.substr(pos, end - pos);
        line.remove_prefix(line.find('%'));
        ++lineNo;
        if (auto problem = m_defs.readHeaderLine(line)) {
            return fail(error(std::move(*problem), pos, lineNo));
        }
        pos = end + 1;
    }
    if (const std::string* open = m_defs.unclosed()) {
        return fail(TraceError{ErrorCode::Corrupt,
                               "%EventDef " + *open + " is never closed (truncated file?)",
                               m_file.string(), text.size()});
    }
    const bool cut = !text.empty() && text.back() != '\n';
    return m_decoder.finish(cut ? std::optional<std::size_t>(text.size()) : std::nullopt);
}

} // namespace

TraceResult<Trace> readPaje(const fs::path& file, const ReadOptions& options) {
    const files::MappedFile map(file);
    if (!map.error().empty()) {
        return fail(TraceError{ErrorCode::Io, "cannot read: " + map.error(), file.string(), {}});
    }
    PajeReader reader(file, map, options);
    return reader.run(map.text());
}

} // namespace starscope::tracer
