#pragma once
// The native format's payload: the model's tables, record by record (native_records.hpp lists
// each record's fields), between the frame that native_format.cpp writes and checks (magic,
// version, size, checksum). The reader checks every record against the model as it goes: an
// index into a table, times in order and within the trace, the limits the model holds.
// Everything downstream indexes the tables with these values, so they are checked here, once,
// for every consumer.

#include "common/xxhash64.hpp"
#include "tracer/model/error.hpp"
#include "tracer/model/read_options.hpp"
#include "tracer/model/trace.hpp"
#include "tracer/native/native_codec.hpp"
#include "tracer/native/native_records.hpp"
#include "tracer/native/native_stream.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace starscope::tracer::detail::native {

// The frame before the payload: magic, u32 version, u32 flags, u64 payload size.
inline constexpr std::size_t kHeaderSize = 8 + 4 + 4 + 8;

// Version 6's columns start at file offsets that are multiples of this (the writer pads before
// them), so that the mapped file's records lie where the model's types may be read.
inline constexpr std::size_t kColumnAlignment = 8;

// The payload as the writer hands it out: the bytes it encoded (the records of
// native_records.hpp) and, between them, pieces made as they are written: the big tables'
// columns (spans, tasks, dependencies), of a trace in memory handed from where they lie, never
// copied (a trace of 100 M spans is written without a second copy of its 3.5 GB), of a streamed
// one as they are made; and the tables of records too many to hold encoded (markers, messages:
// 13 M of them in a job of 1 G spans), encoded in steps as they are written, their size counted
// first by encoding them once into nothing (tables of up to 64 MiB are encoded once, in place).
class Payload {
public:
    // Takes some bytes; false once the rest is not wanted (the file failed).
    using EmitBytes = std::function<bool(std::string_view)>;

    // Where the next encoded records go.
    FieldWriter out() { return FieldWriter(encoded()); }
    // A column: its count, zeros up to the next kColumnAlignment of the file, its records' bytes.
    template <typename T> void column(std::string name, const StreamedColumn<T>& records);
    // A table: its count, then each record as encode(FieldWriter&, record) writes it.
    template <typename T, typename Encode>
    void table(std::string name, const StreamedColumn<T>& records, Encode encode);
    std::uint64_t size() const;
    // Hands the payload's bytes to emit in file order, and makes no piece after emit said no;
    // valid while the payload and the stream it was made from are. What is wrong when a column
    // handed another count of records than it announced: the bytes handed are then not the
    // payload.
    std::optional<std::string> write(const EmitBytes& emit) const;

private:
    Writer& encoded();

    std::deque<Writer> m_encoded;   // a deque: its writers stay where they are as it grows
    struct Piece {
        const Writer* encoded = nullptr;   // or, when null, made by produce
        std::uint64_t size = 0;
        std::function<void(const EmitBytes&)> produce;
        std::string name;
    };
    std::vector<Piece> m_pieces;
    std::optional<std::string> m_problem;   // a table that counted other records than announced
};

Payload writePayload(const TraceStream& stream);

class PayloadReader {
public:
    // Told, as the reader goes, the file's bytes [from, to) it is done with (and every byte
    // before).
    using ReleaseBefore = std::function<void(std::uint64_t, std::uint64_t)>;
    // payload: the bytes after the frame's header of file, written at version, in memory that
    // mapping holds (the mapped file), which the model's columns keep while they view it.
    // checksum: the one the frame ends with, when the payload is checksummed as it is read
    // (version 6 on, kFirstWithColumns); nullopt when it was checked before, or need not be.
    // columns: Trust for a file already checked whole (VerifiedFiles): its columns are mapped
    // and not one record of them is read; the tables around them are read as always.
    enum class Columns : bool { Check, Trust };
    PayloadReader(const std::filesystem::path& file, std::string_view payload, std::uint32_t version,
                  const ReadOptions& options, std::shared_ptr<const files::MappedFile> mapping, ReleaseBefore release = {},
                  std::optional<std::uint64_t> checksum = std::nullopt, Columns columns = Columns::Check)
        : m_file(file), m_payload(payload), m_c(payload, kHeaderSize), m_version(version),
          m_options(options), m_mapping(std::move(mapping)), m_release(std::move(release)), m_checksum(checksum),
          m_columnsChecked(columns == Columns::Check) {}
    TraceResult<Trace> read();

private:
    // The tables, in the payload's order (native_reader.cpp, then native_reader_tables.cpp).
    TraceResult<Done> extentAndNames();
    TraceResult<Done> states();
    TraceResult<Done> lanes();
    TraceResult<Done> spans(std::size_t laneIndex, std::size_t level);
    TraceResult<Done> tasks();
    TraceResult<Done> spanTasks();
    // Version 6's tables (native_reader_columns.cpp).
    TraceResult<Done> codeletKeys();
    TraceResult<Done> spanColumn(std::size_t laneIndex, std::size_t level);
    TraceResult<Done> taskColumns();
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
    // A column (version 6 on): its count (a record of sizeof(Record) bytes each), the padding,
    // then its records, which the tables around it are read past. readColumns later makes records
    // the mapped file's (Column::mapped: read in place, never copied) and hands each step of them
    // to check(first, count, offset of the first). The count of records, or the error of a cut
    // table.
    template <typename Record, typename Check>
    TraceResult<std::uint64_t> column(Column<Record>& records, const std::string& name, Check check) {
        std::uint64_t n = 0;
        if (!m_c.count(n, sizeof(Record)) || !m_c.align(kColumnAlignment)) {
            return fail(corrupt(name));
        }
        const std::uint64_t at = m_c.offset();
        const char* bytes = m_c.take(n * sizeof(Record));
        if (bytes == nullptr) {
            return fail(corrupt(name));
        }
        // The mapping starts on a page and the column on a multiple of kColumnAlignment: its
        // records lie where the model's type may be read (the writer padded before them).
        const auto* from = reinterpret_cast<const Record*>(bytes);
        m_columns.push_back(ColumnJob{at, n * sizeof(Record), [this, &records, from, n, at, check](const StepDone& done) {
            records = Column<Record>::mapped({from, n}, m_mapping);
            if (!m_columnsChecked) {
                return std::optional<TraceError>{};
            }
            constexpr std::size_t kStep = kColumnStep / sizeof(Record);
            for (std::size_t first = 0; first < n; first += kStep) {
                const std::size_t count = std::min<std::size_t>(kStep, n - first);
                const std::uint64_t stepAt = at + first * sizeof(Record);
                std::optional<TraceError> problem = check(first, count, stepAt);
                if (!problem) {
                    problem = done(stepAt, count * sizeof(Record));
                }
                if (problem) {
                    return problem;
                }
            }
            return std::optional<TraceError>{};
        }});
        return n;
    }
    // What a column's job tells after each step: where its bytes lie in the file; an error when
    // the read is to stop (cancelled).
    using StepDone = std::function<std::optional<TraceError>(std::uint64_t at, std::size_t size)>;
    struct ColumnJob {
        std::uint64_t at = 0;      // the file offset of its first record
        std::uint64_t bytes = 0;
        std::function<std::optional<TraceError>(const StepDone&)> run;
    };
    static constexpr std::size_t kColumnStep = std::size_t{256} << 10;
    // Runs the columns' jobs once every table around them is read: one thread checks them in
    // file order and checksums each step while it is in the cache; several (the caller's
    // threads, or as many as cores from 64 MiB of columns on) share the jobs, and one of them
    // checksums the payload from the file. The error of the column first in the file.
    TraceResult<Done> readColumns();
    TraceResult<Done> readColumnsInOrder();
    TraceResult<Done> readColumnsAtOnce(unsigned threads, std::uint64_t total);   // total: the columns' bytes
    // What is checked of the columns once all are read: the dependency table's end; then each
    // lane's task index is built.
    TraceResult<Done> columnsRead();
    // The whole payload's checksum against the frame's: the rest hashed from the file (or the
    // digest readColumnsAtOnce computed).
    TraceResult<bool> checksumMatches();
    // How far into the payload a file offset is, as the progress tells it (0..1).
    double fractionAt(std::uint64_t offset) const;
    // A table's bytes end or its record is cut short: what names the table.
    TraceError corrupt(const std::string& what) const;
    // A record whose bytes are whole (the checksum matched) but whose content contradicts the
    // model.
    TraceError inconsistent(std::uint64_t offset, const std::string& record,
                            const std::string& what) const;
    TraceError outOfLanes(std::uint64_t offset, const std::string& record, std::int32_t lane) const;
    TraceError unsupported(std::uint64_t offset, const std::string& what) const;

    const std::filesystem::path& m_file;
    std::string_view m_payload;
    Cursor m_c;
    std::uint32_t m_version;
    const ReadOptions& m_options;
    std::shared_ptr<const files::MappedFile> m_mapping;
    ReleaseBefore m_release;
    std::uint64_t m_released = 0;   // the file's bytes before this were released
    std::optional<std::uint64_t> m_checksum;
    bool m_columnsChecked = true;
    XxHash64 m_hash;
    std::uint64_t m_hashed = kHeaderSize;   // the file's bytes before this were checksummed
    std::optional<std::uint64_t> m_digest;  // the payload's, when computed whole
    std::vector<ColumnJob> m_columns;
    std::uint64_t m_dependenciesAt = 0;     // the file offset of the dependency table
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

// The error of a payload whose checksum is not the one its frame holds (at offset).
TraceError checksumMismatch(const std::filesystem::path& file, std::uint64_t offset);

// How the reader names records in its errors.
std::string laneRecord(std::size_t index, const Lane& lane);
std::string outOfRange(const std::string& what, std::uint64_t value, std::size_t size,
                       const std::string& table);
// A lane index a task, marker or message may hold: -1 (none) or one of the lane table.
bool validLane(std::int32_t lane, std::size_t lanes);

} // namespace starscope::tracer::detail::native
