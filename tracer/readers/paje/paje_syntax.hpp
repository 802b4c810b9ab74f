#pragma once
// The lexical side of Paje: splitting a line into fields, and preparing event lines (fields,
// definition, date, StarPU's job fields) in batches that another thread can read while the
// reader applies the previous batch: Paje is line oriented, and a line's preparation needs only
// the %EventDef table (paje_event_defs.hpp), which no event line changes.

#include "tracer/readers/paje/paje_event_defs.hpp"
#include "tracer/readers/paje/paje_time.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace starscope::tracer::detail::paje {

// Splits a line at blanks; a double-quoted field keeps its blanks (quotes removed).
void tokenize(std::string_view line, std::vector<std::string_view>& out);

// Why preparing stopped before the end of the text.
enum class LineStop : std::uint8_t {
    Batch,   // the batch is full
    End,     // the text ends
    Header,  // a '%' line, which the caller reads itself (it may change the definitions)
    Problem, // a line that is no valid event (problem says which)
};

// An event line ready to apply: its fields, its definition and what of it needs no reader state.
struct PreparedEvent {
    const EventDef* def = nullptr;
    std::uint32_t firstField = 0; // in LineBatch::fields: the field after the event id
    PajeStamp stamp;              // of its Time field, zero without one
    std::uint64_t jobId =
        0; // StarPU's JobId field ("<rank>_<job>" as (rank << 48) + job), 0 when absent
    std::uint32_t footprint = 0; // StarPU's Footprint field (hexadecimal), 0 when absent
};

struct LineBatch {
    std::vector<PreparedEvent> events;
    std::vector<std::string_view> fields;
    // Lines whose only effect is to be counted (variables) or none (unknown kinds) get no event.
    std::size_t variables = 0;
    // Over every dated line of the batch: the reader chooses its tick from these once all are read.
    int maxDecimals = 0; // of the dates that become model times
    double maxAbsMs = 0;
    double endMs = 0; // the latest date and its stamp, the first of equal ones
    PajeStamp end;
    std::size_t truncatedTimes = 0;
    // Where it stopped: next is the offset of the first line not prepared, nextLine its number - 1.
    LineStop stop = LineStop::End;
    std::size_t next = 0;
    std::size_t nextLine = 0;
    std::string problem;          // with LineStop::Problem: what is wrong with line nextLine + 1
    bool problemIsFormat = false; // the text is no Paje at all (a line too long), not a corrupt one
};

// Paje lines are a few hundred bytes; StarPU's longest hold a codelet name and a few ids.
constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

// Prepares the event lines of text from offset from (the start of line lineNo + 1) on, at most
// maxLines lines, into out (cleared first). Blank lines and '#' comments are skipped.
void prepareLines(std::string_view text, std::size_t from, std::size_t lineNo, std::size_t maxLines,
                  const EventDefs& defs, LineBatch& out);

} // namespace starscope::tracer::detail::paje
