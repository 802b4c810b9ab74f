#include "tracer/readers/paje/paje_syntax.hpp"

#include "tracer/model/names.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <utility>

namespace starscope::tracer::detail::paje {

namespace {

// What a byte is to the tokenizer, from one table load instead of three compares per byte: the
// byte loop was about a tenth of reading StarPU's Paje.
enum ByteClass : std::uint8_t { Plain, Blank, Quote };
constexpr std::array<ByteClass, 256> kByteClasses = [] {
    std::array<ByteClass, 256> classes{};
    classes[' '] = Blank;
    classes['\t'] = Blank;
    classes['\r'] = Blank;
    classes['"'] = Quote;
    return classes;
}();
ByteClass classOf(char c) {
    return kByteClasses[static_cast<unsigned char>(c)];
}

// tokenize() without clearing out: a batch keeps the fields of all its lines in one vector.
void appendFields(std::string_view line, std::vector<std::string_view>& out) {
    const char* p = line.data();
    const char* const end = p + line.size();
    while (true) {
        while (p != end && classOf(*p) == Blank) {
            ++p;
        }
        if (p == end) {
            break;
        }
        if (*p == '"') {
            const char* close = p + 1;
            while (close != end && *close != '"') {
                ++close;
            }
            out.emplace_back(p + 1, static_cast<std::size_t>(close - p - 1));
            p = close == end ? end : close + 1;
        } else {
            // A quote inside a field is part of it, as before: only blanks end a plain field.
            const char* q = p + 1;
            while (q != end && classOf(*q) != Blank) {
                ++q;
            }
            out.emplace_back(p, static_cast<std::size_t>(q - p));
            p = q;
        }
    }
}

// Only dates that become model times choose its unit: starpu_fxt_tool ends its links 1e-9 ms
// after they start, which would turn every StarPU trace into picoseconds.
bool isModelTime(Kind kind) {
    return kind == Kind::DestroyContainer || kind == Kind::SetState || kind == Kind::PushState
           || kind == Kind::PopState || kind == Kind::ResetState || kind == Kind::NewEvent;
}

// Several ranks: starpu_fxt_tool writes "<rank>_<job>"; read as the FxT reader numbers a rank's
// jobs (jobOfProcess), since each process numbers its own from 1.
std::uint64_t jobIdOf(std::string_view text) {
    std::uint64_t job = 0;
    const auto underscore = text.find('_');
    std::uint64_t rank = 0;
    if (underscore != std::string_view::npos
        && std::from_chars(text.data(), text.data() + underscore, rank).ptr
               == text.data() + underscore
        && rank < (std::uint64_t{1} << 15)) {
        std::from_chars(text.data() + underscore + 1, text.data() + text.size(), job);
        job = jobOfProcess(rank, job);
    } else {
        std::from_chars(text.data(), text.data() + text.size(), job);
    }
    return job;
}

} // namespace

void tokenize(std::string_view line, std::vector<std::string_view>& out) {
    out.clear();
    appendFields(line, out);
}

void prepareLines(std::string_view text, std::size_t from, std::size_t lineNo, std::size_t maxLines,
                  const EventDefs& defs, LineBatch& out) {
    out.events.clear();
    out.fields.clear();
    out.variables = 0;
    out.maxDecimals = 0;
    out.maxAbsMs = 0;
    out.endMs = 0;
    out.end = PajeStamp{};
    out.truncatedTimes = 0;
    out.problem.clear();
    out.problemIsFormat = false;
    const auto stop = [&](LineStop why, std::size_t next, std::size_t nextLine) {
        out.stop = why;
        out.next = next;
        out.nextLine = nextLine;
    };
    const auto problem = [&](std::size_t pos, std::size_t line, std::string what) {
        out.problem = std::move(what);
        stop(LineStop::Problem, pos, line - 1);
    };
    std::size_t pos = from;
    for (std::size_t lines = 0; lines < maxLines; ++lines) {
        if (pos >= text.size()) {
            stop(LineStop::End, pos, lineNo);
            return;
        }
        // Searching a bounded window keeps a binary or endless file from being scanned to its
        // end (many GiB) before it is refused.
        const auto window = text.substr(pos, kMaxLineBytes + 1);
        const auto eol = window.find('\n');
        if (eol == std::string_view::npos && window.size() > kMaxLineBytes) {
            out.problemIsFormat = true;
            problem(pos, lineNo + 1,
                    "line " + std::to_string(lineNo + 1) + " is longer than "
                        + std::to_string(kMaxLineBytes >> 20) + " MiB: not a Paje trace");
            return;
        }
        const auto end = eol == std::string_view::npos ? text.size() : pos + eol;
        std::string_view line = text.substr(pos, end - pos);
        std::size_t skip = 0;
        while (skip < line.size()
               && (line[skip] == ' ' || line[skip] == '\t' || line[skip] == '\r')) {
            ++skip;
        }
        line.remove_prefix(skip);
        if (!line.empty() && line.front() == '%') {
            stop(LineStop::Header, pos, lineNo);
            return;
        }
        ++lineNo;
        const std::size_t start = pos;
        pos = end + 1;
        if (line.empty() || line.front() == '#') {
            continue;
        }
        const std::size_t first = out.fields.size();
        appendFields(line, out.fields);
        const std::string_view id = out.fields[first];
        const EventDef* def = defs.find(id);
        if (def == nullptr) {
            problem(start, lineNo, "event id \"" + std::string(id) + "\" has no %EventDef");
            return;
        }
        const std::size_t count = out.fields.size() - first - 1;
        if (count < def->fieldCount) {
            problem(start, lineNo,
                    "event " + std::string(id) + " has " + std::to_string(count)
                        + " fields, its definition " + std::to_string(def->fieldCount));
            return;
        }
        const auto field = [&](Field f) -> std::string_view {
            return def->index[f] < 0
                       ? std::string_view{}
                       : out.fields[first + 1 + static_cast<std::size_t>(def->index[f])];
        };
        PreparedEvent e;
        e.def = def;
        e.firstField = static_cast<std::uint32_t>(first + 1);
        if (def->index[FTime] >= 0) {
            const auto time = field(FTime);
            const auto parsed = parsePajeStamp(time);
            if (!parsed) {
                problem(start, lineNo, "bad time \"" + std::string(time) + "\"");
                return;
            }
            e.stamp = *parsed;
            out.truncatedTimes += e.stamp.truncated ? 1U : 0U;
            if (isModelTime(def->kind)) {
                out.maxDecimals = std::max(out.maxDecimals, int{e.stamp.decimals});
            }
            const double ms =
                static_cast<double>(e.stamp.mantissa) * negativePowerOfTen(e.stamp.decimals);
            out.maxAbsMs = std::max(out.maxAbsMs, std::abs(ms));
            if (ms > out.endMs) {
                out.endMs = ms;
                out.end = e.stamp;
            }
        }
        if (def->kind == Kind::SetVariable || def->kind == Kind::AddVariable
            || def->kind == Kind::SubVariable || def->kind == Kind::Unknown) {
            // Counted (variables) or skipped: nothing of them reaches the reader's state.
            out.variables += def->kind == Kind::Unknown ? 0U : 1U;
            out.fields.resize(first);
            continue;
        }
        if (def->index[FJobId] >= 0) {
            e.jobId = jobIdOf(field(FJobId));
        }
        if (def->index[FFootprint] >= 0) {
            const auto footprint = field(FFootprint);
            std::from_chars(footprint.data(), footprint.data() + footprint.size(), e.footprint, 16);
        }
        out.events.push_back(e);
    }
    stop(pos >= text.size() ? LineStop::End : LineStop::Batch, pos, lineNo);
}

} // namespace starscope::tracer::detail::paje
