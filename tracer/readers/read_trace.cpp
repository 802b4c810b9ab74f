#include "tracer/readers/read_trace.hpp"

#include "tracer/native/native_format.hpp"
#include "tracer/readers/fxt/fxt_reader.hpp"
#include "tracer/readers/paje/paje_reader.hpp"
#include "tracer/run/run_record.hpp"

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
    return fileError(ErrorCode::Io, folder, "no prof_file_* in this folder (is it a run folder?)");
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
        const auto files = findProfFiles(input);
        if (files.empty()) {
            return fail(noProfFiles(input));
        }
        return detail::readRunFolder(input, files, options, readProfFiles);
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

} // namespace

TraceResult<Trace> readTrace(const fs::path& input, const ReadOptions& options) {
    return withinModel(readOne(input, options), input);
}

TraceResult<Trace> readTrace(const std::vector<fs::path>& inputs, const ReadOptions& options) {
    if (inputs.empty()) {
        return fail(TraceError{ErrorCode::InvalidArgument, "no trace to read", {}, {}});
    }
    if (inputs.size() == 1) {
        return readTrace(inputs.front(), options);
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
    return withinModel(detail::readFxt(inputs, options), inputs.front());
}

} // namespace starscope::tracer
