#pragma once
// The native format's payload: the model's tables, record by record (native_records.hpp lists
// each record's fields), between the frame that native_format.cpp writes and checks (magic,
// version, size, checksum). The reader checks every record against the model as it goes: an
// index into a table, times in order and within the trace, the limits the model holds.
// Everything downstream indexes the tables with these values, so they are checked here, once,
// for every consumer.

#include "tracer/model/error.hpp"
#include "tracer/model/read_options.hpp"
#include "tracer/model/trace.hpp"
#include "tracer/native/native_codec.hpp"
#include "tracer/native/native_records.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace starscope::tracer::detail::native {

// The frame before the payload: magic, u32 version, u32 flags, u64 payload size.
inline constexpr std::size_t kHeaderSize = 8 + 4 + 4 + 8;

Writer writePayload(const Trace& trace);

class PayloadReader {
public:
    // Told, as the reader goes, the file's bytes [from, to) it is done with (and every byte
    // before).
    using ReleaseBefore = std::function<void(std::uint64_t, std::uint64_t)>;
    // payload: the bytes after the frame's header of file, written at version.
    PayloadReader(const std::filesystem::path& file, std::string_view payload,
                  std::uint32_t version, const ReadOptions& options, ReleaseBefore release = {})
        : m_file(file), m_c(payload, kHeaderSize), m_version(version), m_options(options),
          m_release(std::move(release)) {}
    TraceResult<Trace> read();

private:
    // The tables, in the payload's order (native_reader.cpp, then native_reader_tables.cpp).
    TraceResult<Done> extentAndNames();
    TraceResult<Done> states();
    TraceResult<Done> lanes();
    TraceResult<Done> spans(std::size_t laneIndex, std::size_t level);
    TraceResult<Done> tasks();
    TraceResult<Done> spanTasks();
    TraceResult<Done> markers();
    TraceResult<Done> ranks();
    TraceResult<Done> messages();
    TraceResult<Done> transfers();
    TraceResult<Done> metadataAndWarnings();

    // A record's fields as the file's version holds them; false when the bytes end first.
    template <typename Record> bool get(Record& record) {
        FieldReader in(m_c, m_version);
        fields(in, record);
        return in.ok();
    }
    // A table of records the file keeps as the model does: its count (records of at least
    // minSize bytes each), then each record, which check(index, offset) may refuse with an
    // error.
    template <typename Record, typename Check>
    TraceResult<Done> table(std::vector<Record>& records, std::size_t minSize,
                            const std::string& name, Check check) {
        std::uint64_t n = 0;
        if (!m_c.count(n, minSize)) {
            return fail(corrupt(name));
        }
        records.resize(n);
        for (std::size_t i = 0; i < records.size(); ++i) {
            if (i % kRecordsBetweenReleases == 0) {
                releaseRead();
            }
            const auto at = m_c.offset();
            if (!get(records[i])) {
                return fail(corrupt(name));
            }
            if (std::optional<TraceError> problem = check(i, at)) {
                return fail(std::move(*problem));
            }
        }
        return Done{};
    }
    // How often a long table tells what it has read (a few MiB of records), and the least it
    // tells (one call per record would cost more than the pages).
    static constexpr std::size_t kRecordsBetweenReleases = std::size_t{1} << 16;
    static constexpr std::uint64_t kReleaseStep = std::uint64_t{4} << 20;
    void releaseRead() {
        if (m_release && m_c.offset() >= m_released + kReleaseStep) {
            m_release(m_released, m_c.offset());
            m_released = m_c.offset();
        }
    }
    // A table's bytes end or its record is cut short: what names the table.
    TraceError corrupt(const std::string& what) const;
    // A record whose bytes are whole (the checksum matched) but whose content contradicts the
    // model.
    TraceError inconsistent(std::uint64_t offset, const std::string& record,
                            const std::string& what) const;
    TraceError outOfLanes(std::uint64_t offset, const std::string& record, std::int32_t lane) const;
    TraceError unsupported(std::uint64_t offset, const std::string& what) const;

    const std::filesystem::path& m_file;
    Cursor m_c;
    std::uint32_t m_version;
    const ReadOptions& m_options;
    ReleaseBefore m_release;
    std::uint64_t m_released = 0;   // the file's bytes before this were released
    Trace m_trace;
    // The task each span names, in file order: the model finds a span's task by its lane and
    // times instead, so once the task table is read each must be the one found.
    struct SpanTask {
        std::uint64_t offset;
        TaskIndex task;
    };
    std::vector<SpanTask> m_spanTasks;
    // Task indexes are checked once the task table is read; the largest one named, and where.
    TaskIndex m_badTask = kNoTask;
    std::uint64_t m_badTaskOffset = 0;
    std::string m_badTaskRecord;
};

// How the reader names records in its errors.
std::string laneRecord(std::size_t index, const Lane& lane);
std::string outOfRange(const std::string& what, std::uint64_t value, std::size_t size,
                       const std::string& table);
// A lane index a task, marker or message may hold: -1 (none) or one of the lane table.
bool validLane(std::int32_t lane, std::size_t lanes);

} // namespace starscope::tracer::detail::native
