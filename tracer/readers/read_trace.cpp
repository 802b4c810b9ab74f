#include "tracer/readers/read_trace.hpp"

#include "tracer/model/names.hpp"
#include "tracer/native/native_format.hpp"
#include "tracer/readers/fxt/fxt_reader.hpp"
#include "tracer/readers/paje/paje_reader.hpp"
#include "tracer/run_folder/run_folder.hpp"
#include "tracer/run_folder/run_record.hpp"

#include <algorithm>
#include <charconv>
#include <vector>

namespace starscope::tracer {

namespace fs = std::filesystem;

namespace {

// The model packs span times in 48 bits and state ids in 15 (Span), lanes and ranks in 16 (Task,
// MarkerEvent): a longer trace, or one with more states, lanes or ranks, is refused here rather
// than shown with wrapped times or lost lanes.
TraceResult<Trace> withinModel(TraceResult<Trace> trace, const fs::path& input) {
    if (!trace) {
        return trace;
    }
    if (trace->end > kMaxTraceTime) {
        return fail(fileError(ErrorCode::Unsupported, input,
                          "the trace lasts " + std::to_string(trace->end / 1'000'000'000)
                              + " s, longer than the "
                              + std::to_string(kMaxTraceTime / 1'000'000'000)
                              + " s (about 39 hours) starscope's model holds"));
    }
    if (trace->states.size() > kMaxStates) {
        return fail(fileError(ErrorCode::Unsupported, input,
                          "the trace has " + std::to_string(trace->states.size())
                              + " distinct states, more than the " + std::to_string(kMaxStates)
                              + " starscope's model holds"));
    }
    // Tasks and markers name their lane and rank in 16 bits.
    if (trace->lanes.size() > kMaxLanes) {
        return fail(fileError(ErrorCode::Unsupported, input,
                          "the trace has " + std::to_string(trace->lanes.size())
                              + " threads, more than the " + std::to_string(kMaxLanes)
                              + " starscope's model holds"));
    }
    if (!trace->ranks.empty() && trace->ranks.back().rank > kMaxRank) {
        return fail(fileError(ErrorCode::Unsupported, input,
                          "the trace has a process of rank "
                              + std::to_string(trace->ranks.back().rank) + ", beyond the rank "
                              + std::to_string(kMaxRank) + " starscope's model holds"));
    }
    return trace;
}

// Names are shown to people: a codelet name that is not text (bytes a 1.3 release records for
// jobs that never ran) is taken away here, for every format, and said once.
TraceResult<Trace> named(TraceResult<Trace> trace) {
    if (trace) {
        if (const auto unnamed = unnameUnprintableCodelets(*trace); unnamed > 0) {
            trace->warnings.push_back(unprintableNamesWarning(unnamed));
        }
    }
    return trace;
}

// A folder without prof files: a run recorded with `record --no-trace` says so in its run.json
// (it has figures, no trace), anything else is no run folder.
TraceError noProfFiles(const fs::path& folder) {
    if (const auto run = run::readRunRecord(folder / run::kRunJsonName); run && !run->traced) {
        return fileError(
            ErrorCode::Unsupported, folder,
            "no trace: this run was recorded without tracing (record --no-trace; run.json says "
            "\"traced\": false); it has run.json's figures only. Record it again without "
            "--no-trace to "
            "see its trace");
    }
    return fileError(ErrorCode::Io, folder,
                     "no " + std::string(run::kProfFilePrefix) + "* in this folder (is it a run folder?)");
}

TraceResult<Trace> readOne(const fs::path& input, const ReadOptions& options) {
    const auto format = detectFormat(input);
    if (!format) {
        return fail(format.error());
    }
    const auto readProfFiles = [&options](const std::vector<fs::path>& files) {
        return detail::readFxt(files, options);
    };
    switch (*format) {
    case InputFormat::RunFolder: {
        const auto files = run::findProfFiles(input);
        if (files.empty()) {
            return fail(noProfFiles(input));
        }
        for (const auto& file : files) {
            if (const auto why = notAProfFile(file)) {
                return fail(fileError(ErrorCode::Io, file, *why));
            }
        }
        auto trace = detail::readRunFolder(input, files, options, readProfFiles);
        if (trace) {
            if (const auto run = run::readRunRecord(input / run::kRunJsonName)) {
                if (auto missing = missingRanks(*trace, files, run->ranks)) {
                    trace->warnings.push_back(std::move(*missing));
                }
            }
        }
        return trace;
    }
    case InputFormat::Fxt:
        return readProfFiles({input});
    case InputFormat::Paje:
        return readPaje(input, options);
    case InputFormat::Native:
        return readNative(input, options);
    }
    return fail(fileError(ErrorCode::Format, input, "unknown input format"));
}

// The rank a lone prof file was written by, from its name: StarPU-MPI names them
// prof_file_USER_RANK. nullopt when the name does not end so.
std::optional<std::int32_t> rankInName(const fs::path& file) {
    const auto name = file.filename().string();
    const auto digits = name.substr(name.rfind('_') + 1);
    std::int32_t rank = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), rank);
    if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size()) {
        return std::nullopt;
    }
    return rank;
}

// A damaged run.json may claim any number of ranks: a list names this many at most.
constexpr std::size_t kNamedRanks = 8;

// "rank 2", "ranks 0, 1", or "ranks 1, 2, ..., 8, ... (999 in all)" for total ranks of which
// the first are given.
std::string rankList(const std::vector<std::int64_t>& ranks, std::uint64_t total) {
    std::string out = total == 1 ? "rank " : "ranks ";
    for (std::size_t i = 0; i < ranks.size() && i < kNamedRanks; ++i) {
        out += (i == 0 ? "" : ", ") + std::to_string(ranks[i]);
    }
    return total > kNamedRanks ? out + ", ... (" + std::to_string(total) + " in all)" : out;
}

} // namespace

std::optional<std::string> missingRanks(const Trace& trace, const std::vector<fs::path>& profFiles,
                                        std::uint64_t recordedRanks) {
    const std::uint64_t read = std::max<std::size_t>(trace.ranks.size(), 1);
    if (read >= recordedRanks) {
        return std::nullopt;
    }
    const std::uint64_t count = recordedRanks - read;
    const std::string out = "run.json says the run had " + std::to_string(recordedRanks)
                            + " ranks, the folder holds the trace of " + std::to_string(read);
    const std::string coverage = " missing (no prof file); every figure covers the ranks read only";
    // Which ranks were read: the rank table of several, the name of a lone file.
    std::vector<std::int64_t> held;
    for (const auto& r : trace.ranks) {
        held.push_back(r.rank);
    }
    if (held.empty() && profFiles.size() == 1) {
        if (const auto rank = rankInName(profFiles.front())) {
            held.push_back(*rank);
        }
    }
    if (held.empty()) {
        return out + ": " + std::to_string(count) + (count == 1 ? " rank" : " ranks") + coverage;
    }
    std::vector<std::int64_t> missing;
    for (std::int64_t r = 0; static_cast<std::uint64_t>(r) < recordedRanks && missing.size() <= kNamedRanks; ++r) {
        if (std::find(held.begin(), held.end(), r) == held.end()) {
            missing.push_back(r);
        }
    }
    return out + " (" + rankList(held, held.size()) + "): " + rankList(missing, count) + coverage;
}

TraceResult<Trace> readTrace(const fs::path& input, const ReadOptions& options) {
    return named(withinModel(readOne(input, options), input));
}

TraceResult<Trace> readTrace(const std::vector<fs::path>& inputs, const ReadOptions& options) {
    if (inputs.empty()) {
        return fail(TraceError{ErrorCode::InvalidArgument, "no trace to read", {}, {}});
    }
    if (inputs.size() == 1) {
        return readTrace(inputs.front(), options);
    }
    // Each input is one process of the run: the same file twice (named twice, or through a link)
    // would be merged as two ranks that ran the same.
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        for (std::size_t j = i + 1; j < inputs.size(); ++j) {
            std::error_code ec;
            if (fs::equivalent(inputs[i], inputs[j], ec) && !ec) {
                return fail(
                    fileError(ErrorCode::InvalidArgument, inputs[j],
                              "the same file as " + inputs[i].string()
                                  + ", given twice: each prof file is one process of the run"));
            }
        }
    }
    for (const auto& input : inputs) {
        const auto format = detectFormat(input);
        if (!format) {
            return fail(format.error());
        }
        if (*format != InputFormat::Fxt) {
            return fail(
                fileError(ErrorCode::InvalidArgument, input,
                      "several inputs must all be FxT prof files (one per process of a run)"));
        }
    }
    return named(withinModel(detail::readFxt(inputs, options), inputs.front()));
}

} // namespace starscope::tracer
