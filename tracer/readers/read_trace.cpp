#include "tracer/readers/read_trace.hpp"

#include "common/fnv1a.hpp"
#include "common/input_file.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string_view>

namespace starscope::tracer {

namespace fs = std::filesystem;

namespace {

TraceError error(ErrorCode code, const fs::path& file, std::string message,
                 std::optional<std::uint64_t> offset = std::nullopt) {
    return TraceError{code, std::move(message), file.string(), offset};
}

bool looksLikePaje(std::string_view head) {
    // A Paje file starts with its event definitions ("%EventDef ..."), maybe after comments.
    std::size_t pos = 0;
    while (pos < head.size()) {
        const auto eol = head.find('\n', pos);
        auto line = head.substr(pos, eol == std::string_view::npos ? head.size() - pos : eol - pos);
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t' || line.front() == '\r')) {
            line.remove_prefix(1);
        }
        if (!line.empty() && line.front() != '#') {
            return line.starts_with("%EventDef") || line.starts_with("% EventDef");
        }
        if (eol == std::string_view::npos) {
            break;
        }
        pos = eol + 1;
    }
    return false;
}

// What a run folder's cache was made from, one record per prof file. A cache is the run's
// trace only while every record matches the folder: a newer modification time alone does not
// tell a cache copied from another run, or a prof file rewritten with its old time, apart.
struct ProfFileStamp {
    std::string name;
    std::uintmax_t size = 0;
    std::int64_t mtimeNs = 0;         // since the file clock's epoch
    std::uint64_t headChecksum = 0;   // FNV-1a of the first 64 KiB

    bool operator==(const ProfFileStamp&) const = default;
};

constexpr std::size_t kStampedHead = 64 * 1024;

std::optional<ProfFileStamp> stampOf(const fs::path& file) {
    std::error_code ec;
    ProfFileStamp stamp;
    stamp.name = file.filename().string();
    stamp.size = fs::file_size(file, ec);
    if (ec) {
        return std::nullopt;
    }
    const auto time = fs::last_write_time(file, ec);
    if (ec) {
        return std::nullopt;
    }
    stamp.mtimeNs = std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count();
    std::ifstream in(file, std::ios::binary);
    std::string head(kStampedHead, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    if (in.bad()) {
        return std::nullopt;
    }
    head.resize(static_cast<std::size_t>(in.gcount()));
    stamp.headChecksum = fnv1a(head);
    return stamp;
}

// One line per file: name, size, mtime, checksum, tab-separated (names never hold a tab:
// they all start with prof_file_ and come from StarPU).
std::string formatStamps(const std::vector<ProfFileStamp>& stamps) {
    std::string out;
    for (const auto& s : stamps) {
        char checksum[17];
        std::snprintf(checksum, sizeof checksum, "%016llx", static_cast<unsigned long long>(s.headChecksum));
        out += s.name + '\t' + std::to_string(s.size) + '\t' + std::to_string(s.mtimeNs) + '\t' + checksum + '\n';
    }
    return out;
}

std::vector<ProfFileStamp> parseStamps(const std::string& text) {
    std::vector<ProfFileStamp> stamps;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        ProfFileStamp s;
        std::string checksum;
        if (std::getline(fields, s.name, '\t') && fields >> s.size >> s.mtimeNs >> checksum) {
            s.headChecksum = std::strtoull(checksum.c_str(), nullptr, 16);
            stamps.push_back(std::move(s));
        }
    }
    return stamps;
}

// Why a cache made from `recorded` is not the trace of prof files `current`; nullopt when it is.
std::optional<std::string> cacheMismatch(const Trace& cached, const std::vector<ProfFileStamp>& current) {
    const auto it = cached.metadata.find(std::string(kRunSourcesMetadata));
    if (it == cached.metadata.end()) {
        return "it does not record which prof files it was made from (written by an older starscope, or not "
               "from this run folder)";
    }
    const auto recorded = parseStamps(it->second);
    for (const auto& now : current) {
        const auto was = std::find_if(recorded.begin(), recorded.end(),
                                      [&](const ProfFileStamp& r) { return r.name == now.name; });
        if (was == recorded.end()) {
            return "it was made without " + now.name;
        }
        if (was->size != now.size) {
            return "it was made from a " + now.name + " of " + std::to_string(was->size) + " bytes, this one has "
                   + std::to_string(now.size);
        }
        if (was->headChecksum != now.headChecksum) {
            return "it was made from another " + now.name + " (its first 64 KiB differ)";
        }
        if (was->mtimeNs != now.mtimeNs) {
            return now.name + " was modified after it was made";
        }
    }
    if (recorded.size() != current.size()) {
        return "it was made from " + std::to_string(recorded.size()) + " prof files, the folder holds "
               + std::to_string(current.size());
    }
    return std::nullopt;
}

TraceResult<Trace> readRunFolder(const fs::path& folder, const std::vector<fs::path>& files,
                                 const ReadOptions& options) {
    std::vector<ProfFileStamp> stamps;
    for (const auto& file : files) {
        auto stamp = stampOf(file);
        if (!stamp) {
            return fail(error(ErrorCode::Io, file, "cannot read"));
        }
        stamps.push_back(std::move(*stamp));
    }
    // `starscope convert RUN` caches the model as RUN/trace.sstrace: use it while it was made
    // from exactly these prof files; otherwise say why it was not, and rebuild it.
    const auto cache = folder / "trace.sstrace";
    std::error_code ec;
    const bool cacheExists = fs::exists(fs::symlink_status(cache, ec));
    std::optional<std::string> notUsed;
    bool rebuild = false;
    if (cacheExists) {
        if (const auto why = files::notRegularFile(cache)) {
            notUsed = *why;   // not ours to replace
        } else if (auto cached = readNative(cache, options); !cached) {
            notUsed = cached.error().describe();
            rebuild = true;
        } else if (const auto mismatch = cacheMismatch(*cached, stamps)) {
            notUsed = *mismatch;
            rebuild = true;
        } else {
            cached->metadata["cache"] = cache.string();
            return cached;
        }
    }
    auto trace = readFxt(files, options);
    if (!trace) {
        return trace;
    }
    trace->metadata[std::string(kRunSourcesMetadata)] = formatStamps(stamps);
    if (!notUsed) {
        return trace;
    }
    std::string note = cache.string() + " not used: " + *notUsed + "; read from the prof files";
    if (rebuild) {
        // Written before the note is added: the note is about the old cache, not the new one.
        const auto written = writeNativeFile(*trace, cache);
        note += written ? " and rebuilt" : " (not rebuilt: " + written.error().message + ")";
    }
    trace->warnings.push_back(std::move(note));
    return trace;
}

} // namespace

std::vector<fs::path> findProfFiles(const fs::path& folder) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().filename().string().starts_with("prof_file_") && it->is_regular_file(ec)) {
            files.push_back(it->path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

TraceResult<InputFormat> detectFormat(const fs::path& input) {
    std::error_code ec;
    const auto status = fs::status(input, ec);
    if (ec || !fs::exists(status)) {
        return fail(error(ErrorCode::Io, input, "no such file or folder"));
    }
    if (fs::is_directory(status)) {
        return InputFormat::RunFolder;
    }
    // Every input passes here before any reader opens it: a FIFO would block the open.
    if (const auto why = files::notRegularFile(input)) {
        return fail(error(ErrorCode::Io, input, *why));
    }
    std::ifstream in(input, std::ios::binary);
    if (!in) {
        return fail(error(ErrorCode::Io, input, "cannot open for reading"));
    }
    std::string head(4096, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    if (head.empty()) {
        return fail(error(ErrorCode::Format, input, "empty file: not a trace", 0));
    }
    if (head.starts_with(kNativeMagic)) {
        return InputFormat::Native;
    }
    if (looksLikePaje(head)) {
        return InputFormat::Paje;
    }
    // FxT files are binary from their first bytes on; text that is not Paje is not a trace.
    const bool binary = std::any_of(head.begin(), head.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u == 0 || (u < 0x20 && c != '\n' && c != '\r' && c != '\t');
    });
    if (binary) {
        return InputFormat::Fxt;
    }
    return fail(error(ErrorCode::Format, input,
                      "not a trace: neither an FxT prof file, a Paje trace (no %EventDef header) "
                      "nor a starscope native file",
                      0));
}

namespace {

// The model packs span times in 48 bits and state ids in 15 (Span), lanes and ranks in 16 (Task,
// MarkerEvent): a longer trace, or one with more states, lanes or ranks, is refused here rather
// than shown with wrapped times or lost lanes.
TraceResult<Trace> withinModel(TraceResult<Trace> trace, const fs::path& input) {
    if (!trace) {
        return trace;
    }
    if (trace->end > kMaxTraceTime) {
        return fail(error(ErrorCode::Unsupported, input,
                          "the trace lasts " + std::to_string(trace->end / 1'000'000'000) + " s, longer than the "
                              + std::to_string(kMaxTraceTime / 1'000'000'000)
                              + " s (about 39 hours) starscope's model holds"));
    }
    if (trace->states.size() > kMaxStates) {
        return fail(error(ErrorCode::Unsupported, input,
                          "the trace has " + std::to_string(trace->states.size()) + " distinct states, more than the "
                              + std::to_string(kMaxStates) + " starscope's model holds"));
    }
    // Tasks and markers name their lane and rank in 16 bits.
    if (trace->lanes.size() > kMaxLanes) {
        return fail(error(ErrorCode::Unsupported, input,
                          "the trace has " + std::to_string(trace->lanes.size()) + " threads, more than the "
                              + std::to_string(kMaxLanes) + " starscope's model holds"));
    }
    if (!trace->ranks.empty() && trace->ranks.back().rank > kMaxRank) {
        return fail(error(ErrorCode::Unsupported, input,
                          "the trace has a process of rank " + std::to_string(trace->ranks.back().rank)
                              + ", beyond the rank " + std::to_string(kMaxRank) + " starscope's model holds"));
    }
    return trace;
}

} // namespace

TraceResult<Trace> readTrace(const fs::path& input, const ReadOptions& options) {
    const auto format = detectFormat(input);
    if (!format) {
        return fail(format.error());
    }
    switch (*format) {
    case InputFormat::RunFolder: {
        const auto files = findProfFiles(input);
        if (files.empty()) {
            return fail(error(ErrorCode::Io, input, "no prof_file_* in this folder (is it a run folder?)"));
        }
        return withinModel(readRunFolder(input, files, options), input);
    }
    case InputFormat::Fxt: return withinModel(readFxt({input}, options), input);
    case InputFormat::Paje: return withinModel(readPaje(input, options), input);
    case InputFormat::Native: return readNative(input, options);
    }
    return fail(error(ErrorCode::Format, input, "unknown input format"));
}

} // namespace starscope::tracer
