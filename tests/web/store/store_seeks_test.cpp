// The lobby in the store: offers kept with their maker and parameters as given, listed oldest
// first, an id taken once (the second taker is told it is gone) with its sitters, emptied at
// once; a Torneio offer's places taken in order up to its people; the people with a tab open
// found by their name's key; the games listed up to a ceiling; a public table's watch token kept
// with the table.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "store_test_support.h"
#include "test_directory.h"
#include "web/store/store.h"

namespace web::store {
namespace {

using test::openOrFail;
using StoreSeeks = test::StoreTest;

TEST_F(StoreSeeks, AreKeptListedAndTakenOnce) {
    const auto path = place("seeks.db");
    {
        auto store = openOrFail(path);
        ASSERT_TRUE(store);
        const auto ana = store->createAccount("Ana", "ana", "h", 1);
        ASSERT_TRUE(ana.ok() && ana.value());
        const StoredSeek first =
            test::seekRow("s1", "lasca", ana.value()->id, "Ana",
                          R"({"clock":{"time":180000,"increment":2000},"rated":true})", 10);
        const StoredSeek second = test::seekRow("s2", "torneio", 0, "", R"({"seats":3})", 20);
        ASSERT_TRUE(store->addSeek(second).ok());
        ASSERT_TRUE(store->addSeek(first).ok());
        EXPECT_FALSE(store->addSeek(first).ok()) << "an id is kept once";
        const auto listed = store->seeks();
        ASSERT_TRUE(listed.ok()) << listed.error();
        ASSERT_EQ(listed.value().size(), 2U);
        EXPECT_EQ(listed.value()[0], first);
        EXPECT_EQ(listed.value()[1], second);
    }
    auto store = openOrFail(path);  // kept across opens
    ASSERT_TRUE(store);
    EXPECT_EQ(store->seeks().value().size(), 2U);
    const auto taken = store->takeSeek("s1");
    ASSERT_TRUE(taken.ok());
    ASSERT_TRUE(taken.value().has_value());
    EXPECT_EQ(taken.value()->makerName, "Ana");
    EXPECT_FALSE(store->takeSeek("s1").value().has_value()) << "a seek is taken once";
    EXPECT_FALSE(store->takeSeek("nothing").value().has_value());
    ASSERT_EQ(store->seeks().value().size(), 1U);
    ASSERT_TRUE(store->clearSeeks().ok());
    EXPECT_TRUE(store->seeks().value().empty());
}

TEST_F(StoreSeeks, ATorneioOffersPlacesAreTakenInOrderUpToItsPeople) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    StoredSeek offer = test::seekRow("t1", "torneio", 0, "", R"({"seats":4,"people":4})", 5);
    offer.tab = 7;
    offer.address = "10.0.0.1";
    offer.sitters.push_back({1, "", 7, 0, "", "hash-1"});
    ASSERT_TRUE(store->addSeek(offer).ok());
    const StoredSitter bo{0, "", 8, 0, "", "hash-2"};
    const StoredSitter cy{0, "", 9, 0, "", "hash-3"};
    const auto second = store->sitDown("t1", bo, 4);
    ASSERT_TRUE(second.ok()) << second.error();
    EXPECT_EQ(second.value().place, 2);
    EXPECT_EQ(second.value().sitting, 2);
    EXPECT_EQ(store->sitDown("t1", cy, 4).value().place, 3);
    // One stands up: the next sitter takes a new place, and the count is what decides.
    ASSERT_TRUE(store->standUp("t1", 8).value());
    EXPECT_FALSE(store->standUp("t1", 8).value()) << "stood up once";
    const auto again = store->sitDown("t1", bo, 4);
    EXPECT_EQ(again.value().place, 4);
    EXPECT_EQ(again.value().sitting, 3);
    const auto last = store->sitDown("t1", {0, "", 10, 0, "", "hash-4"}, 4);
    EXPECT_EQ(last.value().place, 5);
    EXPECT_EQ(last.value().sitting, 4);
    EXPECT_EQ(store->sitDown("t1", {0, "", 11, 0, "", "h"}, 4).value().place, 0) << "full";
    const auto read = store->seek("t1");
    ASSERT_TRUE(read.ok() && read.value());
    ASSERT_EQ(read.value()->sitters.size(), 4U);
    EXPECT_EQ(read.value()->sitters[0].tokenHash, "hash-1");
    EXPECT_EQ(read.value()->sitters[1].tab, 9) << "in the order they sat";
    EXPECT_EQ(read.value()->sitters[3].place, 5);
    EXPECT_EQ(read.value()->address, "10.0.0.1");
    const auto taken = store->takeSeek("t1");
    ASSERT_TRUE(taken.ok() && taken.value());
    EXPECT_EQ(taken.value()->sitters, read.value()->sitters) << "taken with its sitters";
    EXPECT_EQ(store->sitDown("t1", {0, "", 10, 0, "", "h"}, 3).value().place, 0) << "gone";
    EXPECT_FALSE(store->seek("t1").value().has_value());
    EXPECT_EQ(store->sitDown("s9", bo, 3).value().place, 0) << "no such offer";
}

TEST_F(StoreSeeks, ThePeopleInTheLobbyAndItsGamesAreKeptAndEmptiedAtStart) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    const auto ana = store->createAccount("Ana", "ana", "h", 1);
    ASSERT_TRUE(ana.ok() && ana.value());
    const std::int64_t id = ana.value()->id;
    EXPECT_FALSE(store->inLobby(id).value());
    ASSERT_TRUE(store->enterLobby(1, id, "Ana", "ana").ok());
    ASSERT_TRUE(store->enterLobby(2, id, "Ana", "ana").ok());
    const auto found = store->lobbyPerson("ana");
    ASSERT_TRUE(found.ok() && found.value());
    EXPECT_EQ(found.value()->account, id);
    EXPECT_EQ(found.value()->name, "Ana");
    EXPECT_FALSE(store->lobbyPerson("bo").value().has_value());
    ASSERT_TRUE(store->leaveLobby(1).value());
    EXPECT_TRUE(store->inLobby(id).value()) << "a second tab is still open";
    ASSERT_TRUE(store->addLobbyGame({"g1", R"({"table":"g1"})"}, 2).value());
    ASSERT_TRUE(store->addLobbyGame({"g2", "{}"}, 2).value());
    EXPECT_FALSE(store->addLobbyGame({"g3", "{}"}, 2).value()) << "the list is full";
    EXPECT_EQ(store->lobbyGame("g1").value()->game, R"({"table":"g1"})");
    ASSERT_TRUE(store->removeLobbyGame("g2").value());
    EXPECT_FALSE(store->removeLobbyGame("g2").value());
    ASSERT_EQ(store->lobbyGames().value().size(), 1U);
    StoredSeek challenge = test::seekRow("c1", "challenge", id, "Ana", "{}", 3);
    challenge.target = id;
    challenge.targetName = "Ana";
    challenge.tokenHash = "x";
    ASSERT_TRUE(store->addSeek(challenge).ok());
    EXPECT_EQ(store->seek("c1").value()->target, id);
    // The server starts again: nothing of its tabs is left, nor its list (one server alone).
    ASSERT_TRUE(store->clearSeeks().ok());
    EXPECT_FALSE(store->inLobby(id).value());
    EXPECT_TRUE(store->seeks().value().empty());
    EXPECT_TRUE(store->lobbyGames().value().empty());
    EXPECT_FALSE(store->dropLostLobbies().value()) << "homes off: no instance is lost";
    EXPECT_EQ(store->countLobby(5).value(), 5) << "one server: its own tabs";
}

TEST_F(StoreSeeks, APublicTablesWatchTokenIsKeptWithIt) {
    auto store = openFresh();
    ASSERT_TRUE(store);
    StoredDuel duel;
    duel.id = "d1";
    duel.startLfen = "W:x";
    duel.whiteHash = "a";
    duel.blackHash = "b";
    duel.watchHash = "c";
    duel.publicWatch = "0123abcd";
    duel.created = duel.updated = 5;
    ASSERT_TRUE(store->saveDuel(duel).ok());
    const auto loaded = store->loadDuel("d1");
    ASSERT_TRUE(loaded.ok() && loaded.value());
    EXPECT_EQ(loaded.value()->publicWatch, "0123abcd");
    duel.id = "d2";
    duel.publicWatch.clear();
    ASSERT_TRUE(store->saveDuel(duel).ok());
    EXPECT_EQ(store->loadDuel("d2").value()->publicWatch, "");
}

}  // namespace
}  // namespace web::store
