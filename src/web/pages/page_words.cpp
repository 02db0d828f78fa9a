#include "page_words.h"

#include "common/text.h"
#include "web/pages/games_page.h"

namespace web::pages {

namespace {

nlohmann::json dateParts(std::int64_t millis) {
    // Strings, not numbers: a number would be written the language's way ("2.026").
    return {{"year", common::utcTime(millis, "%Y")},
            {"month", common::utcTime(millis, "%m")},
            {"day", common::utcTime(millis, "%d")},
            {"hour", common::utcTime(millis, "%H")},
            {"minute", common::utcTime(millis, "%M")}};
}

}  // namespace

const i18n::Translator& builtInWords(std::string_view lang) {
    static const i18n::Translator english(i18n::builtIn(), "en");
    static const i18n::Translator portuguese(i18n::builtIn(), "pt-BR");
    return i18n::known(lang).value_or(i18n::kDefault) == "pt-BR" ? portuguese : english;
}

std::string dayText(const i18n::Translator& words, std::int64_t millis) {
    return words.tr("pages.date.day", dateParts(millis));
}

std::string timeText(const i18n::Translator& words, std::int64_t millis) {
    return words.tr("pages.date.time", dateParts(millis));
}

std::string pageStart(const i18n::Translator& words, const std::string& title,
                      const std::string& heading, const std::string& subtitle,
                      std::string_view current) {
    const auto link = [&](std::string_view href, std::string_view key, const std::string& text) {
        return "<a href=\"" + std::string(href) + "\"" +
               (href == current ? " class=\"current\" aria-current=\"page\"" : "") +
               " data-i18n=\"" + std::string(key) + "\">" + common::xmlEscape(text) + "</a>";
    };
    return "<!doctype html>\n<html lang=\"" + std::string(words.lang()) +
           "\"><head><meta charset=\"utf-8\">"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
           "<title>" +
           common::xmlEscape(words.tr("pages.title", {{"page", title}})) +
           "</title><link rel=\"stylesheet\" href=\"/app.css\">"
           "<link rel=\"icon\" href=\"/favicon.svg\"></head>\n<body>"
           "<header class=\"top\">" +
           heading + "<span class=\"subtitle\">" + subtitle + "</span><nav>" +
           link("/", "common.nav.lasca", words.tr("common.nav.lasca")) +
           link("/torneio", "common.nav.torneio", words.tr("common.nav.torneio")) +
           link("/lobby", "common.nav.lobby", words.tr("common.nav.lobby")) +
           link("/games", "common.nav.games", words.tr("common.nav.games")) +
           link("/rules/lasca", "common.nav.rules", words.tr("common.nav.rules")) +
           link("/learn", "common.nav.learn", words.tr("common.nav.learn")) +
           "<label class=\"lang\"><span data-i18n=\"common.language\">" +
           common::xmlEscape(words.tr("common.language")) +
           "</span> <select data-lang-picker></select></label></nav></header>\n";
}

std::string pageEnd() {
    return "<script src=\"/i18n/messages.js\"></script><script src=\"/i18n.js\"></script>"
           "</body></html>\n";
}

}  // namespace web::pages
