#include "common/program_spec.h"

#include <algorithm>
#include <filesystem>

#include "common/text.h"

namespace common {

namespace {

constexpr std::string_view kOptionPrefix = "option.";

bool isExtraKey(std::string_view key, std::span<const std::string_view> extraKeys) {
    return std::find(extraKeys.begin(), extraKeys.end(), key) != extraKeys.end();
}

std::string_view keyOf(std::string_view field) {
    return field.substr(0, field.find('='));
}

// A spec with fields starts with a known key; anything else is a bare program path.
bool hasFields(std::string_view text, std::span<const std::string_view> extraKeys) {
    const std::string_view key = keyOf(text.substr(0, text.find(',')));
    return key == "name" || key == "cmd" || key == "arg" || key.starts_with(kOptionPrefix) ||
           isExtraKey(key, extraKeys);
}

std::vector<std::string_view> splitFields(std::string_view text) {
    std::vector<std::string_view> fields;
    std::size_t start = 0;
    for (;;) {
        const auto comma = text.find(',', start);
        fields.push_back(text.substr(start, comma - start));
        if (comma == std::string_view::npos) return fields;
        start = comma + 1;
    }
}

Result<bool> applyField(ProgramSpec& spec, std::string_view field,
                        std::span<const std::string_view> extraKeys) {
    const auto eq = field.find('=');
    const std::string_view key = field.substr(0, eq);
    const std::string value(eq == std::string_view::npos ? "" : field.substr(eq + 1));
    if (isExtraKey(key, extraKeys)) {
        spec.extra.emplace_back(std::string(key), value);
        return true;
    }
    if (field.empty()) return makeError("empty field");
    if (eq == std::string_view::npos) return makeError("field '" + printable(field) + "' lacks =");
    if (key == "name") {
        spec.name = value;
    } else if (key == "cmd") {
        spec.path = value;
    } else if (key == "arg") {
        spec.args.push_back(value);
    } else if (key.starts_with(kOptionPrefix) && key.size() > kOptionPrefix.size()) {
        spec.options.emplace_back(std::string(key.substr(kOptionPrefix.size())), value);
    } else {
        return makeError("unknown field '" + printable(key) + "'");
    }
    return true;
}

}  // namespace

Result<ProgramSpec> parseProgramSpec(std::string_view text,
                                     std::span<const std::string_view> extraKeys) {
    ProgramSpec spec;
    if (!hasFields(text, extraKeys)) {
        spec.path = std::string(text);
    } else {
        for (const auto field : splitFields(text)) {
            auto applied = applyField(spec, field, extraKeys);
            if (!applied) return makeError(applied.error());
        }
    }
    if (spec.name.empty() && !spec.path.empty())
        spec.name = std::filesystem::path(spec.path).filename().string();
    return spec;
}

}  // namespace common
