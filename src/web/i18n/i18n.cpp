#include "web/i18n/i18n.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "common/text.h"

namespace web::i18n {

namespace {

using Json = nlohmann::json;

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

// A q-value ("q=0.8"): 0..1, or nothing when it is not one.
std::optional<double> qValue(std::string_view parameter) {
    parameter = trim(parameter);
    if (parameter.size() < 3 || (parameter[0] != 'q' && parameter[0] != 'Q') || parameter[1] != '=')
        return std::nullopt;
    parameter.remove_prefix(2);
    if (parameter.size() > 5) return std::nullopt;
    double q = 0;
    const auto [end, error] =
        std::from_chars(parameter.data(), parameter.data() + parameter.size(), q);
    if (error != std::errc() || end != parameter.data() + parameter.size() || q < 0 || q > 1)
        return std::nullopt;
    return q;
}

// An integer with the language's group separator: 1,234 (en), 1.234 (pt-BR).
std::string grouped(long long value, char separator) {
    const unsigned long long magnitude = value < 0 ? 0ULL - static_cast<unsigned long long>(value)
                                                   : static_cast<unsigned long long>(value);
    const std::string digits = std::to_string(magnitude);
    std::string out = value < 0 ? "-" : "";
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += separator;
        out += digits[i];
    }
    return out;
}

std::string number(const Json& value, std::string_view lang) {
    const bool portuguese = lang == "pt-BR";
    if (value.is_number_integer()) {
        const auto n = value.is_number_unsigned() ? static_cast<long long>(std::min<std::uint64_t>(
                                                        value.get<std::uint64_t>(), INT64_MAX))
                                                  : value.get<long long>();
        return grouped(n, portuguese ? '.' : ',');
    }
    const double d = value.get<double>();
    if (!std::isfinite(d)) return "?";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.3f", d);
    std::string text(buffer);
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
    const auto point = text.find('.');
    const long long whole = std::llround(std::trunc(d));
    std::string out = grouped(whole, portuguese ? '.' : ',');
    if (d < 0 && whole == 0) out = "-" + out;
    if (point != std::string::npos) out += (portuguese ? ',' : '.') + text.substr(point + 1);
    return out;
}

std::string fill(std::string_view text, const Json& params, std::string_view lang) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '{') {
            const auto close = text.find('}', i);
            if (close != std::string_view::npos && params.is_object()) {
                const std::string name(text.substr(i + 1, close - i - 1));
                const auto it = params.find(name);
                if (it != params.end()) {
                    out += it->is_string()   ? it->get<std::string>()
                           : it->is_number() ? number(*it, lang)
                                             : it->dump();
                    i = close;
                    continue;
                }
            }
        }
        out += text[i];
    }
    return out;
}

common::Result<Json> readCatalogue(const std::string& path, const std::string& body) {
    Json data = Json::parse(body, nullptr, false);
    if (data.is_discarded() || !data.is_object())
        return common::makeError(path + ": not a JSON object of messages");
    for (const auto& [key, message] : data.items()) {
        const bool plural = message.is_object() && message.size() == 2 && message.contains("one") &&
                            message.contains("other") && message["one"].is_string() &&
                            message["other"].is_string();
        if (!message.is_string() && !plural)
            return common::makeError(path + ": " + key +
                                     " is neither a string nor {\"one\", \"other\"}");
    }
    return data;
}

}  // namespace

std::optional<std::string_view> known(std::string_view tag) {
    tag = trim(tag);
    const auto primary = tag.substr(0, tag.find('-'));
    if (common::equalsIgnoringCase(primary, "en")) return kLanguages[0].code;
    if (common::equalsIgnoringCase(primary, "pt")) return kLanguages[1].code;
    return std::nullopt;
}

std::string_view choose(std::string_view cookieHeader, std::string_view acceptLanguage) {
    // The cookie: the first lasca_lang naming a known language.
    for (const auto value : common::cookieValues(cookieHeader, kCookieName))
        if (const auto lang = known(value); lang && value.size() <= 15) return *lang;
    // Accept-Language: "pt-BR,pt;q=0.9,en;q=0.8"; the highest q first, ties in order.
    std::optional<std::string_view> best;
    double bestQ = 0;
    int ranges = 0;
    while (!acceptLanguage.empty() && ranges++ < 32) {
        const auto end = acceptLanguage.find(',');
        std::string_view range = acceptLanguage.substr(0, end);
        acceptLanguage =
            end == std::string_view::npos ? std::string_view() : acceptLanguage.substr(end + 1);
        double q = 1;
        if (const auto semicolon = range.find(';'); semicolon != std::string_view::npos) {
            const auto value = qValue(range.substr(semicolon + 1));
            if (!value) continue;
            q = *value;
            range = range.substr(0, semicolon);
        }
        const auto lang = known(range);
        if (lang && q > bestQ) {
            best = lang;
            bestQ = q;
        }
    }
    return best.value_or(kDefault);
}

std::string_view pluralForm(std::string_view lang, double count) {
    if (lang == "pt-BR") return count >= 0 && count < 2 ? "one" : "other";
    return count == 1 ? "one" : "other";
}

std::string languageCookie(std::string_view lang) {
    return std::string(kCookieName) + "=" + std::string(known(lang).value_or(kDefault)) +
           "; Path=/; Max-Age=31536000; SameSite=Lax";
}

common::Result<Catalogues> Catalogues::fromFiles(
    const std::vector<std::pair<std::string, std::string>>& files) {
    Catalogues out;
    for (const auto& [path, body] : files) {
        // "/i18n/<lang>/<area>.json"
        constexpr std::string_view prefix = "/i18n/";
        if (!path.starts_with(prefix) || !path.ends_with(".json")) continue;
        const std::string_view rest = std::string_view(path).substr(prefix.size());
        const auto slash = rest.find('/');
        if (slash == std::string_view::npos) continue;
        const auto lang = rest.substr(0, slash);
        if (known(lang) != lang) continue;
        auto catalogue = readCatalogue(path, body);
        if (!catalogue) return common::makeError(catalogue.error());
        auto& messages = out.messages_[std::string(lang)];
        if (messages.is_null()) messages = Json::object();
        messages.update(catalogue.value());
    }
    if (!out.messages_.empty()) {
        for (const auto& language : kLanguages)
            if (!out.messages_.contains(language.code))
                return common::makeError("no catalogue for " + std::string(language.code) +
                                         " (i18n/" + std::string(language.code) + "/)");
    }
    Json languages = Json::array();
    for (const auto& language : kLanguages)
        languages.push_back({{"code", language.code}, {"name", language.name}});
    for (const auto& language : kLanguages) {
        const auto it = out.messages_.find(language.code);
        const Json data = {{"lang", language.code},
                           {"languages", languages},
                           {"messages", it == out.messages_.end() ? Json::object() : it->second}};
        out.scripts_[std::string(language.code)] =
            "window.LASCA_I18N = " + data.dump(-1, ' ', false, Json::error_handler_t::replace) +
            ";\n";
    }
    return out;
}

std::string Catalogues::text(std::string_view lang, std::string_view key,
                             const Json& params) const {
    const auto chosen = known(lang).value_or(kDefault);
    const auto language = messages_.find(chosen);
    if (language == messages_.end()) return std::string(key);
    const auto it = language->second.find(std::string(key));
    if (it == language->second.end()) return std::string(key);
    if (it->is_object()) {
        double count = 0;
        if (params.is_object() && params.contains("count") && params["count"].is_number())
            count = params["count"].get<double>();
        return fill((*it)[std::string(pluralForm(chosen, count))].get<std::string>(), params,
                    chosen);
    }
    return fill(it->get<std::string>(), params, chosen);
}

const std::string& Catalogues::script(std::string_view lang) const {
    return scripts_.find(known(lang).value_or(kDefault))->second;
}

std::size_t Catalogues::size(std::string_view lang) const {
    const auto it = messages_.find(known(lang).value_or(kDefault));
    return it == messages_.end() ? 0 : it->second.size();
}

}  // namespace web::i18n
