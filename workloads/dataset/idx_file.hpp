#pragma once
// Read-only, memory-mapped IDX files (the MNIST / Fashion-MNIST format): a big-endian header
// (magic 0x00000803 for images with 3 dimensions, 0x00000801 for labels with 1) followed by
// unsigned bytes. Opening validates magic, dimensions and the exact file size, so a view
// handed to the runtime never reads past the mapping.

#include "workloads/error.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace starscope::workloads {

enum class IdxKind : std::uint8_t { Images, Labels };

inline constexpr std::uint32_t kIdxImagesMagic = 0x00000803;
inline constexpr std::uint32_t kIdxLabelsMagic = 0x00000801;

class IdxFile {
public:
    static WorkloadResult<IdxFile> open(const std::filesystem::path& path, IdxKind kind);

    IdxFile(IdxFile&& other) noexcept;
    IdxFile& operator=(IdxFile&& other) noexcept;
    IdxFile(const IdxFile&) = delete;
    IdxFile& operator=(const IdxFile&) = delete;
    ~IdxFile();

    IdxKind kind() const { return m_kind; }
    const std::filesystem::path& path() const { return m_path; }
    std::uint32_t count() const { return m_count; }
    // 1 for label files.
    std::uint32_t rows() const { return m_rows; }
    std::uint32_t cols() const { return m_cols; }
    // The items after the header: count * rows * cols bytes.
    const std::uint8_t* data() const { return m_data; }
    std::size_t dataSize() const { return m_dataSize; }

private:
    IdxFile() = default;
    void release();

    std::filesystem::path m_path;
    IdxKind m_kind = IdxKind::Images;
    void* m_mapping = nullptr;
    std::size_t m_mappingSize = 0;
    const std::uint8_t* m_data = nullptr;
    std::size_t m_dataSize = 0;
    std::uint32_t m_count = 0;
    std::uint32_t m_rows = 1;
    std::uint32_t m_cols = 1;
};

} // namespace starscope::workloads
