// The page's two languages, English and Brazilian Portuguese: the catalogues of messages
// (web/i18n/<lang>/<area>.json, one file per area and language, read with the served files),
// the choice of a person's language, and the messages with their placeholders and plural forms.
// A message is a string with {name} placeholders, or an object of the plural forms "one" and
// "other" chosen by the "count" parameter (English: one for 1; Portuguese: one for 0 and 1, as
// CLDR and the browsers' Intl.PluralRules). Pages read them through web/i18n.js; server-made
// pages and messages through a Translator (the call written tr("key", ...), so that
// scripts/i18n_check.py finds every key used: a key missing from a catalogue fails the build).
// No I/O here: the files come in as text.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/result.h"

namespace web::i18n {

struct Language {
    std::string_view code;  // the BCP 47 tag, as <html lang> and Accept-Language write it
    std::string_view name;  // in its own language
};
inline constexpr std::array<Language, 2> kLanguages{Language{"en", "English"},
                                                    Language{"pt-BR", "Português (Brasil)"}};
inline constexpr std::string_view kDefault = "en";
inline constexpr std::string_view kCookieName = "lasca_lang";

// The known language a tag names ("pt-BR", "pt", "pt-PT" and "PT-br" all name pt-BR; "en-GB"
// names en), or nothing.
std::optional<std::string_view> known(std::string_view tag);

// The language of a request, as lichess chooses: the person's choice kept in the lasca_lang
// cookie (which signing in sets from the account's setting), then the first known language of
// Accept-Language by its q-values, then English.
std::string_view choose(std::string_view cookieHeader, std::string_view acceptLanguage);

// "one" or "other" for `count` in `lang`.
std::string_view pluralForm(std::string_view lang, double count);

// The Set-Cookie value that keeps a choice: "lasca_lang=pt-BR; Path=/; Max-Age=31536000;
// SameSite=Lax" (readable by the page's script: no secret in it).
std::string languageCookie(std::string_view lang);

class Catalogues {
  public:
    // From the served files: every "/i18n/<lang>/<area>.json" of `files` (path, body); other
    // paths are ignored. Errors: a catalogue that is not a JSON object of messages, a message
    // that is neither a string nor {"one", "other"}, a language without its catalogue.
    static common::Result<Catalogues> fromFiles(
        const std::vector<std::pair<std::string, std::string>>& files);

    // The message `key` in `lang` (English when `lang` is not known) with `params` ({name} ->
    // the value: strings as they are, numbers written the language's way); the key itself when
    // no catalogue has it.
    std::string text(std::string_view lang, std::string_view key,
                     const nlohmann::json& params = nlohmann::json::object()) const;
    // The script /i18n/messages.js sends: window.LASCA_I18N = {lang, languages, messages};
    const std::string& script(std::string_view lang) const;
    // How many messages `lang` has.
    std::size_t size(std::string_view lang) const;

  private:
    std::map<std::string, nlohmann::json, std::less<>> messages_;  // lang -> {key: message}
    std::map<std::string, std::string, std::less<>> scripts_;
};

// One request's messages: Translator words{catalogues, lang}; words.tr("pages.games.title",
// {{"count", 3}}). It holds a reference: the catalogues outlive it.
class Translator {
  public:
    Translator(const Catalogues& catalogues, std::string_view lang)
        : catalogues_(&catalogues), lang_(known(lang).value_or(kDefault)) {}
    std::string tr(std::string_view key,
                   const nlohmann::json& params = nlohmann::json::object()) const {
        return catalogues_->text(lang_, key, params);
    }
    std::string_view lang() const { return lang_; }

  private:
    const Catalogues* catalogues_;
    std::string_view lang_;
};

// The catalogues compiled into the program as the build found them in web/i18n: for messages
// made where the served ones are not at hand (the English text of a server message, pages made
// by tests). Empty when a catalogue was broken (i18n_check fails such a build first).
const Catalogues& builtIn();

}  // namespace web::i18n
