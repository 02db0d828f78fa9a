// Reading the page's JSON messages: every field checked (type, length, numeric range) before
// anything changes; the texts the server says to a person, as catalogue keys; and the one error
// reply of the web page, {"type":"error","key":...,"params":{...},"message":...}.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/result.h"
#include "web/i18n/i18n.h"

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

// Say: a text the server says to a person, as a key of the catalogues' server area
// (web/i18n/<lang>/server.json, written whole at the call: Say{"server.duel.gone"}, so that
// scripts/i18n_check.py finds it) and the values of its placeholders. The page shows it in the
// person's language (i18n.server in web/i18n.js); programs read its English text.
struct Say {
    std::string key;
    Json params = Json::object();
};

// The English text of `say` (from the compiled-in catalogues).
std::string english(const Say& say);
// `say` as a message's field: {"key":...,"params":{...},"text":English}.
Json said(const Say& say);

// The error reply: {"type":"error","key":...,"params":{...},"message":English}.
Json errorMessage(const Say& say);
// The error reply to a message a program got wrong (a field, the JSON, the type): its English
// detail, under the key server.error.refused (the page never sends such a message).
Json errorMessage(std::string_view detail);

// {"type":"moved","home":NAME}: the table a tab asked for lives on another instance of the
// server (several behind one front: docs/design.md), or this instance let go of it ("" when it
// does not know where it went); the page connects again, naming the home to the front.
Json movedMessage(const std::string& home);

}  // namespace web::messages
