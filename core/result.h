// Result<T>: a value or a message for the user. The core never throws across its
// API and never asserts on user input: bad configurations and files come back here.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace attn {

template <typename T>
class Result {
public:
    Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit on purpose
    static Result failure(std::string message) { return Result(Failure{std::move(message)}); }

    bool ok() const { return value_.has_value(); }
    explicit operator bool() const { return ok(); }
    const T& value() const& { return *value_; }
    T& value() & { return *value_; }
    T&& value() && { return std::move(*value_); }
    const T* operator->() const { return &*value_; }
    T* operator->() { return &*value_; }
    // The message to show the user; empty when ok().
    const std::string& error() const { return error_; }

private:
    struct Failure { std::string message; };
    explicit Result(Failure f) : error_(std::move(f.message)) {}
    std::optional<T> value_;
    std::string error_;
};

// For operations that return nothing but can fail.
struct Done {};
using Status = Result<Done>;
inline Status ok_status() { return Status(Done{}); }

}  // namespace attn
