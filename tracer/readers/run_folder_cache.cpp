#include "tracer/readers/run_folder_cache.hpp"

#include "common/fnv1a.hpp"
#include "common/input_file.hpp"
#include "tracer/native/native_format.hpp"
#include "tracer/run_folder/run_folder.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace starscope::tracer {

namespace fs = std::filesystem;

namespace {

// What a run folder's cache was made from, one record per prof file. A cache is the run's
// trace only while every record matches the folder: a newer modification time alone does not
// tell a cache copied from another run, or a prof file rewritten with its old time, apart.
struct ProfFileStamp {
    std::string name;
    std::uintmax_t size = 0;
    std::int64_t mtimeNs = 0;       // since the file clock's epoch
    std::uint64_t headChecksum = 0; // FNV-1a of the first 64 KiB

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
    stamp.mtimeNs =
        std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count();
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
        std::snprintf(checksum, sizeof checksum, "%016llx",
                      static_cast<unsigned long long>(s.headChecksum));
        out += s.name + '\t' + std::to_string(s.size) + '\t' + std::to_string(s.mtimeNs) + '\t'
               + checksum + '\n';
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
std::optional<std::string> cacheMismatch(const Trace& cached,
                                         const std::vector<ProfFileStamp>& current) {
    const auto it = cached.metadata.find(std::string(kRunSourcesMetadata));
    if (it == cached.metadata.end()) {
        return "it does not record which prof files it was made from (written by an older "
               "starscope, or not "
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
            return "it was made from a " + now.name + " of " + std::to_string(was->size)
                   + " bytes, this one has " + std::to_string(now.size);
        }
        if (was->headChecksum != now.headChecksum) {
            return "it was made from another " + now.name + " (its first 64 KiB differ)";
        }
        if (was->mtimeNs != now.mtimeNs) {
            return now.name + " was modified after it was made";
        }
    }
    if (recorded.size() != current.size()) {
        return "it was made from " + std::to_string(recorded.size())
               + " prof files, the folder holds " + std::to_string(current.size());
    }
    return std::nullopt;
}

} // namespace

TraceResult<Trace> detail::readRunFolder(const fs::path& folder, const std::vector<fs::path>& files,
                                         const ReadOptions& options,
                                         const ProfFileReader& readProfFiles) {
    std::vector<ProfFileStamp> stamps;
    for (const auto& file : files) {
        auto stamp = stampOf(file);
        if (!stamp) {
            return fail(fileError(ErrorCode::Io, file, "cannot read"));
        }
        stamps.push_back(std::move(*stamp));
    }
    // `starscope convert RUN` caches the model as RUN/trace.sstrace: use it while it was made
    // from exactly these prof files; otherwise say why it was not, and rebuild it.
    const auto cache = run::RunFolder(folder).nativeCache();
    std::error_code ec;
    const bool cacheExists = fs::exists(fs::symlink_status(cache, ec));
    std::optional<std::string> notUsed;
    bool rebuild = false;
    if (cacheExists) {
        if (const auto why = files::notRegularFile(cache)) {
            notUsed = *why; // not ours to replace
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
    auto trace = readProfFiles(files);
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

} // namespace starscope::tracer
