#include "common/options.h"

#include <algorithm>
#include <charconv>

#include "common/text.h"

namespace common {

namespace {

const char* typeName(OptionType t) {
    switch (t) {
        case OptionType::Spin:
            return "spin";
        case OptionType::Check:
            return "check";
        case OptionType::String:
            return "string";
        case OptionType::Button:
            return "button";
        case OptionType::Combo:
            return "combo";
    }
    return "string";
}

constexpr std::size_t kMaxStringOption = 4096;

std::string joinChoices(const std::vector<std::string>& choices) {
    std::string text;
    for (const auto& c : choices) text += (text.empty() ? "" : ", ") + c;
    return text;
}

}  // namespace

std::int64_t Option::asInt() const {
    std::int64_t v = 0;
    std::from_chars(value.data(), value.data() + value.size(), v);
    return v;
}

void Options::add(Option option) {
    option.value = option.defaultValue;
    options_.push_back(std::move(option));
}

const Option* Options::find(std::string_view name) const {
    for (const Option& o : options_)
        if (equalsIgnoringCase(o.name, name)) return &o;
    return nullptr;
}

Option* Options::findMutable(std::string_view name) {
    return const_cast<Option*>(std::as_const(*this).find(name));
}

Result<bool> Options::set(std::string_view name, std::string_view value) {
    Option* option = findMutable(name);
    if (!option) return makeError("unknown option '" + printable(name) + "'");
    std::string normalised(value);
    switch (option->type) {
        case OptionType::Spin: {
            std::int64_t v = 0;
            const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
            if (value.empty() || ec == std::errc::result_out_of_range ||
                (ec == std::errc() && end == value.data() + value.size() &&
                 (v < option->min || v > option->max)))
                return makeError("option " + option->name + " value '" + printable(value) +
                                 "' out of range " + std::to_string(option->min) + ".." +
                                 std::to_string(option->max));
            if (ec != std::errc() || end != value.data() + value.size())
                return makeError("option " + option->name + " needs an integer, got '" +
                                 printable(value) + "'");
            normalised = std::to_string(v);
            break;
        }
        case OptionType::Check:
            if (equalsIgnoringCase(value, "true"))
                normalised = "true";
            else if (equalsIgnoringCase(value, "false"))
                normalised = "false";
            else
                return makeError("option " + option->name + " needs true or false, got '" +
                                 printable(value) + "'");
            break;
        case OptionType::String:
            if (value.size() > kMaxStringOption)
                return makeError("option " + option->name + " value is too long");
            if (equalsIgnoringCase(value, "<empty>")) normalised.clear();
            break;
        case OptionType::Button:
            normalised.clear();
            break;
        case OptionType::Combo: {
            const auto choice =
                std::find_if(option->choices.begin(), option->choices.end(),
                             [&](const std::string& c) { return equalsIgnoringCase(c, value); });
            if (choice == option->choices.end())
                return makeError("option " + option->name + " must be one of " +
                                 joinChoices(option->choices) + ", got '" + printable(value) + "'");
            normalised = *choice;
            break;
        }
    }
    Option candidate = *option;
    candidate.value = normalised;
    if (candidate.onChange) {
        auto applied = candidate.onChange(candidate);
        if (!applied) return applied;
    }
    option->value = std::move(normalised);
    return true;
}

std::int64_t Options::intValue(std::string_view name) const {
    const Option* o = find(name);
    return o ? o->asInt() : 0;
}

bool Options::boolValue(std::string_view name) const {
    const Option* o = find(name);
    return o && o->asBool();
}

std::string Options::stringValue(std::string_view name) const {
    const Option* o = find(name);
    return o ? o->value : std::string();
}

std::string Options::describe(const Option& option) {
    std::string line = "option name " + option.name + " type " + typeName(option.type);
    switch (option.type) {
        case OptionType::Spin:
            line += " default " + option.defaultValue + " min " + std::to_string(option.min) +
                    " max " + std::to_string(option.max);
            break;
        case OptionType::Check:
            line += " default " + option.defaultValue;
            break;
        case OptionType::String:
            line += " default " +
                    (option.defaultValue.empty() ? std::string("<empty>") : option.defaultValue);
            break;
        case OptionType::Button:
            break;
        case OptionType::Combo:
            line += " default " + option.defaultValue;
            for (const auto& choice : option.choices) line += " var " + choice;
            break;
    }
    return line;
}

}  // namespace common
