// Error values for untrusted input and fallible operations.
//
// Every loader returns Result<T>: either the value or an Error that names the file, the place in it (a JSON path,
// a byte offset, an atlas line) and what was expected. Only the command-line tool turns errors into exit codes.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace spinegpu {

// What went wrong, and where. `file` is the path as given by the caller (may be empty for in-memory input),
// `where` the place inside it ("/bones/3/parent", "byte 1043", "line 12"), `what` a sentence on what was expected.
struct Error {
    std::string file;
    std::string where;
    std::string what;
    // Vulkan failures keep their VkResult here (0 when the error is not a Vulkan one).
    int vk_result = 0;

    // One line for a human: "file: where: what", control bytes (C0, DEL, and C1 in UTF-8) written as \xNN.
    std::string message() const;
};

// Builds an Error; a convenience for the many places that create one.
Error make_error(std::string file, std::string where, std::string what);

// Either a T or an Error. Access to the wrong alternative is a precondition violation (assert).
template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : state_(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return state_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { assert(ok()); return std::get<0>(state_); }
    const T& value() const& { assert(ok()); return std::get<0>(state_); }
    T&& value() && { assert(ok()); return std::get<0>(std::move(state_)); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const Error& error() const { assert(!ok()); return std::get<1>(state_); }

private:
    std::variant<T, Error> state_;
};

// Result of an operation that produces no value.
template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error) : error_(std::move(error)) {}

    bool ok() const { return !error_.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error& error() const { assert(!ok()); return *error_; }

private:
    std::optional<Error> error_;
};

}  // namespace spinegpu
