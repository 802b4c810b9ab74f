#pragma once
// A file read front to back through a buffer of its own (pread), for a parser that walks it once:
// the window holds a stretch of the file and slides forward on request.
//
// Why not MappedFile for such a walk: mapping a file costs a page-table entry per 4 KB page, set
// up as the pages are faulted or populated, torn down again at munmap or MADV_DONTNEED, and a
// first read of each page from memory. Copying it into a buffer that stays in the cache costs
// less: `stats` of an 18.9 MB prof file spent a quarter of its time in madvise and munmap of the
// mapping. The buffer is all the process holds of the file, whatever its size.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace starscope::files {

class FileWindow {
public:
    // 128 KB: the FxT walk of an 18.9 MB prof file through 64 KB to 1 MB buffers took 2.7 to
    // 2.9 ms at best (15 alternating runs each), against 4.2 ms through the mapping; the buffer
    // stays in the cache while the caller parses it, and costs 32 page faults.
    static constexpr std::size_t kDefaultCapacity = std::size_t{128} << 10;

    // capacity: the buffer, of which slide() asks for at most capacity - 8 bytes at a time.
    explicit FileWindow(const std::filesystem::path& file, std::size_t capacity = kDefaultCapacity);
    ~FileWindow();
    FileWindow(const FileWindow&) = delete;
    FileWindow& operator=(const FileWindow&) = delete;

    // Empty while the file reads; otherwise why it could not be opened or read.
    const std::string& error() const { return m_error; }
    // The file's size: as opened, or where a read found it ended (a file cut while read).
    std::uint64_t size() const { return m_size; }

    // The window: bytes [base(), end()) of the file at data(); empty until the first slide().
    const unsigned char* data() const { return m_data; }
    std::uint64_t base() const { return m_base; }
    std::uint64_t end() const { return m_end; }
    bool holds(std::uint64_t from, std::uint64_t to) const { return from >= m_base && to <= m_end; }

    // Moves the window to start at `keep`, at or after base(), keeping what it holds from there,
    // and fills it from the file as far as it goes. The byte at file offset `aligned` lands on an
    // address aligned to 8 bytes (a record's u64 fields read in place). Returns whether the
    // window now holds [keep, to) or the file ends first (end() == size()); false, with error(),
    // when a read failed. to - keep must not exceed capacity - 8.
    bool slide(std::uint64_t keep, std::uint64_t to, std::uint64_t aligned);

private:
    int m_fd = -1;
    std::size_t m_capacity = 0;
    std::unique_ptr<std::uint64_t[]> m_buffer;
    const unsigned char* m_data = nullptr;
    std::uint64_t m_base = 0;
    std::uint64_t m_end = 0;
    std::uint64_t m_size = 0;
    std::string m_error;
};

} // namespace starscope::files
