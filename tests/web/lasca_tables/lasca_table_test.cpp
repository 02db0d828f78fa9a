// The message handling of a Lasca table (protocol.md, "The web page's WebSocket messages"):
// valid flows with a fake engine and with the real one, and every kind of bad message getting
// exactly one error reply that changes nothing.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>

#include "lasca/core/position.h"
#include "web/lasca_tables/engine_pool.h"
#include "web/web_test_util.h"

namespace web::lasca_tables {

using store::StoredLascaGame;

namespace {

using test::FakeEngineLog;
using test::lastOfType;

// R9: White to move with no piece left has lost.
constexpr const char* kWhiteHasLost = "-,-,-,-/-,-,-/-,-,-,-/-,b,-/-,-,-,-/-,-,-/-,-,-,- w";

struct Fixture {
    std::shared_ptr<FakeEngineLog> log = std::make_shared<FakeEngineLog>();
    LascaTable table{test::fakeFactory(log)};
    std::vector<Json> send(const Json& m) { return table.handle(m); }
};

Json firstLegal(const Json& state) {
    return state["legal"].at(0)["move"];
}

TEST(LascaTable, HelloListsLevelsAndTheStartPosition) {
    Fixture f;
    const auto replies = f.table.hello();
    const Json hello = lastOfType(replies, "hello");
    ASSERT_FALSE(hello.is_null());
    EXPECT_EQ(hello["levels"].size(), kLevels.size());
    const Json state = lastOfType(replies, "state");
    EXPECT_EQ(state["lfen"], std::string(lasca::kStartLfen));
    EXPECT_EQ(state["board"].size(), 22u);
    EXPECT_EQ(state["board"]["a1"], "w");
    EXPECT_FALSE(state["legal"].empty());
    for (const auto& m : state["legal"]) EXPECT_GE(m["path"].size(), 2u);
    EXPECT_EQ(f.log->started, 0) << "White moves first: no engine needed yet";
}

TEST(LascaTable, PlaysAgainstTheEngine) {
    Fixture f;
    f.table.hello();
    auto replies = f.send({{"type", "new"}, {"engine", "black"}, {"level", 1}});
    const Json move = firstLegal(lastOfType(replies, "state"));
    replies = f.send({{"type", "move"}, {"ply", 0}, {"move", move}});
    Json state = lastOfType(replies, "state");
    EXPECT_EQ(state["moves"].size(), 1u);
    EXPECT_TRUE(state["thinking"].get<bool>());
    ASSERT_EQ(f.log->started, 1);
    EXPECT_EQ(f.log->lines.back(), "go nodes " + std::to_string(kLevels[1].nodes));
    EXPECT_NE(f.log->lines[f.log->lines.size() - 2].find("moves " + move.get<std::string>()),
              std::string::npos);
    // A person's move while the engine thinks is refused.
    const auto refused = f.send({{"type", "move"}, {"ply", 1}, {"move", "e5-f4"}});
    ASSERT_EQ(refused.size(), 1u);
    EXPECT_EQ(refused[0]["type"], "error");
    const Json reply = state["legal"].at(0)["move"];
    f.table.onEngineLine(
        "info depth 1 seldepth 1 multipv 1 score cp -12 nodes 5 nps 100 time 1 "
        "hashfull 0 pv " +
        reply.get<std::string>());
    replies = f.table.onEngineLine("bestmove " + reply.get<std::string>());
    state = lastOfType(replies, "state");
    ASSERT_FALSE(state.is_null());
    ASSERT_EQ(state["moves"].size(), 2u);
    EXPECT_EQ(state["moves"][1], reply) << "a level without randomPercent plays the engine's move";
    EXPECT_EQ(state["evals"][1], 12) << "Black's -12 is White's +12";
    EXPECT_FALSE(state["thinking"].get<bool>());
    // Take back: both moves go, the person is to move again.
    replies = f.send({{"type", "takeback"}});
    state = lastOfType(replies, "state");
    EXPECT_EQ(state["moves"].size(), 0u);
}

TEST(LascaTable, TheEngineMovesFirstWhenItPlaysWhite) {
    Fixture f;
    f.table.hello();
    const auto replies = f.send({{"type", "new"}, {"engine", "white"}, {"level", 2}});
    EXPECT_TRUE(lastOfType(replies, "state")["thinking"].get<bool>());
    EXPECT_EQ(f.log->lines.back(), "go nodes " + std::to_string(kLevels[2].nodes));
}

// The Starter level's choices are pinned: the same keys give the same moves on every machine
// and in every version (splitmix64 of the key).
TEST(LevelMove, TheChoicesArePinned) {
    const Level half{"Half", 20, 50};
    const std::uint64_t keys[] = {1, 2, 3, 0x123456789abcdefULL, 0xfedcba9876543210ULL, 42};
    const std::size_t moves[] = {3, 4, 3, 3, 6, 3};
    for (std::size_t i = 0; i < std::size(keys); ++i)
        EXPECT_EQ(levelMove(half, keys[i], 3, 7), moves[i]) << keys[i];
}

TEST(LevelMove, KeepsTheEngineMoveUnlessTheLevelIsWeakened) {
    const Level full{"Full", 20};
    const Level half{"Half", 20, 50};
    int replaced = 0;
    for (std::uint64_t key = 1; key <= 2000; ++key) {
        const std::uint64_t k = key * 0x2545f4914f6cdd1dULL;
        EXPECT_EQ(levelMove(full, k, 3, 7), 3u);
        const auto m = levelMove(half, k, 3, 7);
        EXPECT_LT(m, 7u);
        EXPECT_EQ(levelMove(half, k, 3, 7), m) << "the choice depends on the position only";
        replaced += m != 3 ? 1 : 0;
    }
    // 50% of the moves are drawn, 6 in 7 of those differ from the engine's: about 857 of 2000.
    EXPECT_GT(replaced, 700);
    EXPECT_LT(replaced, 1000);
    EXPECT_EQ(levelMove(half, 12345, 0, 1), 0u) << "a single legal move stays";
}

TEST(LascaTable, AWeakenedLevelPlaysLegalMovesOnly) {
    ASSERT_GT(kLevels[0].randomPercent, 0) << "the lowest level is the weakened one";
    Fixture f;
    f.table.hello();
    auto replies = f.send({{"type", "new"}, {"engine", "white"}, {"level", 0}});
    Json state = lastOfType(replies, "state");
    ASSERT_TRUE(state["thinking"].get<bool>());
    EXPECT_EQ(f.log->lines.back(), "go nodes " + std::to_string(kLevels[0].nodes));
    // The engine answers its first legal move each time; the table may play another one.
    int replaced = 0;
    for (int ply = 0; ply < 40 && !state["status"]["over"].get<bool>(); ply += 2) {
        const Json engine = firstLegal(state);
        replies = f.table.onEngineLine("bestmove " + engine.get<std::string>());
        state = lastOfType(replies, "state");
        ASSERT_FALSE(state.is_null());
        ASSERT_EQ(state["moves"].size(), static_cast<std::size_t>(ply + 1));
        replaced += state["moves"].back() != engine ? 1 : 0;
        if (state["status"]["over"].get<bool>()) break;
        replies = f.send({{"type", "move"}, {"ply", ply + 1}, {"move", firstLegal(state)}});
        state = lastOfType(replies, "state");
        ASSERT_EQ(state["moves"].size(), static_cast<std::size_t>(ply + 2));
    }
    EXPECT_GT(replaced, 0) << "some of the engine's moves gave way";
}

TEST(LascaTable, AnalysisFollowsTheShownPositionAndDropsStaleLines) {
    Fixture f;
    f.table.hello();
    f.send({{"type", "new"}, {"engine", "none"}});
    auto replies = f.send({{"type", "analyse"}, {"on", true}, {"multipv", 3}});
    EXPECT_TRUE(lastOfType(replies, "state")["analysing"].get<bool>());
    EXPECT_EQ(f.log->lines.back(), "go infinite");
    EXPECT_NE(std::find(f.log->lines.begin(), f.log->lines.end(), "setoption name MultiPV value 3"),
              f.log->lines.end());
    // A depth's lines reach the page together, once its last rank is in: never a new depth's
    // first line beside the old depth's others (which may repeat its move).
    auto line = [](int depth, int rank, const std::string& pv) {
        return "info depth " + std::to_string(depth) + " seldepth 2 multipv " +
               std::to_string(rank) + " score cp 5 nodes 50 nps 1000 time 1 hashfull 0 pv " + pv;
    };
    EXPECT_TRUE(lastOfType(f.table.onEngineLine(line(2, 1, "e3-f4 g5-h4")), "analysis").is_null());
    EXPECT_TRUE(lastOfType(f.table.onEngineLine(line(2, 2, "c3-d4 e5-f4")), "analysis").is_null());
    replies = f.table.onEngineLine(line(2, 3, "c3-b4 a5xc3"));
    const Json analysis = lastOfType(replies, "analysis");
    ASSERT_FALSE(analysis.is_null());
    ASSERT_EQ(analysis["lines"].size(), 3u);
    EXPECT_EQ(analysis["lines"][0]["pv"][0], "e3-f4");
    EXPECT_EQ(analysis["lines"][1]["pv"][1], "e5-f4");
    EXPECT_EQ(analysis["lines"][2]["pv"][0], "c3-b4");
    EXPECT_TRUE(lastOfType(f.table.onEngineLine(line(3, 1, "c3-d4 e5-f4")), "analysis").is_null());
    // A move: the running search is stopped, its lines are dropped, a new one starts.
    const Json move = firstLegal(lastOfType(f.table.hello(), "state"));
    f.send({{"type", "move"}, {"ply", 0}, {"move", move}});
    EXPECT_EQ(f.log->lines[f.log->lines.size() - 3], "stop");
    EXPECT_EQ(f.log->lines.back(), "go infinite");
    EXPECT_EQ(f.table.pendingSearches(), 2u);
    EXPECT_TRUE(f.table
                    .onEngineLine("info depth 3 seldepth 3 multipv 1 score cp 5 nodes 50 nps "
                                  "1 time 1 hashfull 0 pv c3-d4")
                    .empty());
    EXPECT_TRUE(f.table.onEngineLine("bestmove c3-d4").empty());
    EXPECT_EQ(f.table.pendingSearches(), 1u);
    replies = f.send({{"type", "analyse"}, {"on", false}});
    EXPECT_EQ(f.log->lines.back(), "stop");
}

// The engine's `info string table ...` line (EgtbPath) before a search: that search's analysis
// messages carry the table's result; the next search's do not unless the engine says it again.
TEST(LascaTable, AnalysisCarriesTheTablesResultTheEngineSaid) {
    Fixture f;
    f.table.hello();
    f.send({{"type", "new"}, {"engine", "none"}});
    f.send({{"type", "analyse"}, {"on", true}});
    const std::string info =
        "info depth 2 seldepth 2 multipv 1 score mate 3 nodes 50 nps 1000 time 1 hashfull 0 pv ";
    EXPECT_TRUE(f.table.onEngineLine("info string table White wins in 5 plies").empty());
    Json analysis = lastOfType(f.table.onEngineLine(info + "c3-d4"), "analysis");
    ASSERT_FALSE(analysis.is_null());
    EXPECT_EQ(analysis["table"], "White wins in 5 plies");
    const Json move = firstLegal(lastOfType(f.table.hello(), "state"));
    f.send({{"type", "move"}, {"ply", 0}, {"move", move}});
    f.table.onEngineLine("bestmove c3-d4");
    analysis = lastOfType(f.table.onEngineLine(info + "e5-f4"), "analysis");
    ASSERT_FALSE(analysis.is_null());
    EXPECT_FALSE(analysis.contains("table")) << analysis.dump();
}

TEST(LascaTable, PreviewShowsAPrincipalVariationWithoutPlayingIt) {
    Fixture f;
    f.table.hello();
    const auto state = lastOfType(f.send({{"type", "new"}, {"engine", "none"}}), "state");
    const Json move = firstLegal(state);
    const auto replies = f.send({{"type", "preview"}, {"ply", 0}, {"moves", {move}}});
    const Json preview = lastOfType(replies, "preview");
    ASSERT_FALSE(preview.is_null());
    EXPECT_NE(preview["lfen"], std::string(lasca::kStartLfen));
    EXPECT_EQ(preview["lastMove"].size(), 2u);
    EXPECT_TRUE(f.table.moves().empty());
}

TEST(LascaTable, LfenAndTheEndOfAGame) {
    Fixture f;
    f.table.hello();
    f.send({{"type", "new"}, {"engine", "black"}});
    const auto replies = f.send({{"type", "lfen"}, {"lfen", kWhiteHasLost}});
    const Json state = lastOfType(replies, "state");
    EXPECT_TRUE(state["status"]["over"].get<bool>());
    EXPECT_EQ(state["status"]["rule"], "R9");
    EXPECT_EQ(state["status"]["result"], "0-2");
    EXPECT_TRUE(state["legal"].empty());
    EXPECT_EQ(f.log->started, 0);
}

TEST(LascaTable, PdnExportAndImportGiveTheSameGame) {
    Fixture f;
    f.table.hello();
    Json state = lastOfType(f.send({{"type", "new"}, {"engine", "none"}}), "state");
    for (int ply = 0; ply < 6; ++ply) {
        const Json move = firstLegal(state);
        state = lastOfType(f.send({{"type", "move"}, {"ply", ply}, {"move", move}}), "state");
    }
    const Json pdn = lastOfType(f.send({{"type", "pdn.export"}}), "pdn");
    ASSERT_FALSE(pdn.is_null());
    Fixture g;
    g.table.hello();
    const Json imported =
        lastOfType(g.send({{"type", "pdn.import"}, {"pdn", pdn["pdn"]}}), "state");
    EXPECT_EQ(imported["moves"], state["moves"]);
    EXPECT_EQ(imported["lfen"], state["lfen"]);
}

// Plays `moves` texts in order from the shown position (engine none).
Json playLine(Fixture& f, const std::vector<std::string>& moves, int from) {
    Json state;
    for (std::size_t i = 0; i < moves.size(); ++i)
        state = lastOfType(
            f.send({{"type", "move"}, {"ply", from + static_cast<int>(i)}, {"move", moves[i]}}),
            "state");
    return state;
}

// On the analysis board a move at an earlier position starts a variation and keeps
// the main line; lines are shown, promoted and deleted; PDN carries them both ways.
TEST(LascaTable, VariationsOnTheAnalysisBoard) {
    Fixture f;
    f.table.hello();
    f.send({{"type", "new"}, {"engine", "none"}});
    const Json main = {"c3-d4", "e5xc3", "d2xb4", "g5-f4"};
    Json state = playLine(f, main, 0);
    ASSERT_EQ(state["moves"], main);
    state = playLine(f, {"d6-e5"}, 3);  // instead of g5-f4
    const Json other = {"c3-d4", "e5xc3", "d2xb4", "d6-e5"};
    EXPECT_EQ(state["moves"], other);
    EXPECT_EQ(state["ply"], 4);
    const Json tree = state["tree"];
    EXPECT_EQ(tree["moves"], main) << "the main line kept";
    ASSERT_EQ(tree["variations"].size(), 1u);
    EXPECT_EQ(tree["variations"][0]["at"], 3);
    EXPECT_EQ(tree["variations"][0]["line"]["moves"], (Json{"d6-e5"}));
    // Playing a move that is already there follows its line.
    state = lastOfType(f.send({{"type", "move"}, {"ply", 3}, {"move", "g5-f4"}}), "state");
    EXPECT_EQ(state["moves"], main);
    EXPECT_EQ(state["ply"], 4);
    EXPECT_EQ(state["tree"], tree) << "nothing new";
    // A click on a move of the variation shows its line there; on an earlier move, the line
    // goes on along the main continuation.
    state = lastOfType(f.send({{"type", "line"}, {"moves", other}}), "state");
    EXPECT_EQ(state["moves"], other);
    EXPECT_EQ(state["ply"], 4);
    state = lastOfType(f.send({{"type", "line"}, {"moves", {"c3-d4"}}}), "state");
    EXPECT_EQ(state["moves"], main);
    EXPECT_EQ(state["ply"], 1);
    f.send({{"type", "line"}, {"moves", other}});
    // The PDN: the shown line as the main line, the other as a variation; read back the same.
    const std::string pdn = lastOfType(f.send({{"type", "pdn.export"}}), "pdn")["pdn"];
    EXPECT_NE(pdn.find("1. c3-d4 e5xc3 2. d2xb4 d6-e5 (2... g5-f4) *"), std::string::npos) << pdn;
    Fixture g;
    g.table.hello();
    Json imported = lastOfType(g.send({{"type", "pdn.import"}, {"pdn", pdn}}), "state");
    EXPECT_EQ(imported["moves"], other);
    ASSERT_EQ(imported["tree"]["variations"].size(), 1u);
    EXPECT_EQ(imported["tree"]["variations"][0]["line"]["moves"], (Json{"g5-f4"}));
    // Promote: the variation becomes the main line; the line shown stays.
    state = lastOfType(f.send({{"type", "promote"}, {"moves", other}}), "state");
    EXPECT_EQ(state["tree"]["moves"], other);
    EXPECT_EQ(state["moves"], other);
    // Delete the shown line's last move: back to what is left at its parent.
    state = lastOfType(f.send({{"type", "delete"}, {"moves", other}}), "state");
    EXPECT_EQ(state["moves"], main);
    EXPECT_EQ(state["ply"], 3);
    EXPECT_TRUE(state["tree"]["variations"].empty());
    // The tree is kept with the game (a reload or a restart).
    f.send({{"type", "move"}, {"ply", 3}, {"move", "c5-d4"}});
    const StoredLascaGame stored = f.table.stored();
    Fixture h;
    ASSERT_TRUE(h.table.restore(stored).ok());
    EXPECT_EQ(lastOfType(h.table.hello(), "state")["tree"],
              lastOfType(f.table.hello(), "state")["tree"]);
    EXPECT_EQ(lastOfType(h.table.hello(), "state")["tree"]["variations"].size(), 1u);
}

// Against the engine a move in the past replaces the rest: no variation is kept.
TEST(LascaTable, AMoveInThePastAgainstTheEngineReplacesTheRest) {
    Fixture f;
    f.table.hello();
    f.send({{"type", "new"}, {"engine", "black"}});
    f.send({{"type", "move"}, {"ply", 0}, {"move", "c3-d4"}});
    f.table.onEngineLine("bestmove f6-e5");
    Json state = lastOfType(f.send({{"type", "move"}, {"ply", 0}, {"move", "a3-b4"}}), "state");
    EXPECT_EQ(state["moves"], (Json{"a3-b4"}));
    EXPECT_EQ(state["tree"]["moves"], (Json{"a3-b4"}));
    EXPECT_TRUE(state["tree"]["variations"].empty());
}

// What the store keeps restores: a game's comments without any variation, and variations nested
// far deeper than PDN reads (each one started inside the last, as a person can on the page).
TEST(LascaTable, CommentsAndDeepVariationsAreKept) {
    Fixture f;
    f.table.hello();
    lastOfType(f.send({{"type", "pdn.import"}, {"pdn", "1. c3-d4 {a plan} e5xc3 *"}}), "state");
    StoredLascaGame stored = f.table.stored();
    ASSERT_FALSE(stored.tree.empty()) << "the comment is kept";
    Fixture g;
    ASSERT_TRUE(g.table.restore(stored).ok());
    EXPECT_EQ(lastOfType(g.table.hello(), "state")["tree"]["comments"][0], "a plan");

    Fixture d;
    d.table.hello();
    Json state = lastOfType(d.send({{"type", "new"}, {"engine", "none"}}), "state");
    int nested = 0;
    for (int ply = 0; ply < 300 && nested < 40 && !state["legal"].empty(); ++ply) {
        if (state["legal"].size() >= 2) {  // the first move, then another one beside it
            d.send({{"type", "move"}, {"ply", ply}, {"move", state["legal"][0]["move"]}});
            state = lastOfType(
                d.send({{"type", "move"}, {"ply", ply}, {"move", state["legal"][1]["move"]}}),
                "state");
            ++nested;
        } else {
            state = lastOfType(
                d.send({{"type", "move"}, {"ply", ply}, {"move", state["legal"][0]["move"]}}),
                "state");
        }
    }
    ASSERT_EQ(nested, 40);
    stored = d.table.stored();
    Fixture h;
    const auto restored = h.table.restore(stored);
    ASSERT_TRUE(restored.ok()) << restored.error();
    EXPECT_EQ(h.table.stored(), stored);
}

// A stored tree that is not a legal game (a file edited by hand) is refused on restore.
TEST(LascaTable, RestoreRefusesABadTree) {
    Fixture f;
    f.table.hello();
    f.send({{"type", "new"}, {"engine", "none"}});
    playLine(f, {"c3-d4", "e5xc3"}, 0);
    playLine(f, {"a3-b4"}, 0);
    StoredLascaGame stored = f.table.stored();
    ASSERT_FALSE(stored.tree.empty());
    for (const std::string bad : {"{", "[]", R"({"moves":["c3-d4","z9-z8"]})",
                                  R"({"moves":["c3-d4","e5xc3"]})"}) {  // without the line
        stored.tree = bad;
        Fixture g;
        EXPECT_FALSE(g.table.restore(stored).ok()) << bad;
    }
}

TEST(LascaTable, ViewAndNavigation) {
    Fixture f;
    f.table.hello();
    Json state = lastOfType(f.send({{"type", "new"}, {"engine", "none"}}), "state");
    state =
        lastOfType(f.send({{"type", "move"}, {"ply", 0}, {"move", firstLegal(state)}}), "state");
    state = lastOfType(f.send({{"type", "view"}, {"ply", 0}}), "state");
    EXPECT_EQ(state["lfen"], std::string(lasca::kStartLfen));
    EXPECT_EQ(state["moves"].size(), 1u);
    // A move from an earlier position replaces the rest of the game.
    const Json other = state["legal"].back()["move"];
    state = lastOfType(f.send({{"type", "move"}, {"ply", 0}, {"move", other}}), "state");
    EXPECT_EQ(state["moves"], Json::array({other}));
}

TEST(LascaTable, EngineThatCannotStartIsAnErrorReply) {
    Fixture f;
    f.log->refuse = true;
    f.table.hello();
    const auto replies = f.send({{"type", "analyse"}, {"on", true}});
    EXPECT_FALSE(lastOfType(replies, "error").is_null());
    EXPECT_FALSE(lastOfType(replies, "state").is_null());
}

// Each game started has its own id, carried by `state`; a takeback keeps it.
TEST(LascaTable, EachGameHasItsOwnId) {
    int next = 0;
    auto log = std::make_shared<FakeEngineLog>();
    LascaTable table(test::fakeFactory(log), [&next] { return "g" + std::to_string(++next); });
    EXPECT_EQ(lastOfType(table.hello(), "state")["gameId"], "g1");
    auto state = lastOfType(table.handle({{"type", "new"}, {"engine", "none"}}), "state");
    EXPECT_EQ(state["gameId"], "g2");
    state = lastOfType(table.handle({{"type", "move"}, {"ply", 0}, {"move", firstLegal(state)}}),
                       "state");
    EXPECT_EQ(state["gameId"], "g2");
    EXPECT_EQ(lastOfType(table.handle({{"type", "takeback"}}), "state")["gameId"], "g2");
    EXPECT_EQ(
        lastOfType(table.handle({{"type", "lfen"}, {"lfen", kWhiteHasLost}}), "state")["gameId"],
        "g3");
    LascaTable defaults(test::fakeFactory(log));
    EXPECT_EQ(defaults.gameId().size(), 16u);  // 8 random bytes as hex
    EXPECT_NE(LascaTable(test::fakeFactory(log)).gameId(), defaults.gameId());
}

// A stored game comes back whole in another table: moves, settings, analysis; the engine is
// asked again for the move it owed.
TEST(LascaTable, AStoredGameIsRestoredInAnotherTable) {
    Fixture f;
    f.table.hello();
    auto state = lastOfType(f.send({{"type", "new"}, {"engine", "black"}, {"level", 2}}), "state");
    state =
        lastOfType(f.send({{"type", "move"}, {"ply", 0}, {"move", firstLegal(state)}}), "state");
    ASSERT_TRUE(state["thinking"].get<bool>());
    const StoredLascaGame kept = f.table.stored();
    EXPECT_EQ(kept.id, f.table.gameId());
    EXPECT_EQ(kept.moves.size(), 1u);
    EXPECT_EQ(kept.engine, "black");
    EXPECT_EQ(kept.level, 2);
    EXPECT_EQ(kept.result, "*");

    Fixture other;
    other.table.hello();
    auto restored = other.table.restore(kept);
    ASSERT_TRUE(restored.ok()) << restored.error();
    const Json back = lastOfType(restored.value(), "state");
    EXPECT_EQ(back["gameId"], kept.id);
    EXPECT_EQ(back["moves"], state["moves"]);
    EXPECT_EQ(back["engine"], "black");
    EXPECT_EQ(back["level"], 2);
    EXPECT_TRUE(back["thinking"].get<bool>());
    EXPECT_EQ(other.log->lines.back(), "go nodes " + std::to_string(kLevels[2].nodes));
    EXPECT_TRUE(other.table.stored() == kept);

    // A stored game that is not a legal game is refused and changes nothing.
    const std::vector<std::function<void(StoredLascaGame&)>> spoil = {
        [](StoredLascaGame& g) { g.moves.push_back("a1-h8"); },
        [](StoredLascaGame& g) { g.startLfen = "nonsense"; },
        [](StoredLascaGame& g) { g.engine = "green"; }, [](StoredLascaGame& g) { g.level = 99; },
        [](StoredLascaGame& g) { g.multiPv = 0; }};
    for (const auto& change : spoil) {
        StoredLascaGame bad = kept;
        change(bad);
        bad.id = "bad";
        EXPECT_FALSE(other.table.restore(bad).ok());
        EXPECT_TRUE(other.table.stored() == kept);
    }
}

// An engine that dies is replaced and asked again (its move, or the analysis): the page is told
// "engine restarted", the dead engine's analysis lines are cleared at once. After three deaths
// within a minute it stays off, and every try says so; a retry or a new game tries again.
TEST(LascaTable, ADeadEngineIsRestartedAndAskedAgain) {
    Fixture f;
    f.table.hello();
    auto first = lastOfType(f.send({{"type", "new"}, {"engine", "black"}, {"level", 1}}), "state");
    f.send({{"type", "move"}, {"ply", 0}, {"move", firstLegal(first)}});
    ASSERT_EQ(f.log->started, 1);
    auto replies = f.table.onEngineClosed();
    EXPECT_EQ(f.log->started, 2);
    EXPECT_EQ(lastOfType(replies, "engine")["text"], "engine restarted");
    EXPECT_TRUE(lastOfType(replies, "analysis")["lines"].empty());
    EXPECT_TRUE(lastOfType(replies, "state")["thinking"].get<bool>());
    EXPECT_EQ(f.log->lines.back(), "go nodes " + std::to_string(kLevels[1].nodes));

    f.table.onEngineClosed();
    EXPECT_EQ(f.log->started, 3);
    replies = f.table.onEngineClosed();  // the third death in a row
    EXPECT_EQ(f.log->started, 3);
    EXPECT_TRUE(lastOfType(replies, "engine").is_null());
    EXPECT_FALSE(lastOfType(replies, "error").is_null());
    EXPECT_FALSE(lastOfType(replies, "state")["thinking"].get<bool>());
    replies = f.send({{"type", "analyse"}, {"on", true}});
    EXPECT_NE(lastOfType(replies, "error")["message"].get<std::string>().find(
                  "failed 3 times within a minute"),
              std::string::npos);
    f.send({{"type", "analyse"}, {"on", false}});
    EXPECT_TRUE(lastOfType(replies, "state")["engineUnavailable"].get<bool>());
    // The game never stalls: take back, or play on as both sides.
    auto state = lastOfType(f.send({{"type", "settings"}, {"engine", "none"}}), "state");
    EXPECT_EQ(state["sideToMove"], "black");
    EXPECT_EQ(lastOfType(f.send({{"type", "move"}, {"ply", 1}, {"move", firstLegal(state)}}),
                         "state")["moves"]
                  .size(),
              2u);
    // Retry: the engine is started again and asked.
    f.send({{"type", "settings"}, {"engine", "white"}});
    replies = f.send({{"type", "retry"}});
    EXPECT_EQ(f.log->started, 4);
    EXPECT_FALSE(lastOfType(replies, "state")["engineUnavailable"].get<bool>());
    EXPECT_TRUE(lastOfType(replies, "state")["thinking"].get<bool>());
    f.table.onEngineClosed();
    f.table.onEngineClosed();
    f.table.onEngineClosed();
    f.send({{"type", "new"}, {"engine", "white"}, {"level", 1}});  // a new game tries again
    EXPECT_EQ(f.log->started, 7);
}

// Failures count within a minute (a virtual clock): deaths spread out keep the engine on; three
// within kEngineFailureWindow turn it off, and time alone does not bring it back (a retry does).
TEST(LascaTable, EngineFailuresCountWithinAMinute) {
    auto log = std::make_shared<FakeEngineLog>();
    auto now = std::chrono::steady_clock::time_point{};
    LascaTable table(test::fakeFactory(log), {}, [&now] { return now; });
    table.hello();
    auto state =
        lastOfType(table.handle({{"type", "new"}, {"engine", "white"}, {"level", 1}}), "state");
    ASSERT_TRUE(state["thinking"].get<bool>());
    for (int i = 0; i < 5; ++i) {  // one death every 31 s: never three within a minute
        now += std::chrono::seconds(31);
        const auto replies = table.onEngineClosed();
        EXPECT_EQ(lastOfType(replies, "engine")["text"], "engine restarted") << i;
        EXPECT_FALSE(lastOfType(replies, "state")["engineUnavailable"].get<bool>());
    }
    table.onEngineClosed();  // with the last one: three within 60 s
    now += std::chrono::seconds(2);
    const auto replies = table.onEngineClosed();
    EXPECT_TRUE(lastOfType(replies, "engine").is_null());
    EXPECT_TRUE(lastOfType(replies, "state")["engineUnavailable"].get<bool>());
    const int started = log->started;
    now += std::chrono::minutes(5);
    table.handle({{"type", "analyse"}, {"on", true}});
    EXPECT_EQ(log->started, started) << "only a retry or a new game tries again";
    table.handle({{"type", "retry"}});
    EXPECT_EQ(log->started, started + 1);
}

// Whole-game annotation: every position searched at the given nodes, one after the other; the
// marks come from the drop in the mover's winning chance (lasca/analysis.h) and go with the
// evaluations into the state and the PDN; a changed game or `cancel` ends it.
TEST(LascaTable, AWholeGameIsAnnotatedPositionByPosition) {
    Fixture f;
    f.table.hello();
    f.send({{"type", "settings"}, {"engine", "none"}});
    Json state =
        lastOfType(f.send({{"type", "lfen"},
                           {"lfen", "b,-,b,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/w,-,w,- w 0 1"}}),
                   "state");
    std::vector<Json> legal = {state["legal"]};  // the legal moves of each position
    for (int i = 0; i < 3; ++i) {
        state = lastOfType(f.send({{"type", "move"},
                                   {"ply", i},
                                   {"move", state["legal"].at(state["legal"].size() - 1)["move"]}}),
                           "state");
        legal.push_back(state["legal"]);
    }
    const auto moves = state["moves"].get<std::vector<std::string>>();
    EXPECT_EQ(lastOfType(f.send({{"type", "annotate"}, {"nodes", 0}}), "error").is_null(), false);
    auto replies = f.send({{"type", "annotate"}, {"nodes", 500}});
    ASSERT_EQ(lastOfType(replies, "annotate")["event"], "started");
    EXPECT_EQ(f.log->lines.back(), "go nodes 500");
    EXPECT_TRUE(lastOfType(replies, "state")["annotating"].is_object());
    // Scores from the side to move's view: Black's second move (ply 1) throws away 6 soldiers
    // and is not the engine's choice there: a blunder. White's moves lose nothing.
    const std::vector<int> cp = {0, 0, 600, -600};
    const std::vector<std::string> best = {moves[0],
                                           legal[1].at(legal[1].size() - 1)["move"] == moves[1]
                                               ? legal[1].at(0)["move"]
                                               : legal[1].at(legal[1].size() - 1)["move"],
                                           moves[2], legal[3].at(0)["move"]};
    ASSERT_NE(best[1], moves[1]);
    for (std::size_t ply = 0; ply < 4; ++ply) {
        const std::string position = f.log->lines[f.log->lines.size() - 2];
        EXPECT_EQ(position.find(" moves") == std::string::npos, ply == 0) << position;
        f.table.onEngineLine("info depth 6 seldepth 6 multipv 1 score cp " +
                             std::to_string(cp[ply]) + " nodes 500 nps 1000 pv " + best[ply]);
        replies = f.table.onEngineLine("bestmove " + best[ply]);
        EXPECT_EQ(lastOfType(replies, "annotate")["done"], ply + 1);
    }
    EXPECT_EQ(lastOfType(replies, "annotate")["event"], "done");
    state = lastOfType(replies, "state");
    EXPECT_TRUE(state["annotating"].is_null());
    EXPECT_EQ(state["marks"], Json::array({"", "??", ""}));
    EXPECT_EQ(state["evals"], Json::array({0, 0, 600, 600}));
    const std::string pdn = lastOfType(f.send({{"type", "pdn.export"}}), "pdn")["pdn"];
    EXPECT_NE(pdn.find(moves[1] + "?? {[%eval 6.00]}"), std::string::npos) << pdn;
    EXPECT_NE(pdn.find(moves[0] + " {[%eval 0.00]}"), std::string::npos) << pdn;

    // Cancelled by the page, and ended by a change of the game; the marks go with their game.
    f.send({{"type", "annotate"}, {"nodes", 100}});
    replies = f.send({{"type", "annotate"}, {"cancel", true}});
    EXPECT_EQ(lastOfType(replies, "annotate")["event"], "cancelled");
    EXPECT_EQ(f.log->lines.back(), "stop");
    EXPECT_FALSE(lastOfType(f.send({{"type", "annotate"}, {"cancel", true}}), "error").is_null());
    f.send({{"type", "annotate"}, {"nodes", 100}});
    replies = f.send({{"type", "takeback"}});
    EXPECT_EQ(lastOfType(replies, "annotate")["event"], "cancelled");
    EXPECT_EQ(lastOfType(replies, "state")["marks"], Json::array({"", ""}));
}

// The tree holds every position: a move makes one, the engine's move one, and looking at the
// game makes none (views, lines, takebacks, analysis and a whole-game annotation are look-ups).
TEST(LascaTable, AMoveMakesOnePositionAndLookingAtTheGameNone) {
    Fixture f;
    f.table.hello();
    Json state = lastOfType(f.send({{"type", "new"}, {"engine", "none"}}), "state");
    for (int ply = 0; ply < 40 && !state["status"]["over"].get<bool>(); ++ply) {
        const auto made = f.table.tree().positionsMade();
        const auto& legal = state["legal"];
        state = lastOfType(f.send({{"type", "move"},
                                   {"ply", ply},
                                   {"move", legal.at(static_cast<std::size_t>(ply) % legal.size())["move"]}}),
                           "state");
        ASSERT_EQ(f.table.tree().positionsMade(), made + 1) << "ply " << ply;
    }
    const auto plies = state["moves"].size();
    ASSERT_GE(plies, 10U);
    const auto made = f.table.tree().positionsMade();
    f.send({{"type", "analyse"}, {"on", true}});
    for (std::size_t ply = 0; ply <= plies; ++ply) {
        f.send({{"type", "view"}, {"ply", ply}});
        f.table.onEngineLine("info depth 3 seldepth 3 multipv 1 score cp 5 nodes 50 nps 100 pv x");
    }
    f.send({{"type", "analyse"}, {"on", false}});
    // A variation where there is a choice and back to the main line: the variation's move is
    // the one made.
    const auto line = state["moves"].get<std::vector<std::string>>();
    std::size_t at = 1;
    Json there = lastOfType(f.send({{"type", "view"}, {"ply", at}}), "state");
    while (there["legal"].size() < 2 && at + 1 < plies)
        there = lastOfType(f.send({{"type", "view"}, {"ply", ++at}}), "state");
    ASSERT_GE(there["legal"].size(), 2U);
    Json other = there["legal"].at(0)["move"];
    if (other == line[at]) other = there["legal"].at(1)["move"];
    f.send({{"type", "move"}, {"ply", at}, {"move", other}});
    EXPECT_EQ(f.table.tree().positionsMade(), made + 1);
    f.send({{"type", "line"}, {"moves", line}});
    EXPECT_EQ(f.table.moves(), line);
    // The fake engine answers the stopped analyses first (each search gets its bestmove), then
    // each position of the annotation.
    f.send({{"type", "annotate"}, {"nodes", 100}});
    bool done = false;
    for (int answers = 0; answers < 1000 && !done && f.table.pendingSearches() > 0; ++answers) {
        f.table.onEngineLine("info depth 4 seldepth 4 multipv 1 score cp 10 nodes 100 nps 100 pv x");
        const Json annotate = lastOfType(f.table.onEngineLine("bestmove x"), "annotate");
        done = !annotate.is_null() && annotate["event"] == "done";
    }
    EXPECT_TRUE(done);
    f.send({{"type", "takeback"}});
    f.send({{"type", "takeback"}});
    EXPECT_EQ(f.table.moves().size(), plies - 2);
    EXPECT_EQ(f.table.tree().positionsMade(), made + 1) << "only the variation's move was made";
}

// How often `what` occurs in `text`.
std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t count = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
    return count;
}

// PDN holds one evaluation per move, the annotation's: none for a game against the engine that
// was not annotated (the scores it reported while it played are not written); an imported
// move's evaluation kept once; an annotation's score replaces it, and a round trip adds none.
TEST(LascaTable, PdnHoldsOneEvaluationPerMoveReplacedNeverAppended) {
    Fixture f;
    f.table.hello();
    Json state = lastOfType(f.send({{"type", "new"}, {"engine", "black"}, {"level", 1}}), "state");
    const std::string move = firstLegal(state);
    state = lastOfType(f.send({{"type", "move"}, {"ply", 0}, {"move", move}}), "state");
    const std::string reply = state["legal"].at(0)["move"];
    f.table.onEngineLine("info depth 1 seldepth 1 multipv 1 score cp -12 nodes 5 nps 100 pv " +
                         reply);
    state = lastOfType(f.table.onEngineLine("bestmove " + reply), "state");
    ASSERT_EQ(state["moves"].size(), 2u);
    ASSERT_EQ(state["evals"][1], 12) << "the engine's score is shown on the page";
    std::string pdn = lastOfType(f.send({{"type", "pdn.export"}}), "pdn")["pdn"];
    EXPECT_EQ(pdn.find("[%eval"), std::string::npos) << "nothing was annotated:\n" << pdn;

    // Imported: the first move with two evaluations (as an older export wrote them), the second
    // with one beside a note.
    const std::string imported = "[GameType \"Lasca\"]\n\n1. " + move +
                                 " {[%eval 1.53]} {[%eval 0.91]} " + reply +
                                 " {[%eval -0.20] a note} *\n";
    state = lastOfType(f.send({{"type", "pdn.import"}, {"pdn", imported}}), "state");
    ASSERT_EQ(state["moves"], Json::array({move, reply}));
    const std::string third = firstLegal(state);
    pdn = lastOfType(f.send({{"type", "pdn.export"}}), "pdn")["pdn"];
    EXPECT_EQ(occurrences(pdn, "[%eval"), 2u) << pdn;
    EXPECT_NE(pdn.find(move + " {[%eval 0.91]}"), std::string::npos) << pdn;
    EXPECT_NE(pdn.find(reply + " {[%eval -0.20] a note}"), std::string::npos) << pdn;

    // Annotated (scores from the side to move's view; each move the engine's own): its scores
    // replace the imported ones, the note stays.
    f.send({{"type", "annotate"}, {"nodes", 100}});
    const std::vector<std::pair<int, std::string>> searches = {
        {30, move}, {20, reply}, {50, third}};
    std::vector<Json> replies;
    for (const auto& [cp, best] : searches) {
        f.table.onEngineLine("info depth 3 seldepth 3 multipv 1 score cp " + std::to_string(cp) +
                             " nodes 100 nps 1000 pv " + best);
        replies = f.table.onEngineLine("bestmove " + best);
    }
    ASSERT_TRUE(lastOfType(replies, "state")["annotated"].get<bool>());
    pdn = lastOfType(f.send({{"type", "pdn.export"}}), "pdn")["pdn"];
    EXPECT_EQ(occurrences(pdn, "[%eval"), 2u) << pdn;
    EXPECT_NE(pdn.find(move + " {[%eval -0.20]}"), std::string::npos) << pdn;
    EXPECT_NE(pdn.find(reply + " {[%eval 0.50] a note}"), std::string::npos) << pdn;

    // The export imported and exported again: still one evaluation per move.
    f.send({{"type", "pdn.import"}, {"pdn", pdn}});
    const std::string again = lastOfType(f.send({{"type", "pdn.export"}}), "pdn")["pdn"];
    EXPECT_EQ(occurrences(again, "[%eval"), 2u) << again;
    EXPECT_NE(again.find(reply + " {[%eval 0.50] a note}"), std::string::npos) << again;
}

// Every kind of bad message: one error reply, nothing changed, nothing sent to the engine.
TEST(LascaTable, EveryBadMessageGetsOneErrorAndChangesNothing) {
    Fixture f;
    f.table.hello();
    Json state = lastOfType(f.send({{"type", "new"}, {"engine", "none"}}), "state");
    state =
        lastOfType(f.send({{"type", "move"}, {"ply", 0}, {"move", firstLegal(state)}}), "state");
    f.send({{"type", "analyse"}, {"on", true}, {"multipv", 2}});
    const auto linesBefore = f.log->lines.size();
    const auto movesBefore = f.table.moves().size();
    const auto lfenBefore = f.table.position().toLfen();
    const std::vector<std::string> bad = {
        "",
        "not json",
        "[1,2,3]",
        "42",
        "{}",
        R"({"type":7})",
        R"({"type":"fly"})",
        R"({"type":"move"})",
        R"({"type":"move","ply":1})",
        R"({"type":"move","ply":1,"move":"z9-z8"})",
        R"({"type":"move","ply":1,"move":"c3-e5"})",
        R"({"type":"move","ply":-1,"move":"c3-d4"})",
        R"({"type":"move","ply":99,"move":"c3-d4"})",
        R"({"type":"move","ply":1.5,"move":"c3-d4"})",
        R"({"type":"move","ply":"1","move":"c3-d4"})",
        R"({"type":"move","ply":18446744073709551615,"move":"c3-d4"})",
        R"({"type":"move","ply":1,"move":["c3-d4"]})",
        R"({"type":"move","ply":1,"move":"c3-d4","extra":1})",
        R"({"type":"view","ply":2})",
        R"({"type":"view"})",
        R"({"type":"analyse"})",
        R"({"type":"analyse","on":"yes"})",
        R"({"type":"analyse","on":true,"multipv":0})",
        R"({"type":"analyse","on":true,"multipv":6})",
        R"({"type":"preview","ply":0,"moves":"c3-d4"})",
        R"({"type":"preview","ply":0,"moves":["a1-a2"]})",
        R"({"type":"preview","ply":0,"moves":[1]})",
        R"({"type":"lfen","lfen":"x"})",
        R"({"type":"lfen","lfen":null})",
        R"({"type":"lfen","lfen":"b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w,w w"})",
        R"({"type":"pdn.import","pdn":"1. z9-z8"})",
        R"({"type":"pdn.import","pdn":""})",
        R"({"type":"pdn.import","pdn":"[FEN \"nonsense\"]\n\n1. c3-d4 *"})",
        R"({"type":"new","engine":"purple"})",
        R"({"type":"new","level":7})",
        R"({"type":"new","level":-1})",
        R"({"type":"settings","level":true})",
        R"({"type":"takeback","n":2})",
        R"({"type":"pdn.export","x":0})",
        R"({"type":"line","moves":["a1-b2"]})",
        R"({"type":"line","moves":"c3-d4"})",
        R"({"type":"line","moves":[3]})",
        R"({"type":"line"})",
        R"({"type":"promote","moves":[]})",
        R"({"type":"promote","moves":["e3-f4","b6-a5"]})",
        R"({"type":"delete","moves":[]})",
        R"({"type":"delete","moves":["a1-b2"]})",
        R"({"type":"delete","moves":null})",
        R"({"type":"pdn.import","pdn":"1. c3-d4 (1. z9-z8) *"})",
        R"({"type":"pdn.import","pdn":"1. c3-d4 (1. c3-b4 b6-c5 2. a3-a5) *"})",
        std::string(70000, ' '),
        std::string(40, '[') + std::string(40, ']'),
    };
    for (const auto& text : bad) {
        const auto replies = f.table.handleText(text);
        ASSERT_EQ(replies.size(), 1u) << text;
        EXPECT_EQ(replies[0]["type"], "error") << text;
        EXPECT_FALSE(replies[0]["message"].get<std::string>().empty()) << text;
        EXPECT_EQ(f.table.moves().size(), movesBefore) << text;
        EXPECT_EQ(f.table.position().toLfen(), lfenBefore) << text;
        EXPECT_EQ(f.table.viewPly(), 1) << text;
        EXPECT_EQ(f.log->lines.size(), linesBefore) << text;
    }
}

// ---- The real engine ---------------------------------------------------------------------------

// LineQueue: the engine's lines, handed over from its reader thread.
struct LineQueue {
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<std::string> lines;
    bool closed = false;
    bool pop(std::string& line) {
        std::unique_lock lock(mutex);
        if (!ready.wait_for(lock, std::chrono::seconds(30),
                            [&] { return !lines.empty() || closed; }))
            return false;
        if (lines.empty()) return false;
        line = std::move(lines.front());
        lines.pop_front();
        return true;
    }
};

// The table through an engine pool of one worker, the engine program: the pool writes the
// protocol, the worker's lines come back from its reader thread and are handed to the pool here
// (the server's thread in lasca-web), and the pool's calls to the table run here too.
TEST(LascaTable, AWholeGameAgainstTheRealEngine) {
    auto queue = std::make_shared<LineQueue>();
    std::vector<std::function<void()>> posted;
    std::uint64_t generation = 0;
    EnginePool pool(
        1, kPoolHashMb,
        [queue, &generation](int, std::uint64_t g) -> common::Result<std::unique_ptr<EngineWorker>> {
            generation = g;
            auto engine = ProcessEngine::start(
                LASCA_ENGINE,
                [queue](std::string line) {
                    std::lock_guard lock(queue->mutex);
                    queue->lines.push_back(std::move(line));
                    queue->ready.notify_one();
                },
                [queue] {
                    std::lock_guard lock(queue->mutex);
                    queue->closed = true;
                    queue->ready.notify_one();
                });
            if (!engine) return common::makeError(engine.error());
            return std::unique_ptr<EngineWorker>(std::move(engine).value());
        },
        [&posted](std::function<void()> f) { posted.push_back(std::move(f)); });
    std::unique_ptr<LascaTable> tablePtr;
    Json state;
    EngineFactory factory = [&]() -> common::Result<std::unique_ptr<EngineChannel>> {
        PoolClient client;
        client.onLine = [&](std::string line) {
            const Json next = lastOfType(tablePtr->onEngineLine(line), "state");
            if (!next.is_null()) state = next;
        };
        client.onClosed = [&] { tablePtr->onEngineClosed(); };
        return pool.connect(std::move(client));
    };
    tablePtr = std::make_unique<LascaTable>(factory);
    LascaTable& table = *tablePtr;
    table.hello();
    state = lastOfType(table.handle({{"type", "new"}, {"engine", "black"}, {"level", 0}}), "state");
    int plies = 0;
    while (!state["status"]["over"].get<bool>() && plies < 400) {
        if (state["thinking"].get<bool>()) {
            std::string line;
            ASSERT_TRUE(queue->pop(line)) << "the engine did not answer";
            pool.workerLine(0, generation, line);
            while (!posted.empty()) {
                auto f = std::move(posted.front());
                posted.erase(posted.begin());
                f();
            }
            continue;
        }
        const auto& legal = state["legal"];
        const Json move = legal.at(static_cast<std::size_t>(plies) % legal.size())["move"];
        state = lastOfType(
            table.handle({{"type", "move"}, {"ply", state["moves"].size()}, {"move", move}}),
            "state");
        ASSERT_FALSE(state.is_null());
        ++plies;
    }
    EXPECT_TRUE(state["status"]["over"].get<bool>());
    EXPECT_FALSE(state["status"]["rule"].get<std::string>().empty());
}

}  // namespace
}  // namespace web::lasca_tables
