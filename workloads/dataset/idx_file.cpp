#include "workloads/dataset/idx_file.hpp"

#include "common/input_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace starscope::workloads {

namespace {

std::uint32_t readBigEndian32(const std::uint8_t* bytes) {
    return (std::uint32_t{bytes[0]} << 24) | (std::uint32_t{bytes[1]} << 16)
           | (std::uint32_t{bytes[2]} << 8) | std::uint32_t{bytes[3]};
}

std::string hex32(std::uint32_t value) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", value);
    return text;
}

// Closes the descriptor on every path out of open().
struct FdGuard {
    int fd;
    ~FdGuard() {
        if (fd >= 0) {
            ::close(fd);
        }
    }
};

} // namespace

WorkloadResult<IdxFile> IdxFile::open(const std::filesystem::path& path, IdxKind kind) {
    const std::string name = path.string();
    const bool images = kind == IdxKind::Images;
    const std::uint32_t expectedMagic = images ? kIdxImagesMagic : kIdxLabelsMagic;
    const std::size_t headerSize = images ? 16 : 8;
    const char* what = images ? "IDX images file" : "IDX labels file";

    // Before the open, which would block on a FIFO until something writes into it.
    if (const auto why = files::notRegularFile(path)) {
        return workloadError(ErrorCode::Io, *why, name);
    }
    FdGuard guard{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (guard.fd < 0) {
        const int err = errno;
        return workloadError(err == ENOENT ? ErrorCode::MissingDataset : ErrorCode::Io,
                             std::string("cannot open: ") + std::strerror(err), name);
    }
    struct stat info {};
    if (::fstat(guard.fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        return workloadError(ErrorCode::Io, "not a regular file", name);
    }
    const auto fileSize = static_cast<std::uint64_t>(info.st_size);
    // The magic is checked before the header length so that a short file of the other kind
    // is reported as the wrong kind, not as truncated.
    if (fileSize < 4) {
        return workloadError(ErrorCode::Corrupt,
                             "truncated: " + std::to_string(fileSize) + " bytes, shorter than the "
                                 + std::to_string(headerSize) + "-byte header of an " + what,
                             name, fileSize);
    }

    IdxFile file;
    file.m_path = path;
    file.m_kind = kind;
    file.m_mappingSize = static_cast<std::size_t>(fileSize);
    void* mapping = ::mmap(nullptr, file.m_mappingSize, PROT_READ, MAP_PRIVATE, guard.fd, 0);
    if (mapping == MAP_FAILED) {
        return workloadError(ErrorCode::Io, std::string("cannot map: ") + std::strerror(errno),
                             name);
    }
    file.m_mapping = mapping;
    const auto* bytes = static_cast<const std::uint8_t*>(mapping);

    const std::uint32_t magic = readBigEndian32(bytes);
    if (magic != expectedMagic) {
        std::string message = "not an " + std::string(what) + ": magic " + hex32(magic)
                              + ", expected " + hex32(expectedMagic);
        if (magic == (images ? kIdxLabelsMagic : kIdxImagesMagic)) {
            message += images ? " (this is a labels file)" : " (this is an images file)";
        }
        return workloadError(ErrorCode::Format, std::move(message), name, 0);
    }
    if (fileSize < headerSize) {
        return workloadError(ErrorCode::Corrupt,
                             "truncated: " + std::to_string(fileSize) + " bytes, shorter than the "
                                 + std::to_string(headerSize) + "-byte header of an " + what,
                             name, fileSize);
    }

    file.m_count = readBigEndian32(bytes + 4);
    if (images) {
        file.m_rows = readBigEndian32(bytes + 8);
        file.m_cols = readBigEndian32(bytes + 12);
    }
    if (file.m_count == 0 || file.m_rows == 0 || file.m_cols == 0) {
        return workloadError(ErrorCode::Corrupt,
                             "empty dimensions " + std::to_string(file.m_count) + "x"
                                 + std::to_string(file.m_rows) + "x" + std::to_string(file.m_cols),
                             name, 4);
    }
    const std::uint64_t itemSize = std::uint64_t{file.m_rows} * file.m_cols;
    const std::uint64_t expectedSize = headerSize + std::uint64_t{file.m_count} * itemSize;
    if (fileSize != expectedSize) {
        const std::string dims = std::to_string(file.m_count)
                                 + (images ? " images of " + std::to_string(file.m_rows) + "x"
                                                 + std::to_string(file.m_cols)
                                           : std::string(" labels"));
        return workloadError(ErrorCode::Corrupt,
                             (fileSize < expectedSize ? "truncated: " : "trailing bytes: ")
                                 + std::to_string(fileSize) + " bytes, the header announces " + dims
                                 + " = " + std::to_string(expectedSize) + " bytes",
                             name, std::min(fileSize, expectedSize));
    }
    file.m_data = bytes + headerSize;
    file.m_dataSize = static_cast<std::size_t>(expectedSize - headerSize);
    return file;
}

IdxFile::IdxFile(IdxFile&& other) noexcept {
    *this = std::move(other);
}

IdxFile& IdxFile::operator=(IdxFile&& other) noexcept {
    if (this != &other) {
        release();
        m_path = std::move(other.m_path);
        m_kind = other.m_kind;
        m_mapping = std::exchange(other.m_mapping, nullptr);
        m_mappingSize = std::exchange(other.m_mappingSize, 0);
        m_data = std::exchange(other.m_data, nullptr);
        m_dataSize = std::exchange(other.m_dataSize, 0);
        m_count = other.m_count;
        m_rows = other.m_rows;
        m_cols = other.m_cols;
    }
    return *this;
}

IdxFile::~IdxFile() {
    release();
}

void IdxFile::release() {
    if (m_mapping != nullptr) {
        ::munmap(m_mapping, m_mappingSize);
        m_mapping = nullptr;
    }
}

} // namespace starscope::workloads
