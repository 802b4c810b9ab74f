#pragma once
// Result<T, E>: a value or an expected failure (bad file, missing dataset, unsupported
// version). Each library defines its own error type E; bugs assert instead.
// A small stand-in for C++23's std::expected, which the project's C++20 toolchain lacks.

#include <cassert>
#include <utility>
#include <variant>

namespace starscope {

template <typename E>
struct Unexpected {
    E error;
};

template <typename E>
Unexpected<E> fail(E error) {
    return Unexpected<E>{std::move(error)};
}

template <typename T, typename E>
class [[nodiscard]] Result {
public:
    Result(T value) : m_data(std::in_place_index<0>, std::move(value)) {}
    Result(Unexpected<E> failure) : m_data(std::in_place_index<1>, std::move(failure.error)) {}

    bool ok() const { return m_data.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { assert(ok()); return std::get<0>(m_data); }
    const T& value() const& { assert(ok()); return std::get<0>(m_data); }
    T&& value() && { assert(ok()); return std::get<0>(std::move(m_data)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const E& error() const { assert(!ok()); return std::get<1>(m_data); }

private:
    std::variant<T, E> m_data;
};

// Result of an operation that yields nothing but may fail.
struct Done {};

} // namespace starscope
