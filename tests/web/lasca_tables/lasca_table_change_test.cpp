// The change record of a Lasca table: what a save writes is what the table changed, and the
// store's move rows, applied change by change, are always the table's moves.
#include <gtest/gtest.h>

#include "web/store/store.h"
#include "web/web_test_util.h"

namespace web::lasca_tables {

namespace {

using test::FakeEngineLog;
using test::lastOfType;

struct Fixture {
    std::shared_ptr<FakeEngineLog> log = std::make_shared<FakeEngineLog>();
    LascaTable table{test::fakeFactory(log)};
    std::unique_ptr<store::Store> db = std::move(store::Store::open("")).value();

    std::vector<Json> send(const Json& m) { return table.handle(m); }
    Json firstLegal() {
        return lastOfType(send({{"type", "view"}, {"ply", table.viewPly()}}), "state")["legal"].at(
            0)["move"];
    }
    // Plays the first legal move at the end of the line.
    void play() {
        const Json move = firstLegal();
        ASSERT_TRUE(
            lastOfType(send({{"type", "move"}, {"ply", table.moves().size()}, {"move", move}}),
                       "error")
                .is_null());
    }
    // Saves what changed, as the server does; the change it wrote.
    std::optional<LascaGameChange> save() {
        auto change = table.unsavedChange();
        if (!change) return change;
        EXPECT_TRUE(db->saveLascaGame(change->game, change->moves, change->tree).ok());
        table.markSaved();
        return change;
    }
    std::vector<std::string> storedMoves() {
        auto loaded = db->loadLascaGame(table.gameId());
        EXPECT_TRUE(loaded.ok());
        EXPECT_TRUE(loaded.value().has_value());
        return loaded.value() ? loaded.value()->moves : std::vector<std::string>{};
    }
};

TEST(LascaTableChange, AGameIsKeptFromItsFirstMoveThenClean) {
    Fixture f;
    f.table.hello();
    EXPECT_FALSE(f.table.unsavedChange()) << "opening the page keeps nothing";
    f.send({{"type", "settings"}, {"engine", "none"}, {"level", 2}});
    EXPECT_FALSE(f.table.unsavedChange()) << "a setting alone keeps nothing";
    EXPECT_FALSE(f.table.worthKeeping());
    f.play();
    const auto first = f.save();
    ASSERT_TRUE(first);
    EXPECT_EQ(first->moves.from, 0u);
    EXPECT_EQ(first->moves.added, f.table.moves());
    EXPECT_EQ(first->game.id, f.table.gameId());
    EXPECT_EQ(first->game.level, 2);
    EXPECT_FALSE(f.table.unsavedChange()) << "nothing changed since the save";
    ASSERT_TRUE(lastOfType(f.send({{"type", "takeback"}}), "error").is_null());
    const auto back = f.save();
    ASSERT_TRUE(back) << "a kept game stays kept without moves";
    EXPECT_TRUE(f.storedMoves().empty());
}

TEST(LascaTableChange, ASetPositionIsKeptAtOnce) {
    Fixture f;
    f.table.hello();
    const auto replies = f.send(
        {{"type", "lfen"}, {"lfen", "-,-,-,-/-,-,-/-,b,-,-/-,-,-/-,W,-,-/-,-,-/w,-,-,- w 0 1"}});
    EXPECT_TRUE(lastOfType(replies, "state")["kept"].get<bool>());
    const auto change = f.save();
    ASSERT_TRUE(change);
    EXPECT_TRUE(change->moves.added.empty());
    EXPECT_TRUE(f.storedMoves().empty());
}

TEST(LascaTableChange, AMoveAppendsItsRowOnly) {
    Fixture f;
    f.table.hello();
    f.send({{"type", "new"}, {"engine", "none"}});
    f.save();
    f.play();
    f.play();
    const auto change = f.save();
    ASSERT_TRUE(change);
    EXPECT_EQ(change->moves.from, 0u);
    EXPECT_EQ(change->moves.added, f.table.moves());
    f.play();
    const auto next = f.save();
    ASSERT_TRUE(next);
    EXPECT_EQ(next->moves.from, 2u);
    ASSERT_EQ(next->moves.added.size(), 1u);
    EXPECT_EQ(next->moves.added[0], f.table.moves().back());
    EXPECT_EQ(f.storedMoves(), f.table.moves());
}

TEST(LascaTableChange, ATakebackThenANewMoveLeavesExactlyTheTablesRows) {
    Fixture f;
    f.table.hello();
    f.send({{"type", "new"}, {"engine", "none"}});
    for (int i = 0; i < 4; ++i) f.play();
    f.save();
    ASSERT_EQ(f.storedMoves().size(), 4u);

    ASSERT_TRUE(lastOfType(f.send({{"type", "takeback"}}), "error").is_null());
    const auto back = f.save();
    ASSERT_TRUE(back);
    EXPECT_EQ(back->moves.from, 3u);
    EXPECT_TRUE(back->moves.added.empty());
    EXPECT_EQ(f.storedMoves(), f.table.moves());

    // Another move than the one taken back: the row at ply 3 is the new move.
    const Json state = lastOfType(f.send({{"type", "view"}, {"ply", 3}}), "state");
    ASSERT_GE(state["legal"].size(), 1u);
    const Json other = state["legal"].back()["move"];
    ASSERT_TRUE(
        lastOfType(f.send({{"type", "move"}, {"ply", 3}, {"move", other}}), "error").is_null());
    const auto next = f.save();
    ASSERT_TRUE(next);
    EXPECT_EQ(next->moves.from, 3u);
    EXPECT_EQ(f.storedMoves(), f.table.moves());
    EXPECT_EQ(f.table.moves().size(), 4u);
}

TEST(LascaTableChange, AMoveInThePastOnTheAnalysisBoardRewritesTheTail) {
    Fixture f;
    f.table.hello();
    f.send({{"type", "new"}, {"engine", "none"}});
    for (int i = 0; i < 4; ++i) f.play();
    f.save();
    const auto first = f.table.moves();
    const Json state = lastOfType(f.send({{"type", "view"}, {"ply", 0}}), "state");
    const Json other = state["legal"].back()["move"];
    ASSERT_NE(other, Json(first[0]));
    ASSERT_TRUE(
        lastOfType(f.send({{"type", "move"}, {"ply", 0}, {"move", other}}), "error").is_null());
    const auto change = f.save();
    ASSERT_TRUE(change);
    EXPECT_EQ(change->moves.from, 0u);
    EXPECT_EQ(change->moves.added, f.table.moves());
    EXPECT_FALSE(change->game.tree.empty()) << "the old line stays as a variation";
    EXPECT_EQ(f.storedMoves(), f.table.moves());
    // Back to the first line: its moves are written again from ply 0.
    ASSERT_TRUE(lastOfType(f.send({{"type", "line"}, {"moves", first}}), "error").is_null());
    ASSERT_EQ(f.table.moves(), first);
    const auto back = f.save();
    ASSERT_TRUE(back);
    EXPECT_EQ(back->moves.from, 0u);
    EXPECT_EQ(f.storedMoves(), first);
}

// The variations are written when the tree changed and kept as stored otherwise: following a
// line already there, or showing another, writes the row and moves but not the tree.
TEST(LascaTableChange, TheVariationsAreWrittenOnlyWhenTheyChange) {
    Fixture f;
    f.table.hello();
    f.send({{"type", "settings"}, {"engine", "none"}});
    for (int i = 0; i < 4; ++i) f.play();
    auto change = f.save();
    ASSERT_TRUE(change);
    EXPECT_EQ(change->tree, store::TreeWrite::Write);
    const auto line = f.table.moves();
    // A variation where there is a choice: the tree changed.
    std::size_t ply = 0;
    Json there = lastOfType(f.send({{"type", "view"}, {"ply", ply}}), "state");
    while (there["legal"].size() < 2 && ply + 1 < line.size())
        there = lastOfType(f.send({{"type", "view"}, {"ply", ++ply}}), "state");
    ASSERT_GE(there["legal"].size(), 2U);
    Json other = there["legal"].at(0)["move"];
    if (other == line[ply]) other = there["legal"].at(1)["move"];
    f.send({{"type", "move"}, {"ply", ply}, {"move", other}});
    change = f.save();
    ASSERT_TRUE(change);
    EXPECT_EQ(change->tree, store::TreeWrite::Write);
    EXPECT_FALSE(change->game.tree.empty());
    const std::string tree = change->game.tree;
    // Back to the main line: the moves change, the tree does not.
    f.send({{"type", "line"}, {"moves", line}});
    change = f.save();
    ASSERT_TRUE(change);
    EXPECT_EQ(change->tree, store::TreeWrite::Keep);
    EXPECT_TRUE(change->game.tree.empty()) << "its text is not even made";
    const auto loaded = f.db->loadLascaGame(f.table.gameId());
    ASSERT_TRUE(loaded.ok() && loaded.value());
    EXPECT_EQ(loaded.value()->tree, tree) << "the stored variations stay";
    EXPECT_EQ(loaded.value()->moves, line);
    // What the store holds restores the table as it is.
    LascaTable copy(test::fakeFactory(std::make_shared<FakeEngineLog>()));
    ASSERT_TRUE(copy.restore(*loaded.value()).ok());
    EXPECT_EQ(copy.stored(), f.table.stored());
}

TEST(LascaTableChange, EngineInfoAndLookingAroundWriteNothing) {
    Fixture f;
    f.table.hello();
    f.send({{"type", "new"}, {"engine", "none"}});
    f.play();
    f.play();
    f.save();
    const auto analyse = f.send({{"type", "analyse"}, {"on", true}});
    const auto change = f.save();
    ASSERT_TRUE(change) << "analysis on is part of the kept game";
    EXPECT_TRUE(change->game.analysing);
    EXPECT_EQ(change->moves.from, 2u);
    EXPECT_TRUE(change->moves.added.empty()) << "no move rows for a setting";
    f.table.onEngineLine("info depth 3 score cp 12 nodes 100 nps 1000 pv e3-f4");
    EXPECT_FALSE(f.table.unsavedChange()) << "an engine info line changes nothing kept";
    f.send({{"type", "view"}, {"ply", 1}});
    f.send({{"type", "preview"}, {"ply", 0}, {"moves", Json::array()}});
    f.send({{"type", "settings"}, {"engine", "none"}});
    EXPECT_FALSE(f.table.unsavedChange()) << "views and unchanged settings change nothing kept";
}

TEST(LascaTableChange, TheEnginesMoveIsAppended) {
    Fixture f;
    f.table.hello();
    f.send({{"type", "new"}, {"engine", "black"}, {"level", 1}});
    f.save();
    f.play();
    f.save();
    const Json state = lastOfType(f.send({{"type", "view"}, {"ply", 1}}), "state");
    const auto replies =
        f.table.onEngineLine("bestmove " + state["legal"].at(0)["move"].get<std::string>());
    ASSERT_TRUE(lastOfType(replies, "error").is_null());
    const auto change = f.save();
    ASSERT_TRUE(change);
    EXPECT_EQ(change->moves.from, 1u);
    EXPECT_EQ(change->moves.added.size(), 1u);
    EXPECT_EQ(f.storedMoves(), f.table.moves());
}

TEST(LascaTableChange, ANewGameStartsFromNoRowsUnderItsNewId) {
    Fixture f;
    f.table.hello();
    f.send({{"type", "new"}, {"engine", "none"}});
    f.play();
    f.save();
    const auto old = f.table.gameId();
    f.send({{"type", "new"}, {"engine", "none"}});
    EXPECT_FALSE(f.table.unsavedChange()) << "a new game is kept from its first move";
    f.play();
    const auto change = f.save();
    ASSERT_TRUE(change);
    EXPECT_NE(change->game.id, old);
    EXPECT_EQ(change->moves.from, 0u);
    EXPECT_EQ(f.storedMoves(), f.table.moves());
}

}  // namespace

}  // namespace web::lasca_tables
