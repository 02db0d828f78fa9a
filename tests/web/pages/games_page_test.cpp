// The games pages (include/web/pages/games_page.h) over a store in memory: the list names games by
// their public numbers and shows no Lasca game id and no token; /games.pdn and one game's PDN
// read back through the project's PDN reader; a running Torneio table shows its public events
// and none of a seat's private ones, a finished one its whole record; running public tables are
// listed to watch, private ones never; unknown paths and numbers are 404s, other paths are not
// the games pages'.
#include "web/pages/games_page.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "lasca/core/pdn.h"
#include "lasca/core/position.h"
#include "torneio/play/ai/ai_options.h"
#include "torneio/rules/action.h"
#include "torneio/rules/event.h"
#include "torneio/rules/geometry.h"
#include "torneio/rules/params.h"
#include "torneio/rules/random_play.h"
#include "torneio/rules/record.h"
#include "torneio/rules/state.h"
#include "web/lasca_tables/duel.h"
#include "web/lasca_tables/lasca_table.h"

namespace web::pages {

using lasca_tables::DuelClock;
using lasca_tables::DuelSeat;
using lasca_tables::kLevels;
using lasca_tables::LascaDuel;
using store::Store;
using store::StoredLascaGame;
using store::StoredTorneioTable;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A Torneio table with the given number of random decisions played on it, and its State.
StoredTorneioTable torneioTable(const std::string& id, int decisions, torneio::State& state) {
    StoredTorneioTable table;
    const auto params = torneio::defaultParams(2);
    table.id = id;
    table.params = torneio::formatParams(params);
    table.seed = 99;
    table.seats = {{"person", 1, std::string(64, 'f'), 0, ""}, {"ai", 0, "", 0, ""}};
    state = torneio::State::create(params).value();
    const torneio::Geometry geometry(params);
    common::Random random(5);
    for (int i = 0; i < decisions && !state.over(); ++i) {
        const int seat = state.toDecide();
        const auto action = torneio::randomAction(state, random);
        EXPECT_TRUE(state.apply(seat, action).ok());
        table.decisions.push_back({seat, torneio::formatAction(action, geometry)});
    }
    table.created = table.updated = 1764700000000;
    return table;
}

TEST(GamesPage, ListsGamesWithoutSecretsAndServesTheirPdn) {
    auto store = Store::open("").value();
    StoredLascaGame game;
    game.id = "secretid42";
    game.startLfen = lasca::Position::startPosition().toLfen();
    game.moves = {"c3-d4", "f6-e5"};
    game.engine = "black";
    game.level = 2;
    game.created = game.updated = 1764700000000;
    ASSERT_TRUE(store->saveLascaGame(game).ok());
    torneio::State state = torneio::State::create(torneio::defaultParams(2)).value();
    ASSERT_TRUE(store->createTorneioTable(torneioTable("secrettable", 6, state)).ok());

    const auto list = gamesPage(*store, "/games");
    ASSERT_TRUE(list.has_value());
    EXPECT_EQ(list->status, 200);
    EXPECT_TRUE(contains(list->body, "Lasca 1")) << list->body;
    EXPECT_TRUE(contains(list->body, "Torneio 1"));
    EXPECT_TRUE(contains(list->body, "/?view=1"));
    EXPECT_TRUE(contains(list->body, "2 plies"))
        << "a move is a pair of plies: the count says plies";
    EXPECT_FALSE(contains(list->body, "2 moves"));
    EXPECT_TRUE(contains(list->body, std::string("person v engine (") + kLevels[2].name + ")"));
    EXPECT_TRUE(contains(list->body, "6 decisions"));
    EXPECT_TRUE(
        contains(list->body, std::string("person, ai (") + torneio::play::kAiLevels[0].name + ")"))
        << "an AI seat by its level's name";
    EXPECT_FALSE(contains(list->body, "ai 1"));
    EXPECT_FALSE(contains(list->body, "secret"));
    EXPECT_FALSE(contains(list->body, "ffff"));

    for (const std::string path : {"/games.pdn", "/games/lasca/1.pdn"}) {
        const auto pdn = gamesPage(*store, path);
        ASSERT_TRUE(pdn.has_value());
        EXPECT_EQ(pdn->status, 200);
        EXPECT_FALSE(contains(pdn->body, "secret"));
        std::istringstream in(pdn->body);
        const auto games = lasca::readPdn(in);
        ASSERT_TRUE(games.ok()) << games.error();
        ASSERT_EQ(games.value().size(), 1u);
        EXPECT_EQ(games.value()[0].moves, game.moves);
        EXPECT_EQ(*games.value()[0].tag("Black"), std::string("lasca (") + kLevels[2].name + ")");
    }
    for (const std::string path : {"/games/lasca/2.pdn", "/games/lasca/0.pdn", "/games/lasca/x.pdn",
                                   "/games/torneio/7", "/games/torneio/-1", "/games/nothing"})
        EXPECT_EQ(gamesPage(*store, path)->status, 404) << path;
    EXPECT_FALSE(gamesPage(*store, "/index.html").has_value());
    EXPECT_FALSE(gamesPage(*store, "/").has_value());
}

TEST(GamesPage, ARunningTorneioTableShowsOnlyPublicFactsAFinishedOneItsRecord) {
    auto store = Store::open("").value();
    torneio::State state = torneio::State::create(torneio::defaultParams(2)).value();
    const auto running = torneioTable("t", 12, state);
    ASSERT_TRUE(store->createTorneioTable(running).ok());
    const auto page = gamesPage(*store, "/games/torneio/1");
    ASSERT_TRUE(page.has_value());
    EXPECT_EQ(page->status, 200);
    const torneio::Geometry geometry(torneio::defaultParams(2));
    int publicEvents = 0, privateEvents = 0;
    for (const auto& event : state.events()) {
        const auto line = torneio::formatEvent(event, geometry);
        if (event.audience == torneio::kPublic) {
            ++publicEvents;
            EXPECT_TRUE(contains(page->body, line)) << line;
        } else {
            ++privateEvents;
            EXPECT_FALSE(contains(page->body, line)) << "private: " << line;
        }
    }
    EXPECT_GT(publicEvents, 0);
    EXPECT_GT(privateEvents, 0);
    EXPECT_FALSE(contains(page->body, "setup king")) << "no seat's set-up while it runs";
    EXPECT_FALSE(contains(page->body, "seed")) << page->body;

    // Over: the whole record, set-ups and all.
    torneio::State finished = torneio::State::create(torneio::defaultParams(2)).value();
    auto done = torneioTable("u", 100000, finished);
    ASSERT_TRUE(finished.over());
    done.result = "win 1";
    done.record = torneio::formatRecord(torneio::recordOf(finished, 99));
    ASSERT_TRUE(store->createTorneioTable(done).ok());
    const auto record = gamesPage(*store, "/games/torneio/2");
    EXPECT_TRUE(contains(record->body, "setup king")) << record->body.substr(0, 400);
}

// Tables for two people: listed with their clocks; a running one has no link and no PDN (its
// moves are for its players and watchers), a finished one opens on the analysis board.
TEST(GamesPage, TablesForTwoPeopleAreListedAndFinishedOnesServed) {
    auto store = Store::open("").value();
    auto running = LascaDuel::create("runningtable", DuelClock{180000, 2000}, 0).value();
    const auto tokens = running.takeTokens();
    ASSERT_TRUE(store->saveDuel(running.stored(1)).ok());
    // The tables' own clock is a steady one (milliseconds since an arbitrary start); the server
    // stamps `updated` with the wall clock.
    auto done = LascaDuel::create("donetable", std::nullopt, 5000).value();
    ASSERT_FALSE(done.resign(DuelSeat::White, 6000).has_value()) << "the resignation refused";
    auto doneKept = done.stored(7000);
    doneKept.updated = 1764700000000;  // 2025-12-02 18:26:40 UTC
    ASSERT_TRUE(store->saveDuel(doneKept).ok());
    const auto list = gamesPage(*store, "/games")->body;
    EXPECT_TRUE(contains(list, "Lasca table 1</td><td>two people, 3 min + 2 s")) << list;
    EXPECT_TRUE(contains(list, "two people, no clock"));
    EXPECT_TRUE(contains(list, "0-2 (resign)"));
    EXPECT_TRUE(contains(list, "/?view=table-2"));
    EXPECT_FALSE(contains(list, "/?view=table-1"));
    EXPECT_FALSE(contains(list, "runningtable"));
    EXPECT_FALSE(contains(list, tokens[0]));
    EXPECT_EQ(gamesPage(*store, "/games/table/1.pdn")->status, 404);
    const auto pdn = gamesPage(*store, "/games/table/2.pdn");
    ASSERT_EQ(pdn->status, 200);
    EXPECT_TRUE(contains(pdn->body, "[Termination \"resign\"]")) << pdn->body;
    EXPECT_TRUE(contains(pdn->body, "[Result \"0-2\"]"));
    EXPECT_TRUE(contains(pdn->body, "[Date \"2025.12.02\"]")) << pdn->body;
    EXPECT_TRUE(contains(list, "0 plies"));
    const auto all = gamesPage(*store, "/games.pdn")->body;
    EXPECT_TRUE(contains(all, "lasca-web table"));
    EXPECT_EQ(all.find("TimeControl"), std::string::npos) << "the running timed table is not in it";
}

// Public tables (made in the lobby: their watch token kept in clear) are listed while they run,
// with their players (a deleted account by its number, as text) and the link that watches them
// in the form the Lasca page reads; a private running table shows neither its id nor a token,
// and a finished public table is no longer to watch.
TEST(GamesPage, RunningPublicTablesHaveWatchLinksPrivateOnesShowNothing) {
    auto store = Store::open("").value();
    const auto ana = store->createAccount("Ana", "ana", "hash", 1).value()->id;
    const auto bo = store->createAccount("Bo_9", "bo_9", "hash", 1).value()->id;
    auto open = LascaDuel::create("publictable", DuelClock{180000, 2000}, 0).value();
    const auto openTokens = open.takeTokens();
    auto openKept = open.stored(1);
    openKept.publicWatch = openTokens[2];
    openKept.whiteAccount = ana;
    openKept.blackAccount = bo;
    openKept.updated = 1764700000000;
    ASSERT_TRUE(store->saveDuel(openKept).ok());
    auto closed = LascaDuel::create("privatetable", DuelClock{60000, 0}, 0).value();
    const auto closedTokens = closed.takeTokens();
    auto closedKept = closed.stored(1);
    closedKept.whiteAccount = ana;
    ASSERT_TRUE(store->saveDuel(closedKept).ok());
    auto done = LascaDuel::create("finishedpublic", std::nullopt, 0).value();
    const auto doneTokens = done.takeTokens();
    ASSERT_FALSE(done.resign(DuelSeat::White, 1).has_value()) << "the resignation refused";
    auto doneKept = done.stored(2);
    doneKept.publicWatch = doneTokens[2];
    ASSERT_TRUE(store->saveDuel(doneKept).ok());

    const auto watchable = store->publicRunningDuels(10).value();
    ASSERT_EQ(watchable.size(), 1u);
    EXPECT_EQ(watchable[0].duel.id, "publictable");
    const auto list = gamesPage(*store, "/games")->body;
    EXPECT_TRUE(
        contains(list, "<a href=\"/?table=publictable&amp;token=" + openTokens[2] + "\">watch</a>"))
        << list;
    EXPECT_TRUE(contains(list, "<a href=\"/@/Ana\">Ana</a> v <a href=\"/@/Bo_9\">Bo_9</a>"));
    EXPECT_TRUE(contains(list, "3 min + 2 s"));
    EXPECT_FALSE(contains(list, openTokens[0])) << "a seat's token never";
    EXPECT_FALSE(contains(list, openTokens[1]));
    EXPECT_FALSE(contains(list, "privatetable"));
    for (const auto& token : closedTokens) EXPECT_FALSE(contains(list, token));
    EXPECT_FALSE(contains(list, "finishedpublic"));
    EXPECT_FALSE(contains(list, doneTokens[2])) << "a finished table is no longer to watch";
    // A player's list has no tables to watch.
    EXPECT_FALSE(contains(gamesPage(*store, "/games?player=ana")->body, "publictable"));

    // A deleted player: by its number, as text.
    ASSERT_TRUE(store->deleteAccount(bo).value());
    const auto after = gamesPage(*store, "/games")->body;
    EXPECT_TRUE(
        contains(after, "<a href=\"/@/Ana\">Ana</a> v deleted-" + std::to_string(bo) + "</td>"))
        << after;
    EXPECT_FALSE(contains(after, "Bo_9"));
}

// The pages of /games.pdn read one after another by their Link headers: every body, and the
// Link of each (the last has none).
struct PdnPages {
    std::vector<std::string> bodies;
    std::vector<std::string> links;
};
PdnPages readAllPdnPages(Store& store, std::size_t budget) {
    PdnPages pages;
    std::string target = "/games.pdn";
    for (int guard = 0; guard < 1000; ++guard) {
        const auto page = gamesPage(store, target, budget);
        EXPECT_TRUE(page.has_value());
        if (!page) break;
        EXPECT_EQ(page->status, 200) << target << ": " << page->body;
        pages.bodies.push_back(page->body);
        std::string link;
        for (const auto& [name, value] : page->headers)
            if (name == "Link") link = value;
        pages.links.push_back(link);
        if (link.empty()) break;
        EXPECT_TRUE(link.starts_with("</games.pdn?") && link.ends_with(">; rel=\"next\"")) << link;
        target = link.substr(1, link.find('>') - 1);
        EXPECT_TRUE(contains(page->body, "% the next page: " + target)) << page->body;
    }
    return pages;
}

// /games.pdn is paged (games_page.h): no page holds more than the budget unless it is one game,
// every kept game (Lasca games, then finished tables; no running table) comes exactly once and
// oldest first, the next page is named by a Link header (and an escape line PDN readers skip),
// and a query that names no page is a 400.
TEST(GamesPage, EveryGameAsPdnComesInBoundedPagesOldestFirst) {
    auto store = Store::open("").value();
    constexpr int kGames = 11;
    constexpr std::int64_t kDay = 86400000;
    for (int i = 0; i < kGames; ++i) {
        StoredLascaGame game;
        game.id = "game" + std::to_string(i);
        game.startLfen = lasca::Position::startPosition().toLfen();
        game.moves = {"c3-d4", "f6-e5"};
        game.engine = "none";
        game.created = game.updated = 1764700000000 + i * kDay;  // the Date tag tells them apart
        ASSERT_TRUE(store->saveLascaGame(game).ok());
    }
    for (int i = 0; i < 3; ++i) {
        auto done = LascaDuel::create("done" + std::to_string(i), std::nullopt, 0).value();
        ASSERT_FALSE(done.resign(DuelSeat::White, 1).has_value()) << "the resignation refused";
        ASSERT_TRUE(store->saveDuel(done.stored(2)).ok());
    }
    auto running = LascaDuel::create("running", DuelClock{180000, 2000}, 0).value();
    ASSERT_TRUE(store->saveDuel(running.stored(1)).ok());

    const std::size_t oneGame = gamesPage(*store, "/games/lasca/1.pdn")->body.size();
    const std::size_t budget = 3 * oneGame + oneGame / 2;  // three games a page
    const auto pages = readAllPdnPages(*store, budget);
    EXPECT_EQ(pages.bodies.size(), 5u) << "14 games, 3 a page";
    std::vector<std::string> dates;
    int tables = 0;
    for (std::size_t p = 0; p < pages.bodies.size(); ++p) {
        const auto& body = pages.bodies[p];
        const auto escape = body.find("\n% the next page");
        EXPECT_LE(escape == std::string::npos ? body.size() : escape, budget) << "page " << p;
        std::istringstream in(body);
        const auto games = lasca::readPdn(in);
        ASSERT_TRUE(games.ok()) << games.error();
        EXPECT_GE(games.value().size(), 1u);
        for (const auto& game : games.value()) {
            if (*game.tag("Event") == "lasca-web table") {
                ++tables;
                continue;
            }
            EXPECT_EQ(tables, 0) << "every Lasca game comes before the tables";
            dates.push_back(*game.tag("Date"));
        }
    }
    EXPECT_EQ(tables, 3) << "the finished tables, not the running one";
    ASSERT_EQ(dates.size(), static_cast<std::size_t>(kGames));
    EXPECT_TRUE(std::is_sorted(dates.begin(), dates.end())) << "oldest first";
    EXPECT_EQ(std::adjacent_find(dates.begin(), dates.end()), dates.end()) << "each game once";
    EXPECT_EQ(pages.links[0], "</games.pdn?lasca=3>; rel=\"next\"");
    EXPECT_EQ(pages.links[3], "</games.pdn?table=1>; rel=\"next\"");

    // A budget smaller than any game: one game a page, every game still served.
    EXPECT_EQ(readAllPdnPages(*store, 10).bodies.size(), static_cast<std::size_t>(kGames + 3));
    // The default: all of them on one page, and no next page.
    const auto whole = gamesPage(*store, "/games.pdn");
    EXPECT_TRUE(whole->headers.empty());
    EXPECT_FALSE(contains(whole->body, "% the next page"));
    // A page past the end is empty, not an error.
    EXPECT_EQ(gamesPage(*store, "/games.pdn?table=99")->body, "");
    for (const std::string bad :
         {"/games.pdn?page=2", "/games.pdn?lasca=", "/games.pdn?lasca=-1", "/games.pdn?lasca=1x",
          "/games.pdn?table=1&lasca=2", "/games.pdn?lasca=99999999999999999999"})
        EXPECT_EQ(gamesPage(*store, bad)->status, 400) << bad;
}

}  // namespace
}  // namespace web::pages
