#include "web/i18n/i18n.h"
#include "web/messages/messages.h"

#include <gtest/gtest.h>

namespace web::i18n {
namespace {

using Json = nlohmann::json;

Catalogues twoLanguages() {
    const auto made = Catalogues::fromFiles({
        {"/i18n/en/common.json",
         R"({"common.hello": "Hello {name}", "common.plies": {"one": "{count} ply", "other": "{count} plies"}})"},
        {"/i18n/pt-BR/common.json",
         R"({"common.hello": "Olá {name}", "common.plies": {"one": "{count} lance", "other": "{count} lances"}})"},
        {"/index.html", "<html></html>"},
    });
    EXPECT_TRUE(made.ok()) << (made.ok() ? "" : made.error());
    return made.value();
}

TEST(I18n, TheCookieThenAcceptLanguageThenEnglish) {
    EXPECT_EQ(choose("", ""), "en");
    EXPECT_EQ(choose("", "pt-BR,pt;q=0.9,en;q=0.8"), "pt-BR");
    EXPECT_EQ(choose("", "de-DE,de;q=0.9,pt;q=0.8,en;q=0.7"), "pt-BR");
    EXPECT_EQ(choose("", "en;q=0.5, pt-PT;q=0.6"), "pt-BR");
    EXPECT_EQ(choose("", "fr, de"), "en");
    EXPECT_EQ(choose("a=1; lasca_lang=pt-BR; b=2", "en"), "pt-BR");
    EXPECT_EQ(choose("lasca_lang=en", "pt-BR"), "en");
    // An unknown or broken choice is passed over.
    EXPECT_EQ(choose("lasca_lang=xx; lasca_lang=", "pt"), "pt-BR");
    EXPECT_EQ(choose("lasca_lang=<script>", ""), "en");
    // Broken q-values are passed over, never read as 1.
    EXPECT_EQ(choose("", "pt;q=2, en;q=0.1"), "en");
    EXPECT_EQ(choose("", "pt;q=abc"), "en");
    EXPECT_EQ(choose("", std::string(10000, ',') + "pt"), "en");  // only the first 32 ranges
}

TEST(I18n, KnownTags) {
    EXPECT_EQ(known("pt"), "pt-BR");
    EXPECT_EQ(known("PT-br"), "pt-BR");
    EXPECT_EQ(known("en-GB"), "en");
    EXPECT_EQ(known("es"), std::nullopt);
    EXPECT_EQ(known(""), std::nullopt);
}

TEST(I18n, PluralFormsFollowEachLanguage) {
    EXPECT_EQ(pluralForm("en", 0), "other");
    EXPECT_EQ(pluralForm("en", 1), "one");
    EXPECT_EQ(pluralForm("en", 2), "other");
    EXPECT_EQ(pluralForm("pt-BR", 0), "one");  // "0 lance", as CLDR's pt
    EXPECT_EQ(pluralForm("pt-BR", 1), "one");
    EXPECT_EQ(pluralForm("pt-BR", 2), "other");
    const auto c = twoLanguages();
    EXPECT_EQ(c.text("en", "common.plies", {{"count", 1}}), "1 ply");
    EXPECT_EQ(c.text("en", "common.plies", {{"count", 1234}}), "1,234 plies");
    EXPECT_EQ(c.text("pt-BR", "common.plies", {{"count", 0}}), "0 lance");
    EXPECT_EQ(c.text("pt-BR", "common.plies", {{"count", 1234}}), "1.234 lances");
    EXPECT_EQ(c.text("pt-BR", "common.plies", {{"count", -2}}), "-2 lances");
}

TEST(I18n, PlaceholdersAreFilledAndUnknownKeysShowThemselves) {
    const auto c = twoLanguages();
    EXPECT_EQ(c.text("pt-BR", "common.hello", {{"name", "Ana"}}), "Olá Ana");
    EXPECT_EQ(c.text("en", "common.hello", {{"name", "<b>"}}),
              "Hello <b>");  // escaping is the page's
    EXPECT_EQ(c.text("en", "common.hello"), "Hello {name}");
    EXPECT_EQ(c.text("fr", "common.hello", {{"name", "x"}}), "Hello x");
    EXPECT_EQ(c.text("en", "common.nothing"), "common.nothing");
    EXPECT_EQ(c.text("en", "common.hello", {{"name", 1.5}}), "Hello 1.5");
    EXPECT_EQ(c.text("pt-BR", "common.hello", {{"name", 1234.25}}), "Olá 1.234,25");
    Translator words(c, "pt");
    EXPECT_EQ(words.lang(), "pt-BR");
    EXPECT_EQ(words.tr("common.hello", {{"name", "Rui"}}), "Olá Rui");
}

TEST(I18n, TheScriptCarriesOneLanguage) {
    const auto c = twoLanguages();
    const auto& script = c.script("pt-BR");
    ASSERT_TRUE(script.starts_with("window.LASCA_I18N = "));
    const auto data = Json::parse(script.substr(20, script.size() - 22));
    EXPECT_EQ(data["lang"], "pt-BR");
    EXPECT_EQ(data["messages"]["common.hello"], "Olá {name}");
    EXPECT_EQ(data["languages"].size(), kLanguages.size());
    EXPECT_EQ(c.script("xx"), c.script("en"));
    EXPECT_EQ(c.size("en"), 2u);
}

TEST(I18n, BrokenCataloguesAreRefused) {
    EXPECT_FALSE(Catalogues::fromFiles({{"/i18n/en/a.json", "[1]"}}).ok());
    EXPECT_FALSE(Catalogues::fromFiles({{"/i18n/en/a.json", "{"}}).ok());
    EXPECT_FALSE(Catalogues::fromFiles({{"/i18n/en/a.json", R"({"a.x": 3})"}}).ok());
    EXPECT_FALSE(Catalogues::fromFiles({{"/i18n/en/a.json", R"({"a.x": {"one": "a"}})"}}).ok());
    // Every language has its catalogue, or none has.
    EXPECT_FALSE(Catalogues::fromFiles({{"/i18n/en/a.json", R"({"a.x": "x"})"}}).ok());
    const auto none = Catalogues::fromFiles({});
    ASSERT_TRUE(none.ok());
    EXPECT_EQ(none.value().text("en", "a.x"), "a.x");
    EXPECT_EQ(languageCookie("pt"), "lasca_lang=pt-BR; Path=/; Max-Age=31536000; SameSite=Lax");
    EXPECT_EQ(languageCookie("<x>"), "lasca_lang=en; Path=/; Max-Age=31536000; SameSite=Lax");
}

}  // namespace
}  // namespace web::i18n

TEST(I18n, TheCompiledInCataloguesAreTheServedOnes) {
    // Every area of both languages is compiled in, with the same keys in each.
    const auto& built = web::i18n::builtIn();
    EXPECT_GT(built.size("en"), 500u);
    EXPECT_EQ(built.size("en"), built.size("pt-BR"));
    EXPECT_EQ(built.text("en", "common.nav.games"), "Games");
    EXPECT_NE(built.text("pt-BR", "server.error.refused", {{"detail", "x"}}),
              built.text("en", "server.error.refused", {{"detail", "x"}}));
}

TEST(I18n, WhatTheServerSaysCarriesItsKeyAndItsEnglish) {
    using web::messages::Say;
    const auto reply =
        web::messages::errorMessage(Say{"server.error.refused", {{"detail", "ply"}}});
    EXPECT_EQ(reply["type"], "error");
    EXPECT_EQ(reply["key"], "server.error.refused");
    EXPECT_EQ(reply["params"]["detail"], "ply");
    EXPECT_EQ(reply["message"], "ply");
    // A program's mistake keeps its English detail as the message, as before keys existed.
    const auto detail = web::messages::errorMessage(std::string_view("ply must be a number"));
    EXPECT_EQ(detail["message"], "ply must be a number");
    EXPECT_EQ(detail["key"], "server.error.refused");
    const auto field = web::messages::said(Say{"server.error.refused", {{"detail", "d"}}});
    EXPECT_EQ(field["text"], "d");
    EXPECT_EQ(field["key"], "server.error.refused");
}
