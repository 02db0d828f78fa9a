// Engine options: each declared once (name, type, default, range, on-change action); the
// `uci`/`ugi` listing and `setoption` both work from that one declaration.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace common {

enum class OptionType { Spin, Check, String, Button, Combo };

// Option: one declared option and its current value.
//   name          as listed; matched case-insensitively by setoption
//   min, max      range of a spin option (inclusive)
//   value         current value as text ("true"/"false" for a check, digits for a spin)
//   onChange      applies a new value; an Error leaves the old value in place
//   choices       the values a combo option may take (matched case-insensitively, kept as
//                 declared); listed as `var` after the default
struct Option {
    std::string name;
    OptionType type = OptionType::String;
    std::string defaultValue;
    std::int64_t min = 0;
    std::int64_t max = 0;
    std::function<Result<bool>(const Option&)> onChange;
    std::string value;
    std::vector<std::string> choices{};

    std::int64_t asInt() const;
    bool asBool() const { return value == "true"; }
};

class Options {
  public:
    void add(Option option);
    // Checks the value against the declaration, applies it with onChange, then keeps it.
    // Errors: unknown option, non-numeric or out-of-range spin, check other than true/false.
    Result<bool> set(std::string_view name, std::string_view value);
    const Option* find(std::string_view name) const;
    std::int64_t intValue(std::string_view name) const;
    bool boolValue(std::string_view name) const;
    std::string stringValue(std::string_view name) const;
    const std::vector<Option>& all() const { return options_; }

    // Declaration line as sent after `uci`/`ugi`:
    // `option name Hash type spin default 16 min 1 max 32768`,
    // `option name Player type combo default heuristic var random var heuristic`.
    static std::string describe(const Option& option);

  private:
    Option* findMutable(std::string_view name);
    std::vector<Option> options_;
};

}  // namespace common
