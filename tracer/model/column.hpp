#pragma once
// One of the model's big tables (a level's spans, the tasks, the dependency table): records that
// either belong to the model, in a std::vector the readers fill, or lie in a native file the
// model keeps mapped (readNative, version 6 on), read where they lie. A 100 M-span job read in
// place costs page cache, which the kernel takes back under pressure, instead of 3.5 GB of the
// process's own memory zeroed and copied into, and a job larger than the memory opens at all.
//
// Reading is the same either way, through const access only. Changing goes through the
// vector's own operations (push_back, resize, insert, ...) or, for the records themselves,
// through edit(): a mapped column is first copied into a vector of its own, so nothing ever
// writes to the file and no change is silent about its cost.

#include "common/mapped_file.hpp"

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace starscope::tracer {

template <typename T>
class Column {
public:
    using value_type = T;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using const_reference = const T&;
    using reference = const T&;
    using const_pointer = const T*;
    using const_iterator = const T*;
    using iterator = const T*;

    Column() = default;
    Column(std::vector<T> records) : m_owned(std::move(records)) {}   // NOLINT(google-explicit-constructor): a vector's records, owned
    Column(std::initializer_list<T> records) : m_owned(records) {}
    template <typename It>
    Column(It first, It last) : m_owned(first, last) {}
    // Records that lie in a mapped file, kept mapped for as long as any column viewing them
    // lives.
    static Column mapped(std::span<const T> records, std::shared_ptr<const files::MappedFile> file) {
        Column column;
        column.m_mapped = records;
        column.m_keeper = std::move(file);
        return column;
    }

    // True while its records are the mapped file's (no change made since the read).
    bool isMapped() const { return m_keeper != nullptr; }
    size_type size() const { return isMapped() ? m_mapped.size() : m_owned.size(); }
    bool empty() const { return size() == 0; }
    const T* data() const { return isMapped() ? m_mapped.data() : m_owned.data(); }
    const T* begin() const { return data(); }
    const T* end() const { return data() + size(); }
    const T& operator[](size_type i) const { return data()[i]; }
    const T& front() const { return *begin(); }
    const T& back() const { return end()[-1]; }
    operator std::span<const T>() const { return {data(), size()}; }   // NOLINT(google-explicit-constructor)

    // A pass over records [first, last) is done with them for now: those of a mapped column
    // leave the process's memory (whole pages of them: the page cache keeps them and the next
    // read maps them again), so that a pass over a job larger than the memory holds what it
    // reads, not all it has read. An owned column's records stay where they are.
    void releaseResident(size_type first, size_type last) const {
        if (isMapped() && first < last && last <= m_mapped.size()) {
            m_keeper->releaseWithin(m_mapped.data() + first, (last - first) * sizeof(T));
        }
    }
    void releaseResident() const { releaseResident(0, size()); }

    // The records as a vector of the column's own, copied out of the mapping the first time.
    std::vector<T>& edit() {
        if (isMapped()) {
            m_owned.assign(m_mapped.begin(), m_mapped.end());
            m_mapped = {};
            m_keeper.reset();
        }
        return m_owned;
    }
    void push_back(const T& record) { edit().push_back(record); }
    template <typename... Args>
    T& emplace_back(Args&&... args) {
        return edit().emplace_back(std::forward<Args>(args)...);
    }
    void pop_back() { edit().pop_back(); }
    void reserve(size_type n) { edit().reserve(n); }
    void resize(size_type n) { edit().resize(n); }
    void resize(size_type n, const T& value) { edit().resize(n, value); }
    void shrink_to_fit() { edit().shrink_to_fit(); }
    size_type capacity() const { return isMapped() ? m_mapped.size() : m_owned.capacity(); }
    void clear() {
        m_owned.clear();
        m_mapped = {};
        m_keeper.reset();
    }
    template <typename It>
    void assign(It first, It last) {
        clear();
        m_owned.assign(first, last);
    }
    template <typename It>
    void insert(const T* at, It first, It last) {
        const auto offset = at - begin();
        auto& owned = edit();
        owned.insert(owned.begin() + offset, first, last);
    }
    void insert(const T* at, const T& record) {
        const auto offset = at - begin();
        auto& owned = edit();
        owned.insert(owned.begin() + offset, record);
    }
    void erase(const T* first, const T* last) {
        const auto from = first - begin();
        const auto to = last - begin();
        auto& owned = edit();
        owned.erase(owned.begin() + from, owned.begin() + to);
    }

    bool operator==(const Column& other) const { return std::equal(begin(), end(), other.begin(), other.end()); }
    friend bool operator==(const Column& column, const std::vector<T>& records) {
        return std::equal(column.begin(), column.end(), records.begin(), records.end());
    }

private:
    std::vector<T> m_owned;
    std::span<const T> m_mapped;
    std::shared_ptr<const files::MappedFile> m_keeper;
};

// A pass that reads a column front to back lets go of its pages behind it, a step at a time
// (2 MiB of records), so that it holds a step of a mapped column, not all it has read (the task
// table of a 1 G-span job is 15 GB). Records before the last step may be read again: they are
// mapped again.
template <typename T>
class ReleasingPass {
public:
    explicit ReleasingPass(const Column<T>& column) : m_column(column) {}
    ~ReleasingPass() { m_column.releaseResident(m_released, m_column.size()); }
    ReleasingPass(const ReleasingPass&) = delete;
    ReleasingPass& operator=(const ReleasingPass&) = delete;

    // Records [0, done) are read.
    void passed(std::size_t done) {
        if (done >= m_released + kStep) {
            m_column.releaseResident(m_released, done);
            m_released = done;
        }
    }

private:
    static constexpr std::size_t kStep = (std::size_t{2} << 20) / sizeof(T);
    const Column<T>& m_column;
    std::size_t m_released = 0;
};

} // namespace starscope::tracer
