#pragma once
// The native format's bytes: numbers little-endian at their own width, strings as a u32 length
// and their bytes. Writer appends them, Cursor reads them back within bounds. FieldWriter and
// FieldReader walk a record's field list (native_records.hpp) in the one order both directions
// share: the writer writes every field, the reader reads those its file's version has.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>

static_assert(std::endian::native == std::endian::little, "the native format is little-endian");

namespace starscope::tracer::detail::native {

template <typename T>
concept Number = std::is_arithmetic_v<T> || std::is_enum_v<T>;

class Writer {
public:
    // Numbers only: a packed model field (PackedTime) is written as the number it holds.
    template <Number T> void put(T value) { std::memcpy(append(sizeof(T)), &value, sizeof(T)); }
    void str(std::string_view text) {
        put(static_cast<std::uint32_t>(text.size()));
        raw(text.data(), text.size());
    }
    void raw(const void* data, std::size_t size) {
        if (size > 0) {
            std::memcpy(append(size), data, size);
        }
    }
    // The bytes written so far.
    std::string_view bytes() const { return {m_buffer.get(), m_used}; }
    // Forgets them, keeping the room.
    void clear() { m_used = 0; }
    // Forgets those past the first size.
    void truncate(std::size_t size) { m_used = std::min(m_used, size); }

private:
    // Room for size more bytes, in a buffer of its own: through std::string::append, which GCC
    // calls out of line from the field lists with a memcpy call per field, writing a native file
    // took 20 % more instructions, and a std::string grown by resize zeroes its room first.
    char* append(std::size_t size) {
        if (m_capacity - m_used < size) {
            grow(size);
        }
        char* at = m_buffer.get() + m_used;
        m_used += size;
        return at;
    }
    void grow(std::size_t size) {
        m_capacity = std::max(2 * m_capacity, m_used + size + 4096);
        auto larger = std::make_unique_for_overwrite<char[]>(m_capacity);
        if (m_used > 0) {
            std::memcpy(larger.get(), m_buffer.get(), m_used);
        }
        m_buffer = std::move(larger);
    }

    std::unique_ptr<char[]> m_buffer;
    std::size_t m_capacity = 0;
    std::size_t m_used = 0;
};

class Cursor {
public:
    // base: the file offset of data's first byte, for errors.
    Cursor(std::string_view data, std::size_t base) : m_data(data), m_base(base) {}
    template <Number T> bool get(T& value) {
        if (m_data.size() - m_pos < sizeof(T)) {
            return false;
        }
        std::memcpy(&value, m_data.data() + m_pos, sizeof(T));
        m_pos += sizeof(T);
        return true;
    }
    bool str(std::string& text) {
        std::uint32_t size = 0;
        if (!get(size) || m_data.size() - m_pos < size) {
            return false;
        }
        text.assign(m_data.data() + m_pos, size);
        m_pos += size;
        return true;
    }
    bool raw(void* out, std::size_t size) {
        if (size == 0) {
            return true; // out may be the null data() of an empty vector
        }
        if (m_data.size() - m_pos < size) {
            return false;
        }
        std::memcpy(out, m_data.data() + m_pos, size);
        m_pos += size;
        return true;
    }
    // The next size bytes, consumed; nullptr (nothing consumed) when fewer remain.
    const char* take(std::size_t size) {
        if (m_data.size() - m_pos < size) {
            return nullptr;
        }
        const char* at = m_data.data() + m_pos;
        m_pos += size;
        return at;
    }
    // Skips to the next file offset that is a multiple of alignment (the padding the writer put
    // before a column); false when the bytes end first.
    bool align(std::size_t alignment) {
        const std::size_t pad = (alignment - (m_base + m_pos) % alignment) % alignment;
        return take(pad) != nullptr;
    }
    // A count is plausible when that many items of at least minSize bytes could still follow:
    // a damaged count must not make us allocate gigabytes.
    bool count(std::uint64_t& n, std::size_t minSize) {
        return get(n) && n <= (m_data.size() - m_pos) / std::max<std::size_t>(minSize, 1);
    }
    std::uint64_t offset() const { return m_base + m_pos; }
    double fraction() const {
        return static_cast<double>(m_pos)
               / static_cast<double>(std::max<std::size_t>(m_data.size(), 1));
    }

private:
    std::string_view m_data;
    std::size_t m_base;
    std::size_t m_pos = 0;
};

// Writes the fields a record's field list hands it, in that order.
class FieldWriter {
public:
    explicit FieldWriter(Writer& out) : m_out(out) {}
    template <typename... T> void operator()(const T&... fields) { (put(fields), ...); }
    // A field the format has from that version on: always written (files are written at the
    // current version).
    template <typename T> void since(std::uint32_t /*version*/, const T& field) { put(field); }
    // The count of a table's records, before them.
    void count(std::size_t n) { put(static_cast<std::uint64_t>(n)); }

private:
    template <Number T> void put(T value) { m_out.put(value); }
    void put(const std::string& text) { m_out.str(text); }

    Writer& m_out;
};

// Reads the fields a record's field list hands it, in that order, as a file of this version
// holds them; after the first field the bytes do not hold, it reads nothing more (ok() false,
// the cursor at that field).
class FieldReader {
public:
    FieldReader(Cursor& in, std::uint32_t version) : m_in(in), m_version(version) {}
    template <typename... T> void operator()(T&... fields) { (get(fields), ...); }
    // A field the format has from that version on: older files keep the model's default.
    template <typename T> void since(std::uint32_t version, T& field) {
        if (m_version >= version) {
            get(field);
        }
    }
    bool ok() const { return m_ok; }

private:
    template <Number T> void get(T& value) { m_ok = m_ok && m_in.get(value); }
    void get(std::string& text) { m_ok = m_ok && m_in.str(text); }

    Cursor& m_in;
    std::uint32_t m_version;
    bool m_ok = true;
};

} // namespace starscope::tracer::detail::native
