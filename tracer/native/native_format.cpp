#include "tracer/native/native_format.hpp"

// starscope's native trace file: magic, packed version, payload size, payload, checksum. The
// frame is written and checked here; the payload's records are listed once for both directions
// (native_records.hpp), written by native_writer.cpp and read by native_reader.cpp. Upgrades from
// an older version belong in the reader, nowhere else.
//
//   "SSTRACE\0"  u32 version  u32 flags(0)  u64 payloadSize  payload  u64 checksum(payload)
// The checksum is XXH64 (seed 0) from version 5 on, FNV-1a (64 bits) before. Up to version 5
// it is checked before the payload is read; from 6 as it is read (PayloadReader), each step
// while it is in the cache, and a damaged file is still refused as damaged, never half-read. A
// stamped file (verified_files.hpp), whose records are not checked again, still has its
// checksum matched, on a thread of its own while its tables are read (readStamped).
// Integers are little-endian (the only byte order of the machines starscope runs on).

#include "common/file_writer.hpp"
#include "common/fnv1a.hpp"
#include "common/xxhash64.hpp"
#include "common/mapped_file.hpp"
#include "tracer/native/native_payload.hpp"
#include "tracer/native/verified_files.hpp"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <system_error>
#include <thread>

namespace starscope::tracer {

namespace fs = std::filesystem;

namespace {

using namespace detail::native;

constexpr std::uint32_t kOldestReadable = 1;
constexpr std::uint32_t kFirstWithXxHash = 5;

} // namespace

std::uint64_t nativeChecksum(std::string_view payload, std::uint32_t version) {
    return version >= kFirstWithXxHash ? xxhash64(payload) : fnv1a(payload);
}

TraceResult<Done> writeNative(const TraceStream& stream, std::ostream& out) {
    const Payload payload = writePayload(stream);
    Writer header;
    header.raw(kNativeMagic.data(), kNativeMagic.size());
    header.put(kNativeVersion);
    header.put(std::uint32_t{0});
    header.put(payload.size());
    out.write(header.bytes().data(), static_cast<std::streamsize>(header.bytes().size()));
    // Checksummed in steps as they are written, while each step is in the cache.
    constexpr std::size_t kStep = std::size_t{256} << 10;
    XxHash64 checksum;
    const auto problem = payload.write([&](std::string_view piece) {
        for (std::size_t pos = 0; pos < piece.size() && out; pos += kStep) {
            const std::string_view step = piece.substr(pos, kStep);
            checksum.update(step);
            out.write(step.data(), static_cast<std::streamsize>(step.size()));
        }
        return static_cast<bool>(out);
    });
    if (problem) {
        out.setstate(std::ios::badbit);
        return fail(TraceError{ErrorCode::InvalidArgument, "the streamed trace is inconsistent: " + *problem, {}, {}});
    }
    Writer tail;
    tail.put(checksum.digest());
    out.write(tail.bytes().data(), static_cast<std::streamsize>(tail.bytes().size()));
    return Done{};
}

void writeNative(const Trace& trace, std::ostream& out) {
    // A trace's own tables hand over what they hold: never inconsistent.
    [[maybe_unused]] const auto written = writeNative(TraceStream::of(trace), out);
    assert(written);
}

TraceResult<Done> writeNativeFile(const TraceStream& stream, const fs::path& file) {
    std::optional<TraceError> problem;
    auto written = files::writeFile(file, [&stream, &problem](std::ostream& out) {
        if (auto done = writeNative(stream, out); !done) {
            problem = done.error();
        }
    });
    if (problem) {
        problem->file = file.string();
        return fail(std::move(*problem));
    }
    if (!written) {
        return fail(TraceError{ErrorCode::Io, written.error().message, file.string(), {}});
    }
    return Done{};
}

TraceResult<Done> writeNativeFile(const Trace& trace, const fs::path& file) {
    return writeNativeFile(TraceStream::of(trace), file);
}

namespace {

// The payload's checksum in 16 MiB steps, so that a file of many GiB shows progress and can
// be cancelled before it is parsed. nullopt when cancelled.
std::optional<std::uint64_t> checksumOf(const files::MappedFile& map, std::string_view body, std::uint32_t version,
                                        const ReadOptions& options) {
    constexpr std::size_t kStep = std::size_t{16} << 20;
    XxHash64 xxhash;
    std::uint64_t fnv = kFnv1aSeed;
    for (std::size_t pos = 0; pos < body.size(); pos += kStep) {
        if (version >= kFirstWithXxHash) {
            xxhash.update(body.substr(pos, kStep));
        } else {
            fnv = fnv1a(body.substr(pos, kStep), fnv);
        }
        map.release(kHeaderSize + pos, kHeaderSize + std::min(pos + kStep, body.size()));
        if (options.progress
            && !options.progress(0.2 * static_cast<double>(std::min(pos + kStep, body.size()))
                                 / static_cast<double>(body.size()))) {
            return std::nullopt;
        }
    }
    return version >= kFirstWithXxHash ? xxhash.digest() : fnv;
}

// The payload's checksum (XXH64, version 6 on) of a stamped file, made on a thread of its own
// while the tables are read (or, when the caller allows one thread or none can be had, on the
// caller's, before them). A stamp says that the columns passed their checks, not that the bytes
// are still those: storage that changes a file's blocks under the file system keeps the inode,
// size and times a stamp holds, and its figures came out wrong with exit 0 (idleness 95.7 ->
// 26.7 %). Matched before the trace is handed out, every figure any front end shows comes from
// bytes that matched; the pass overlaps the read instead of adding to it.
class PayloadChecksum {
public:
    PayloadChecksum(const files::MappedFile& map, std::string_view body, bool ownThread)
        : m_map(map), m_body(body) {
        if (ownThread) {
            try {
                m_thread = std::thread([this] { run({}); });
            } catch (const std::system_error&) {
                // No thread to be had: wait() hashes on the caller's.
            }
        }
    }
    PayloadChecksum(const PayloadChecksum&) = delete;
    PayloadChecksum& operator=(const PayloadChecksum&) = delete;
    ~PayloadChecksum() {
        m_stop = true;
        if (m_thread.joinable()) {
            m_thread.join();
        }
    }

    bool concurrent() const { return m_thread.joinable(); }
    // The fraction of the payload hashed (0..1).
    double fraction() const {
        return m_body.empty()
                   ? 1.0
                   : static_cast<double>(m_hashed.load()) / static_cast<double>(m_body.size());
    }
    // The digest once every byte is hashed, telling progress (fraction hashed) meanwhile;
    // nullopt when progress cancelled.
    std::optional<std::uint64_t> wait(const std::function<bool(double)>& progress) {
        if (!concurrent()) {
            run(progress);
        }
        std::unique_lock lock(m_lock);
        while (!m_done) {
            m_ended.wait_for(lock, std::chrono::milliseconds(20));
            if (!m_done && progress && !progress(fraction())) {
                m_stop = true;
            }
        }
        return m_digest;
    }

private:
    void run(const std::function<bool(double)>& progress) {
        // A step at a time, its pages let go behind it, as the checked read does: the process
        // holds a step of the file on top of the model, not the whole file.
        constexpr std::size_t kStep = std::size_t{1} << 20;
        XxHash64 hash;
        for (std::size_t pos = 0; pos < m_body.size() && !m_stop; pos += kStep) {
            const std::string_view step = m_body.substr(pos, kStep);
            hash.update(step);
            m_map.release(kHeaderSize + pos, kHeaderSize + pos + step.size());
            m_hashed = pos + step.size();
            if (progress && !progress(fraction())) {
                m_stop = true;
            }
        }
        {
            const std::lock_guard lock(m_lock);
            if (!m_stop) {
                m_digest = hash.digest();
            }
            m_done = true;
        }
        m_ended.notify_all();
    }

    const files::MappedFile& m_map;
    std::string_view m_body;
    std::atomic<bool> m_stop{false};
    std::atomic<std::size_t> m_hashed{0};
    std::mutex m_lock;
    std::condition_variable m_ended;
    bool m_done = false;
    std::optional<std::uint64_t> m_digest;
    std::thread m_thread; // last: started once every member it uses is made
};

// A stamped file (VerifiedFiles): its columns mapped, not one record of them checked, the tables
// around them read as always, and the payload's checksum matched (PayloadChecksum) before the
// trace is handed out. Progress: the mean of the read's and the checksum's fractions.
TraceResult<Trace> readStamped(const fs::path& file, std::string_view body, std::uint32_t version,
                               std::uint64_t checksum, const ReadOptions& options,
                               const std::shared_ptr<const files::MappedFile>& mapping,
                               const PayloadReader::ReleaseBefore& release) {
    PayloadChecksum sum(*mapping, body, options.threads != 1);
    const auto tell = [&options](double read, double hashed) {
        return !options.progress || options.progress((read + hashed) / 2);
    };
    const auto matched = [&](double read) -> std::optional<TraceError> {
        const auto digest = sum.wait([&](double hashed) { return tell(read, hashed); });
        if (!digest) {
            return TraceError{ErrorCode::Cancelled, "reading cancelled", file.string(),
                              kHeaderSize};
        }
        if (*digest != checksum) {
            return TraceError{
                ErrorCode::Corrupt,
                "damaged native trace: checksum mismatch, though the file's size and times are "
                "those it had when it was checked whole: its bytes changed under the file system "
                "(damaged storage); convert the original trace again",
                file.string(), kHeaderSize + body.size()};
        }
        return std::nullopt;
    };
    if (!sum.concurrent()) {
        if (auto problem = matched(0.0)) {
            return fail(std::move(*problem));
        }
    }
    ReadOptions readOptions = options;
    if (options.progress) {
        readOptions.progress = [&](double read) { return tell(read, sum.fraction()); };
    }
    auto trace = PayloadReader(file, body, version, readOptions, mapping, release, std::nullopt,
                               PayloadReader::Columns::Trust)
                     .read();
    // A damaged file is refused as damaged, whichever table its damage reached first.
    if (sum.concurrent() && (trace || trace.error().code != ErrorCode::Cancelled)) {
        if (auto problem = matched(1.0)) {
            return fail(std::move(*problem));
        }
    }
    return trace;
}

} // namespace

TraceResult<Trace> readNative(const fs::path& file, const ReadOptions& options) {
    // Shared with the model, whose columns read the file where it lies (version 6 on).
    const auto mapping = std::make_shared<const files::MappedFile>(file);
    const files::MappedFile& map = *mapping;
    if (!map.error().empty()) {
        return fail(TraceError{ErrorCode::Io, "cannot read: " + map.error(), file.string(), {}});
    }
    const std::string_view data = map.text();
    if (data.size() < kHeaderSize || !std::string_view(data).starts_with(kNativeMagic)) {
        return fail(TraceError{ErrorCode::Format,
                               "not a starscope native trace (bad magic or too short)",
                               file.string(), 0});
    }
    std::uint32_t version = 0;
    std::uint64_t size = 0;
    std::memcpy(&version, data.data() + 8, 4);
    std::memcpy(&size, data.data() + 16, 8);
    if (version > kNativeVersion) {
        return fail(TraceError{ErrorCode::TooNew,
                               "native trace version " + std::to_string(version)
                                   + " is newer than this starscope reads (up to "
                                   + std::to_string(kNativeVersion) + "): update starscope",
                               file.string(), 8});
    }
    if (version < kOldestReadable) {
        return fail(TraceError{ErrorCode::TooOld,
                               "native trace version " + std::to_string(version)
                                   + " is too old (oldest read: " + std::to_string(kOldestReadable)
                                   + "): convert the original trace again",
                               file.string(), 8});
    }
    if (data.size() - kHeaderSize < 8 || size > data.size() - kHeaderSize - 8) {
        return fail(TraceError{
            ErrorCode::Corrupt,
            "truncated native trace: the header announces " + std::to_string(size)
                + " bytes of payload, the file holds "
                + std::to_string(data.size() < kHeaderSize + 8 ? 0 : data.size() - kHeaderSize - 8),
            file.string(), data.size()});
    }
    const std::string_view body(data.data() + kHeaderSize, size);
    std::uint64_t checksum = 0;
    std::memcpy(&checksum, data.data() + kHeaderSize + size, 8);
    const auto release = [&map](std::uint64_t from, std::uint64_t to) { map.release(from, to); };
    const VerifiedFiles verified(options.verifiedFiles);
    const auto identity = map.identity();
    auto trace = [&]() -> TraceResult<Trace> {
        if (version >= kFirstWithColumns) {
            if (identity && verified.holds(*identity, checksum)) {
                return readStamped(file, body, version, checksum, options, mapping, release);
            }
            // Checksummed as it is read, each step while it is in the cache: one pass over the file.
            auto checked = PayloadReader(file, body, version, options, mapping, release, checksum).read();
            // Stamped only when nothing wrote to the file during the checks.
            if (checked && identity && map.identity() == identity) {
                verified.add(*identity, checksum);
            }
            return checked;
        }
        // The checksum pass is the first fifth of the progress, the parse the rest.
        ReadOptions parseOptions;
        if (options.progress) {
            parseOptions.progress = [&options](double f) { return options.progress(0.2 + 0.8 * f); };
        }
        const auto sum = checksumOf(map, body, version, options);
        if (!sum) {
            return fail(
                TraceError{ErrorCode::Cancelled, "reading cancelled", file.string(), kHeaderSize});
        }
        if (checksum != *sum) {
            return fail(checksumMismatch(file, kHeaderSize + size));
        }
        return PayloadReader(file, body, version, parseOptions, mapping, release).read();
    }();
    if (trace && version >= kFirstWithColumns) {
        map.readInAnyOrder();   // the model's columns are the file's
    }
    if (trace && !trace->metadata.contains("format")) {
        trace->metadata["format"] = "native";
    }
    return trace;
}

} // namespace starscope::tracer
