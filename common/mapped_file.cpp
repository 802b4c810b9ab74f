#include "common/mapped_file.hpp"

#include "common/input_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace starscope::files {

MappedFile::MappedFile(const std::filesystem::path& file) {
    auto opened = openRegularFile(file);
    if (opened.fd < 0) {
        m_error = std::move(opened.error);
        return;
    }
    m_fd = opened.fd;
    m_size = static_cast<std::size_t>(opened.size);
    if (m_size == 0) {
        return;   // mmap refuses a zero length; an empty view is the right answer
    }
    void* data = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, m_fd, 0);
    if (data == MAP_FAILED) {
        m_error = std::strerror(errno);
        m_size = 0;
        return;
    }
    // Every reader walks its file front to back once (a model that keeps a native file mapped
    // then reads it in any order: readInAnyOrder).
    ::madvise(data, m_size, MADV_SEQUENTIAL);
    m_data = static_cast<const unsigned char*>(data);
}

void MappedFile::release(std::size_t from, std::size_t to) const {
    static const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t first = from / page * page;
    const std::size_t end = std::min(to, m_size) / page * page;
    if (m_data == nullptr || end <= first) {
        return;
    }
    // Advice only (the mapping is private and never written: its pages are the file's): when it
    // fails the pages stay, as they did before.
    (void)::madvise(const_cast<unsigned char*>(m_data) + first, end - first, MADV_DONTNEED);
}

void MappedFile::releaseWithin(const void* begin, std::size_t bytes) const {
    const auto at = reinterpret_cast<std::uintptr_t>(begin);
    const auto base = reinterpret_cast<std::uintptr_t>(m_data);
    if (m_data == nullptr || at < base || at - base > m_size || bytes > m_size - (at - base)) {
        return;
    }
    static const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t from = at - base;
    // Whole pages only: the pages at either end may hold records another pass is reading.
    release((from + page - 1) / page * page, from + bytes);
}

void MappedFile::readInAnyOrder() const {
    if (m_data != nullptr) {
        (void)::madvise(const_cast<unsigned char*>(m_data), m_size, MADV_NORMAL);   // advice only
    }
}

std::optional<FileIdentity> MappedFile::identity() const {
    struct stat info {};
    if (m_fd < 0 || ::fstat(m_fd, &info) != 0) {
        return std::nullopt;
    }
    constexpr std::int64_t kNs = 1'000'000'000;
    return FileIdentity{static_cast<std::uint64_t>(info.st_dev), static_cast<std::uint64_t>(info.st_ino),
                        static_cast<std::uint64_t>(info.st_size),
                        static_cast<std::int64_t>(info.st_mtim.tv_sec) * kNs + info.st_mtim.tv_nsec,
                        static_cast<std::int64_t>(info.st_ctim.tv_sec) * kNs + info.st_ctim.tv_nsec};
}

MappedFile::~MappedFile() {
    if (m_data != nullptr) {
        ::munmap(const_cast<unsigned char*>(m_data), m_size);
    }
    if (m_fd >= 0) {
        ::close(m_fd);
    }
}

} // namespace starscope::files
