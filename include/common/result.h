// Result<T>: a value or an error message. The core reports every failure this way and never
// throws or prints; the protocol layer decides how to tell the user.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace common {

struct Error {
    std::string message;
};

template <class T>
class Result {
  public:
    Result(T value) : data_(std::move(value)) {}      // NOLINT: implicit by design
    Result(Error error) : data_(std::move(error)) {}  // NOLINT: implicit by design

    bool ok() const { return std::holds_alternative<T>(data_); }
    explicit operator bool() const { return ok(); }
    const T& value() const& { return std::get<T>(data_); }
    T& value() & { return std::get<T>(data_); }
    T&& value() && { return std::get<T>(std::move(data_)); }
    const std::string& error() const { return std::get<Error>(data_).message; }

  private:
    std::variant<T, Error> data_;
};

inline Error makeError(std::string message) {
    return Error{std::move(message)};
}

}  // namespace common
