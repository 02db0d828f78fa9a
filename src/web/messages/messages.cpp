#include "web/messages/messages.h"

#include "common/text.h"

namespace web::messages {

namespace {
// The deepest nesting of arrays and objects in the text, strings skipped.
int nestingDepth(std::string_view text) {
    int depth = 0;
    int deepest = 0;
    bool inString = false;
    bool escaped = false;
    for (const char c : text) {
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"')
            inString = true;
        else if (c == '[' || c == '{')
            deepest = std::max(deepest, ++depth);
        else if (c == ']' || c == '}')
            --depth;
    }
    return deepest;
}
}  // namespace

common::Result<Json> parseMessage(std::string_view text) {
    if (text.size() > kMaxMessageBytes)
        return common::makeError("message too long (" + std::to_string(text.size()) +
                                 " bytes, at most " + std::to_string(kMaxMessageBytes) + ")");
    if (nestingDepth(text) > kMaxJsonDepth) return common::makeError("message nested too deeply");
    Json message = Json::parse(text, nullptr, false);
    if (message.is_discarded()) return common::makeError("message is not JSON");
    if (!message.is_object()) return common::makeError("message must be a JSON object");
    return message;
}

common::Result<std::string> messageType(const Json& message) {
    if (!message.is_object()) return common::makeError("message must be a JSON object");
    const auto it = message.find("type");
    if (it == message.end() || !it->is_string())
        return common::makeError("message needs a string field 'type'");
    const auto& type = it->get_ref<const std::string&>();
    if (type.size() > 32) return common::makeError("type too long");
    return type;
}

std::optional<std::string> checkFields(const Json& message,
                                       std::initializer_list<std::string_view> allowed) {
    for (const auto& [key, value] : message.items()) {
        if (key == "type") continue;
        bool known = false;
        for (const auto a : allowed) known = known || key == a;
        if (!known) return "unknown field '" + common::printable(key) + "'";
    }
    return std::nullopt;
}

common::Result<std::int64_t> intField(const Json& message, const char* name, std::int64_t low,
                                      std::int64_t high) {
    const auto range = std::to_string(low) + ".." + std::to_string(high);
    const auto it = message.find(name);
    if (it == message.end())
        return common::makeError(std::string(name) + " is missing (a number in " + range + ")");
    if (!it->is_number_integer())
        return common::makeError(std::string(name) + " must be a whole number in " + range);
    std::int64_t value = 0;
    if (it->is_number_unsigned()) {
        const auto u = it->get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(high))
            return common::makeError(std::string(name) + " out of range " + range);
        value = static_cast<std::int64_t>(u);
    } else {
        value = it->get<std::int64_t>();
    }
    if (value < low || value > high)
        return common::makeError(std::string(name) + " out of range " + range);
    return value;
}

common::Result<std::string> stringField(const Json& message, const char* name,
                                        std::size_t maxBytes) {
    const auto it = message.find(name);
    if (it == message.end() || !it->is_string())
        return common::makeError(std::string(name) + " must be a string");
    const auto& text = it->get_ref<const std::string&>();
    if (text.size() > maxBytes)
        return common::makeError(std::string(name) + " too long (at most " +
                                 std::to_string(maxBytes) + " bytes)");
    return text;
}

common::Result<bool> boolField(const Json& message, const char* name) {
    const auto it = message.find(name);
    if (it == message.end() || !it->is_boolean())
        return common::makeError(std::string(name) + " must be true or false");
    return it->get<bool>();
}

std::string english(const Say& say) {
    return i18n::builtIn().text("en", say.key, say.params);
}

Json said(const Say& say) {
    return {{"key", say.key}, {"params", say.params}, {"text", english(say)}};
}

Json errorMessage(const Say& say) {
    return {{"type", "error"}, {"key", say.key}, {"params", say.params}, {"message", english(say)}};
}

Json movedMessage(const std::string& home) {
    return {{"type", "moved"}, {"home", home}};
}

Json errorMessage(std::string_view detail) {
    return errorMessage(Say{"server.error.refused", {{"detail", std::string(detail)}}});
}

}  // namespace web::messages
