// The games pages (include/web/pages/games_page.h) over a store in memory: the list names games by
// their public numbers and shows no Lasca game id and no token; /games.pdn and one game's PDN
// read back through the project's PDN reader; a running Torneio table shows its public events
// and none of a seat's private ones, a finished one its whole record; unknown paths and numbers
// are 404s, other paths are not the games pages'.
#include "web/pages/games_page.h"

#include <gtest/gtest.h>

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
    table.seats = {{"person", 1, std::string(64, 'f')}, {"ai", 0, ""}};
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
    ASSERT_TRUE(done.resign(DuelSeat::White, 6000).ok());
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

}  // namespace
}  // namespace web::pages
