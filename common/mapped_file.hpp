#pragma once
// A read-only view of a whole file through mmap: readers parse traces of any size in place,
// without a heap copy, so a trace of many GiB costs page cache, not the process's memory.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace starscope::files {

// Which file, in which state: the same device, inode, size and modification and change times.
// Any write to a file moves its change time, which no user can set back, so two equal
// identities taken at different moments name the same bytes.
struct FileIdentity {
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    std::uint64_t size = 0;
    std::int64_t modifiedNs = 0;
    std::int64_t changedNs = 0;
    bool operator==(const FileIdentity&) const = default;
};

class MappedFile {
public:
    explicit MappedFile(const std::filesystem::path& file);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    // Empty when the file was mapped (or is empty); otherwise why it could not be.
    const std::string& error() const { return m_error; }
    const unsigned char* data() const { return m_data; }
    std::size_t size() const { return m_size; }
    std::string_view text() const { return {reinterpret_cast<const char*>(m_data), m_size}; }

    // The reader is done with the bytes of [from, to) and every byte before: the pages they
    // fill (the one holding `from` included, the one holding `to` not) leave this process's
    // memory. The page cache keeps them, and a later read maps them again. A file read front to
    // back, a step at a time, then holds a step of it in the process, not the whole file on top
    // of the model built from it (5 GB for a 100 M-span native trace).
    void release(std::size_t from, std::size_t to) const;
    // A pass over [begin, begin + bytes), bytes of this mapping, is done with them for now: the
    // whole pages among them leave this process's memory (the page cache keeps them, and the
    // next read maps them again, a minor fault while the cache holds them). Nothing outside the
    // mapping is ever touched.
    void releaseWithin(const void* begin, std::size_t bytes) const;
    // The reader is done walking the file front to back: what it keeps mapped (a model's
    // columns) is read in any order from now on, and its pages are to age as any others do.
    void readInAnyOrder() const;
    // The identity of the file mapped (of its open descriptor: a file renamed over the path
    // since is not it), now; nullopt when none is open or fstat fails.
    std::optional<FileIdentity> identity() const;

private:
    int m_fd = -1;
    const unsigned char* m_data = nullptr;
    std::size_t m_size = 0;
    std::string m_error;
};

} // namespace starscope::files
