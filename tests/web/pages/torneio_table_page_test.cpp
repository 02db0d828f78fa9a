// /games/torneio/<n> in the request's language (games_page.h, torneio_table_page.cpp): in
// Brazilian Portuguese a running table's page and a finished one's carry <html lang="pt-BR">,
// their words from the pt-BR catalogue (the seats' kinds and AI levels included) and none of the
// English page's messages; the result cites its rule with a link; the protocol's own text (the
// parameters, the public event lines, the record) is shown as the protocol writes it in both
// languages, and /games/torneio/<n>.txt serves it unchanged (torneioTableText).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/random.h"
#include "torneio/rules/action.h"
#include "torneio/rules/event.h"
#include "torneio/rules/geometry.h"
#include "torneio/rules/params.h"
#include "torneio/rules/random_play.h"
#include "torneio/rules/record.h"
#include "torneio/rules/state.h"
#include "web/pages/games_page.h"
#include "web/web_test_util.h"

namespace web::pages {
namespace {

using store::Store;
using store::StoredTorneioTable;
using Json = nlohmann::json;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

using web::test::catalogue;

// The English messages of the record page (torneio.record.*, the AI levels' names, the nav)
// that a Portuguese page must not show: those that differ from their Portuguese, each cut at
// its placeholders and markup to its longest piece of 4 characters or more.
std::vector<std::string> englishOnly() {
    const Json en = catalogue("en", "torneio"), pt = catalogue("pt-BR", "torneio");
    const Json enCommon = catalogue("en", "common"), ptCommon = catalogue("pt-BR", "common");
    EXPECT_TRUE(en.is_object() && pt.is_object() && enCommon.is_object() && ptCommon.is_object());
    Json all = Json::object(), allPt = Json::object();
    for (const auto& [key, message] : en.items())
        if (key.starts_with("torneio.record.") ||
            (key.starts_with("torneio.level.") && !key.ends_with("About"))) {
            all[key] = message;
            allPt[key] = pt[key];
        }
    for (const auto& key : {"common.nav.lobby", "common.nav.games", "common.nav.rules",
                            "common.nav.learn", "common.language"}) {
        all[key] = enCommon[key];
        allPt[key] = ptCommon[key];
    }
    EXPECT_GT(all.size(), 25u);
    std::vector<std::string> out;
    for (const auto& [key, message] : all.items()) {
        if (message == allPt[key] || !message.is_string()) continue;
        const auto text = message.get<std::string>();
        std::string longest, piece;
        for (std::size_t i = 0; i <= text.size(); ++i) {
            if (i < text.size() && text[i] != '{' && text[i] != '<') {
                piece += text[i];
                continue;
            }
            if (piece.size() > longest.size()) longest = piece;
            piece.clear();
            const auto close = text.find_first_of(text[i] == '{' ? "}" : ">", i);
            if (i < text.size()) i = close == std::string::npos ? text.size() : close;
        }
        while (!longest.empty() && longest.back() == ' ') longest.pop_back();
        while (!longest.empty() && longest.front() == ' ') longest.erase(0, 1);
        if (longest.size() >= 4 && allPt[key].dump().find(longest) == std::string::npos)
            out.push_back(longest);
    }
    return out;
}

// A 2-seat table of Ana (an account) and the normal AI with `decisions` random decisions played,
// and its State; `finished`: played to the end, its result and record kept.
StoredTorneioTable table(Store& store, const std::string& id, int decisions,
                         torneio::State& state) {
    const auto params = torneio::defaultParams(2);
    StoredTorneioTable t;
    t.id = id;
    t.params = torneio::formatParams(params);
    t.seed = 99;
    const auto ana = store.createAccount("Ana" + id, "ana" + id, "hash", 1764700000000);
    EXPECT_TRUE(ana.ok() && ana.value());
    t.seats = {{"person", 1, std::string(64, 'f'), ana.value()->id, ""}, {"ai", 1, "", 0, ""}};
    state = torneio::State::create(params).value();
    const torneio::Geometry geometry(params);
    common::Random random(5);
    for (int i = 0; i < decisions && !state.over(); ++i) {
        const int seat = state.toDecide();
        const auto action = torneio::randomAction(state, random);
        EXPECT_TRUE(state.apply(seat, action).ok());
        t.decisions.push_back({seat, torneio::formatAction(action, geometry)});
    }
    t.created = t.updated = 1764700000000;  // 2025-12-02 18:26:40 UTC
    if (state.over()) {
        const auto& o = state.outcome();
        std::string seats;
        for (int s = 0; s < 2; ++s)
            if (o.seats & (1u << s)) seats += " " + std::to_string(s + 1);
        t.result = (o.kind == torneio::OutcomeKind::Win ? "win" : "draw") + seats;
        t.record = torneio::formatRecord(torneio::recordOf(state, 99));
    }
    EXPECT_TRUE(store.createTorneioTable(t).ok());
    return t;
}

TEST(TorneioTablePage, InPortugueseARunningAndAFinishedTableHaveNoEnglishLeft) {
    auto store = Store::open("").value();
    torneio::State running = torneio::State::create(torneio::defaultParams(2)).value();
    torneio::State finished = running;
    const auto playing = table(*store, "t1", 12, running);
    const auto over = table(*store, "t2", 100000, finished);
    ASSERT_TRUE(finished.over());
    const auto english = englishOnly();
    ASSERT_GT(english.size(), 20u);
    const torneio::Geometry geometry(torneio::defaultParams(2));

    const auto page = gamesPage(*store, "/games/torneio/1", builtInWords("pt-BR"));
    ASSERT_TRUE(page && page->status == 200);
    EXPECT_EQ(page->contentType, "text/html; charset=utf-8");
    const auto& html = page->body;
    EXPECT_TRUE(contains(html, "<html lang=\"pt-BR\">")) << html;
    EXPECT_TRUE(contains(html, "<h1>Mesa de Torneio 1</h1>")) << html;
    EXPECT_TRUE(contains(html, "Jogador 2: a IA, nível médio")) << html;
    EXPECT_TRUE(contains(html, "<a href=\"/@/Anat1\">Anat1</a>")) << html;
    EXPECT_TRUE(contains(html, "02/12/2025 18:26 UTC")) << "dates the Brazilian way";
    EXPECT_TRUE(contains(html, "href=\"/games/torneio/1.txt\""));
    for (const auto& text : english) EXPECT_FALSE(contains(html, text)) << "English left: " << text;
    int publicEvents = 0;
    for (const auto& event : running.events()) {
        const auto line = torneio::formatEvent(event, geometry);
        if (event.audience == torneio::kPublic) {
            ++publicEvents;
            EXPECT_TRUE(contains(html, line)) << "the protocol's line as it is: " << line;
        } else {
            EXPECT_FALSE(contains(html, line)) << "private while it runs: " << line;
        }
    }
    EXPECT_GT(publicEvents, 0);
    EXPECT_TRUE(contains(html, "<code>" + playing.params + "</code>"));

    const auto done = gamesPage(*store, "/games/torneio/2", builtInWords("pt-BR"));
    ASSERT_TRUE(done && done->status == 200);
    for (const auto& text : english)
        EXPECT_FALSE(contains(done->body, text)) << "English left: " << text;
    // The result cites its rule (G12 a win, D11 a draw) with a link.
    EXPECT_TRUE(contains(done->body, "<a href=\"/rules/torneio#G12\">G12</a>") ||
                contains(done->body, "<a href=\"/rules/torneio#D11\">D11</a>"))
        << done->body;
    EXPECT_TRUE(contains(done->body, "Fim de jogo")) << done->body;
    // The record as the protocol writes it, each line (escaped for HTML: none needs it).
    const auto record = torneio::recordListing(torneio::parseRecord(over.record).value());
    std::istringstream lines(record);
    for (std::string line; std::getline(lines, line);)
        EXPECT_TRUE(contains(done->body, line)) << "the record's line as it is: " << line;
    const auto vary = std::find_if(done->headers.begin(), done->headers.end(),
                                   [](const auto& h) { return h.first == "Vary"; });
    ASSERT_NE(vary, done->headers.end());
    EXPECT_EQ(vary->second, "Cookie, Accept-Language");

    // The text file is the protocol's text, in any language.
    for (const auto& [number, kept] : {std::pair{1, playing}, std::pair{2, over}}) {
        const auto text = gamesPage(*store, "/games/torneio/" + std::to_string(number) + ".txt",
                                    builtInWords("pt-BR"));
        ASSERT_TRUE(text && text->status == 200);
        EXPECT_EQ(text->contentType, "text/plain; charset=utf-8");
        EXPECT_EQ(text->body, torneioTableText(kept));
    }
    EXPECT_EQ(gamesPage(*store, "/games/torneio/3.txt")->status, 404);
    EXPECT_EQ(gamesPage(*store, "/games/torneio/1.pdf")->status, 404);
}

TEST(TorneioTablePage, InEnglishThePageSaysTheEnglishWords) {
    auto store = Store::open("").value();
    torneio::State running = torneio::State::create(torneio::defaultParams(2)).value();
    table(*store, "t1", 12, running);
    const auto html = gamesPage(*store, "/games/torneio/1", builtInWords("en"))->body;
    EXPECT_TRUE(contains(html, "<html lang=\"en\">"));
    EXPECT_TRUE(contains(html, "<h1>Torneio table 1</h1>"));
    EXPECT_TRUE(contains(html, "Seat 2: the AI, level normal"));
    EXPECT_TRUE(contains(html, "This game is still being played"));
    EXPECT_TRUE(contains(html, "2025-12-02 18:26 UTC"));
    EXPECT_EQ(html, gamesPage(*store, "/games/torneio/1")->body) << "English without a language";
}

}  // namespace
}  // namespace web::pages
