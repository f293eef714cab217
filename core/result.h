// Result<T>: a value or a message for the user. The core never throws across its
// API and never asserts on user input: bad configurations and files come back here.
//
// A failure carries a Message (an id and named values, core/message.h): the window
// renders it in the language in use; error() is its English text, for the command line,
// logs and callers that only need a string.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "core/message.h"

namespace attn {

template <typename T>
class Result {
public:
    Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit on purpose
    static Result failure(Message message) { return Result(Failure{std::move(message)}); }
    // A text with no catalogue entry (command-line-only lines, OS error strings).
    static Result failure(std::string text) { return Result(Failure{Message::plain(std::move(text))}); }
    static Result failure(const char* text) { return failure(std::string(text)); }

    bool ok() const { return value_.has_value(); }
    explicit operator bool() const { return ok(); }
    const T& value() const& { return *value_; }
    T& value() & { return *value_; }
    T&& value() && { return std::move(*value_); }
    const T* operator->() const { return &*value_; }
    T* operator->() { return &*value_; }
    // What went wrong, to render in the language in use; empty when ok().
    const Message& message() const { return message_; }
    // The message in English; empty when ok().
    const std::string& error() const { return error_; }

private:
    struct Failure { Message message; };
    explicit Result(Failure f) : message_(std::move(f.message)), error_(english(message_)) {}
    std::optional<T> value_;
    Message message_;
    std::string error_;
};

// For operations that return nothing but can fail.
struct Done {};
using Status = Result<Done>;
inline Status ok_status() { return Status(Done{}); }

}  // namespace attn
