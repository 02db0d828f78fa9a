// The search on table positions: a table win is found as a forced win no shorter than the
// table's distance, and the search never finds a win in a table draw or loss. (The sets tested
// here have no draws: every position is decisive, so the loss branch carries the second check.)
#include <gtest/gtest.h>

#include <condition_variable>
#include <fstream>
#include <mutex>

#include "lasca/egtb/egtb.h"
#include "lasca/engine/engine.h"
#include "lasca/search/search.h"
#include "test_directory.h"

namespace lasca::egtb {
namespace {

using search::Search;
using search::SearchLimits;
using search::SearchSettings;
using search::TranspositionTable;

Score searchScore(const Position& pos, int depth,
                  std::shared_ptr<const Tablebase> tablebase = nullptr) {
    TranspositionTable tt;
    Search search(tt);
    SearchSettings settings;
    settings.rules = DrawRules{false, false};  // the tables are solved with T1/T2 off
    settings.tablebase = std::move(tablebase);
    SearchLimits limits;
    limits.depth = depth;
    return search.run(pos, {}, limits, settings).score;
}

class EgtbSearch : public testing::TestWithParam<int> {};

TEST_P(EgtbSearch, AgreesOnASample) {
    const int pieces = GetParam();
    auto table = generate(pieces, 2);
    ASSERT_TRUE(table) << table.error();
    const Layout layout(pieces);
    Tablebase tb;
    tb.add(std::move(table).value());
    // Every 97th position (a fixed, spread sample), up to 40 of each result; wins within 9
    // plies so that a search of depth plies + 2 reaches them.
    int wins = 0;
    int draws = 0;
    int losses = 0;
    int exact = 0;
    for (std::size_t slot = 0; slot < layout.slotCount(); slot += 97) {
        const auto pos = layout.positionAt(slot);
        if (!pos) continue;
        const Probe p = *tb.probe(*pos);
        const std::string where = pos->toLfen();
        if (p.wdl == Wdl::Win && p.plies <= 9 && wins < 40) {
            ++wins;
            const Score s = searchScore(*pos, p.plies + 2);
            ASSERT_GE(s, kMateBound) << where << " table: win in " << p.plies;
            ASSERT_GE(kMate - s, p.plies) << where << ": shorter than the table's win";
            exact += kMate - s == p.plies ? 1 : 0;
        } else if (p.wdl == Wdl::Draw && draws < 40) {
            ++draws;
            ASSERT_LT(searchScore(*pos, 12), kMateBound) << where << ": a win in a table draw";
        } else if (p.wdl == Wdl::Loss && p.plies <= 8 && losses < 40) {
            ++losses;
            const Score s = searchScore(*pos, p.plies + 2);
            ASSERT_LT(s, kMateBound) << where << ": a win in a table loss";
            if (s <= -kMateBound) {
                ASSERT_GE(kMate + s, p.plies) << where;
            }
        }
    }
    // The set has no draws up to 8 pieces (docs/egtb.md); the draw branch above is for larger
    // sets.
    EXPECT_GE(wins, 20);
    EXPECT_EQ(draws, 0);
    EXPECT_GE(losses, 20);
    // Depth plies + 2 is enough for the search to see the fastest win almost always.
    EXPECT_GE(exact * 10, wins * 9) << exact << " of " << wins;
}

INSTANTIATE_TEST_SUITE_P(Pieces, EgtbSearch, testing::Values(4, 5));

// With the tables, a depth-2 search scores every table position exactly as the table does:
// the longest wins and losses too, far beyond what depth 2 sees on its own.
TEST(EgtbSearch, ProbedTablesGiveExactScores) {
    auto table = generate(5, 2);
    ASSERT_TRUE(table) << table.error();
    auto tb = std::make_shared<Tablebase>();
    tb->add(std::move(table).value());
    const Layout layout(5);
    int deep = 0;
    for (std::size_t slot = 0; slot < layout.slotCount(); slot += 211) {
        const auto pos = layout.positionAt(slot);
        if (!pos) continue;
        const Probe p = *tb->probe(*pos);
        if (p.plies < 3) continue;  // the search alone ends these at the root
        const Score want = p.wdl == Wdl::Win ? kMate - p.plies : -kMate + p.plies;
        ASSERT_EQ(searchScore(*pos, 2, tb), want) << pos->toLfen();
        deep += p.plies > 20 ? 1 : 0;
    }
    EXPECT_GE(deep, 10);
}

// The engine's EgtbPath option: a folder that loads gives proven scores; a missing folder or a
// corrupted file is an error and the tables in use stay.
TEST(EgtbEngine, EgtbPathOption) {
    const auto dir = common::test::testDirectory();
    auto table = generate(4, 1);
    ASSERT_TRUE(table);
    ASSERT_TRUE(writeTable(dir / tableFileName(4), table.value()));
    std::mutex m;
    std::condition_variable done;
    bool finished = false;
    Score score = 0;
    engine::EngineCallbacks callbacks;
    callbacks.onInfo = [&](const search::SearchInfo& info) {
        std::lock_guard lock(m);
        score = info.score;
    };
    callbacks.onBestMove = [&](const Move&, const Move&) {
        std::lock_guard lock(m);
        finished = true;
        done.notify_all();
    };
    engine::Engine engine(callbacks);
    ASSERT_TRUE(engine.options().set("EgtbPath", dir.string()));
    ASSERT_TRUE(engine.options().set("RepetitionDraw", "false"));
    // A white officer on a1 against a black soldier over two white prisoners on b2, Black to
    // move: the only move b2-c1 leads to a loss for White in 2 plies (table: Black wins in 3).
    const auto pos = Position::fromLfen("-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/bww,-,-/W,-,-,- b");
    ASSERT_TRUE(pos);
    engine.setPosition(pos.value(), {});
    search::SearchLimits limits;
    limits.depth = 1;
    engine.go(limits);
    {
        std::unique_lock lock(m);
        done.wait(lock, [&] { return finished; });
    }
    engine.waitForSearch();
    EXPECT_EQ(score, kMate - 3);

    const auto missing = engine.options().set("EgtbPath", (dir / "missing").string());
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().find("not a folder"), std::string::npos) << missing.error();
    {
        std::fstream f(dir / tableFileName(4), std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(1000);
        f.put('\x7f');
    }
    const auto corrupted = engine.options().set("EgtbPath", dir.string());
    ASSERT_FALSE(corrupted);
    EXPECT_NE(corrupted.error().find("checksum"), std::string::npos) << corrupted.error();
}

}  // namespace
}  // namespace lasca::egtb
