// Reading the page's JSON messages: every field checked (type, length, numeric range) before
// anything changes, and the one error reply of the web page, {"type":"error","message":...}.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/result.h"

namespace web::messages {

using Json = nlohmann::json;

inline constexpr std::size_t kMaxMessageBytes = 64 * 1024;
inline constexpr int kMaxJsonDepth = 16;

// Parses one message: at most kMaxMessageBytes, nested at most kMaxJsonDepth deep (checked
// before parsing), a JSON object. Never throws.
common::Result<Json> parseMessage(std::string_view text);

// The message's "type": a string of at most 32 characters.
common::Result<std::string> messageType(const Json& message);

// An error when the object holds a field other than "type" and the allowed ones.
std::optional<std::string> checkFields(const Json& message,
                                       std::initializer_list<std::string_view> allowed);

// A required whole number in [low, high] (JSON integers only, no fractions or strings).
common::Result<std::int64_t> intField(const Json& message, const char* name, std::int64_t low,
                                      std::int64_t high);
// A required string of at most maxBytes bytes.
common::Result<std::string> stringField(const Json& message, const char* name,
                                        std::size_t maxBytes);
// A required true or false.
common::Result<bool> boolField(const Json& message, const char* name);

Json errorMessage(std::string_view message);

}  // namespace web::messages
