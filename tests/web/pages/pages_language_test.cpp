// The server-made pages in the request's language (games_page.h, player_page.h): /games and a
// player's page in Brazilian Portuguese carry <html lang="pt-BR">, their words from the pt-BR
// catalogue (plural forms by count, dates as Brazilians write them) and no message of the
// English catalogue; in English the same pages say the English words. The catalogues are the
// pages' own compiled in (builtInWords), made from web/i18n as the server reads it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "lasca/core/position.h"
#include "web/pages/games_page.h"
#include "web/pages/player_page.h"
#include "web/web_test_util.h"

namespace web::pages {

using store::Store;
using store::StoredDuel;
using store::StoredLascaGame;
using Json = nlohmann::json;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

using web::test::catalogue;

// The English messages of the pages (pages.* and the nav) that a Portuguese page must not show:
// those that differ from their Portuguese, each form of a plural, placeholders cut off (the
// longest piece without one, of 4 characters or more).
std::vector<std::string> englishOnly() {
    std::vector<std::string> out;
    const Json en = catalogue("en", "pages"), pt = catalogue("pt-BR", "pages");
    Json enCommon = catalogue("en", "common"), ptCommon = catalogue("pt-BR", "common");
    EXPECT_TRUE(en.is_object() && pt.is_object() && enCommon.is_object());
    Json all = en;
    Json allPt = pt;
    for (const auto& key : {"common.nav.lobby", "common.nav.games", "common.nav.rules",
                            "common.nav.learn", "common.language"}) {
        all[key] = enCommon[key];
        allPt[key] = ptCommon[key];
    }
    for (const auto& [key, message] : all.items()) {
        if (message == allPt[key]) continue;
        std::vector<std::string> texts;
        if (message.is_string())
            texts.push_back(message.get<std::string>());
        else
            for (const auto& [form, text] : message.items())
                texts.push_back(text.get<std::string>());
        for (const auto& text : texts) {
            std::string longest, piece;
            for (std::size_t i = 0; i <= text.size(); ++i) {
                const bool cut = i == text.size() || text[i] == '{' || text[i] == '<';
                if (!cut) {
                    piece += text[i];
                    continue;
                }
                if (piece.size() > longest.size()) longest = piece;
                piece.clear();
                const auto close = text.find_first_of(text[i] == '{' ? "}" : ">", i);
                if (i < text.size()) i = close == std::string::npos ? text.size() : close;
            }
            // Trimmed: a piece is searched as the page writes it, between other words.
            while (!longest.empty() && longest.back() == ' ') longest.pop_back();
            while (!longest.empty() && longest.front() == ' ') longest.erase(0, 1);
            if (longest.size() >= 4 && allPt[key].dump().find(longest) == std::string::npos)
                out.push_back(longest);
        }
    }
    return out;
}

// A store with a Lasca game of one move and a finished table of Ana (White, won) and Bo.
std::unique_ptr<Store> storeWithGames() {
    auto store = Store::open("").value();
    StoredLascaGame game;
    game.id = "g1";
    game.startLfen = lasca::Position::startPosition().toLfen();
    game.moves = {"c3-d4"};
    game.engine = "black";
    game.level = 2;
    game.created = game.updated = 1764700000000;  // 2025-12-02 18:26:40 UTC
    EXPECT_TRUE(store->saveLascaGame(game).ok());
    const auto ana = store->createAccount("Ana", "ana", "hash", 1764700000000).value()->id;
    const auto bo = store->createAccount("Bo", "bo", "hash", 1764700000000).value()->id;
    StoredDuel d;
    d.id = "t1";
    d.startLfen = game.startLfen;
    d.moves = {"c3-d4", "f6-e5"};
    d.whiteHash = "w";
    d.blackHash = "b";
    d.watchHash = "v";
    d.result = "2-0";
    d.rule = "resign";
    d.clockTime = 180000;
    d.clockIncrement = 2000;
    d.created = d.updated = 1764700000000;
    d.whiteAccount = ana;
    d.blackAccount = bo;
    EXPECT_TRUE(store->saveDuel(d).ok());
    return store;
}

TEST(PagesLanguage, TheGamesPageInPortugueseHasNoEnglishLeft) {
    const auto store = storeWithGames();
    const auto page = gamesPage(*store, "/games", builtInWords("pt-BR"));
    ASSERT_TRUE(page && page->status == 200);
    const auto& html = page->body;
    EXPECT_TRUE(contains(html, "<html lang=\"pt-BR\">")) << html;
    EXPECT_TRUE(contains(html, "<h1>Partidas</h1>"));
    EXPECT_TRUE(contains(html, "1 lance<")) << "one for 1";
    EXPECT_TRUE(contains(html, "2 lances<")) << "other for 2";
    EXPECT_TRUE(contains(html, "pessoa x computador (Novato)"));
    EXPECT_TRUE(contains(html, "duas pessoas, 3 min + 2 s"));
    EXPECT_TRUE(contains(html, "02/12/2025 18:26 UTC")) << "day/month/year";
    EXPECT_FALSE(contains(html, "2025-12-02"));
    EXPECT_TRUE(contains(html, "href=\"/rules/lasca\"") && contains(html, "href=\"/learn\""));
    EXPECT_TRUE(contains(html, "<script src=\"/i18n/messages.js\"></script>"));
    EXPECT_TRUE(contains(html, "data-lang-picker"));
    const auto english = englishOnly();
    EXPECT_GT(english.size(), 40u);
    for (const auto& text : english) EXPECT_FALSE(contains(html, text)) << "English left: " << text;
    const auto vary = std::find_if(page->headers.begin(), page->headers.end(),
                                   [](const auto& h) { return h.first == "Vary"; });
    ASSERT_NE(vary, page->headers.end());
    EXPECT_EQ(vary->second, "Cookie, Accept-Language");
}

TEST(PagesLanguage, APlayerPageInPortugueseHasNoEnglishLeft) {
    const auto store = storeWithGames();
    const auto page = playerPage(*store, "/@/ana", builtInWords("pt-BR"));
    ASSERT_TRUE(page && page->status == 200);
    const auto& html = page->body;
    EXPECT_TRUE(contains(html, "<html lang=\"pt-BR\">")) << html;
    EXPECT_TRUE(contains(html, "membro desde 02/12/2025"));
    EXPECT_TRUE(contains(html, "<td>brancas</td>"));
    EXPECT_TRUE(contains(html, "vitória (2-0, resign)"));
    EXPECT_TRUE(contains(html, "Na página de partidas"));
    for (const auto& text : englishOnly())
        EXPECT_FALSE(contains(html, text)) << "English left: " << text;
    // A player's list of games on /games too.
    const auto list = gamesPage(*store, "/games?player=bo", builtInWords("pt-BR"));
    ASSERT_TRUE(list && list->status == 200);
    EXPECT_TRUE(contains(list->body,
                         "As mesas para duas pessoas já encerradas de <a href=\"/@/Bo\">Bo</a>"));
    for (const auto& text : englishOnly())
        EXPECT_FALSE(contains(list->body, text)) << "English left: " << text;
}

TEST(PagesLanguage, InEnglishThePagesSayTheEnglishWords) {
    const auto store = storeWithGames();
    const auto games = gamesPage(*store, "/games", builtInWords("en"))->body;
    EXPECT_TRUE(contains(games, "<html lang=\"en\">"));
    EXPECT_TRUE(contains(games, "1 ply<") && contains(games, "2 plies<"));
    EXPECT_TRUE(contains(games, "person v engine (Novice)"));
    EXPECT_TRUE(contains(games, "2025-12-02 18:26 UTC"));
    EXPECT_EQ(games, gamesPage(*store, "/games")->body) << "English without a language";
    const auto player = playerPage(*store, "/@/ana", builtInWords("en"))->body;
    EXPECT_TRUE(contains(player, "member since 2025-12-02"));
    EXPECT_TRUE(contains(player, "win (2-0, resign)"));
    // An unknown language is English.
    EXPECT_EQ(playerPage(*store, "/@/ana", builtInWords("fr"))->body, player);
}

}  // namespace
}  // namespace web::pages
