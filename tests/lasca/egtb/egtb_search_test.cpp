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

// One small hash table for every search of a test, cleared before each: a fresh 16 MB table a
// search made the sample checks spend most of their time allocating (and far longer under ASan).
TranspositionTable& smallTable() {
    static TranspositionTable tt = [] {
        TranspositionTable t;
        EXPECT_TRUE(t.resize(1));
        return t;
    }();
    return tt;
}

Score searchScore(const Position& pos, int depth,
                  std::shared_ptr<const Tablebase> tablebase = nullptr) {
    TranspositionTable& tt = smallTable();
    tt.clear();
    Search search(tt);
    SearchSettings settings;
    settings.rules = DrawRules{false, false};  // the tables are solved with T1/T2 off
    settings.tablebase = std::move(tablebase);
    SearchLimits limits;
    limits.depth = depth;
    return search.run(pos, {}, limits, settings).score;
}

// SampleCounts: the table results of a sample the search was checked on.
struct SampleCounts {
    int wins = 0, draws = 0, losses = 0, exact = 0;
};

// Every 97th slot of a layout (a fixed, spread sample), up to 40 of each result; wins within 9
// plies so that a search of depth plies + 2 reaches them: a table win is a forced win for the
// search, never shorter; a table loss or draw is no win for it.
template <class AnyLayout>
SampleCounts checkSample(const AnyLayout& layout, const Tablebase& tb) {
    SampleCounts n;
    for (std::size_t slot = 0; slot < layout.slotCount(); slot += 97) {
        const auto pos = layout.positionAt(slot);
        if (!pos) continue;
        const Probe p = *tb.probe(*pos);
        const std::string where = pos->toLfen();
        if (p.wdl == Wdl::Win && p.plies <= 9 && n.wins < 40) {
            ++n.wins;
            const Score s = searchScore(*pos, p.plies + 2);
            EXPECT_GE(s, kMateBound) << where << " table: win in " << p.plies;
            EXPECT_GE(kMate - s, p.plies) << where << ": shorter than the table's win";
            n.exact += kMate - s == p.plies ? 1 : 0;
        } else if (p.wdl == Wdl::Draw && n.draws < 40) {
            ++n.draws;
            EXPECT_LT(searchScore(*pos, 12), kMateBound) << where << ": a win in a table draw";
        } else if (p.wdl == Wdl::Loss && p.plies <= 8 && n.losses < 40) {
            ++n.losses;
            const Score s = searchScore(*pos, p.plies + 2);
            EXPECT_LT(s, kMateBound) << where << ": a win in a table loss";
            if (s <= -kMateBound) {
                EXPECT_GE(kMate + s, p.plies) << where;
            }
        }
    }
    return n;
}

// Every 211th slot whose table distance is 3 plies or more: a depth-2 search with the tables
// scores it exactly as the table does. Returns how many of them are longer than 20 plies.
template <class AnyLayout>
int exactScoresWithTables(const AnyLayout& layout, const std::shared_ptr<const Tablebase>& tb) {
    int deep = 0;
    for (std::size_t slot = 0; slot < layout.slotCount(); slot += 211) {
        const auto pos = layout.positionAt(slot);
        if (!pos) continue;
        const Probe p = *tb->probe(*pos);
        if (p.plies < 3) continue;  // the search alone ends these at the root
        const Score want = p.wdl == Wdl::Win    ? kMate - p.plies
                           : p.wdl == Wdl::Loss ? -kMate + p.plies
                                                : kDraw;
        EXPECT_EQ(searchScore(*pos, 2, tb), want) << pos->toLfen();
        deep += p.plies > 20 ? 1 : 0;
    }
    return deep;
}

class EgtbSearch : public testing::TestWithParam<int> {};

TEST_P(EgtbSearch, AgreesOnASample) {
    const int pieces = GetParam();
    auto table = generate(pieces, 2);
    ASSERT_TRUE(table) << table.error();
    Tablebase tb;
    tb.add(std::move(table).value());
    const SampleCounts n = checkSample(Layout(pieces), tb);
    // The set has no draws up to 8 pieces (docs/egtb.md); the draw branch is for larger sets.
    EXPECT_GE(n.wins, 20);
    EXPECT_EQ(n.draws, 0);
    EXPECT_GE(n.losses, 20);
    // Depth plies + 2 is enough for the search to see the fastest win almost always.
    EXPECT_GE(n.exact * 10, n.wins * 9) << n.exact << " of " << n.wins;
}

INSTANTIATE_TEST_SUITE_P(Pieces, EgtbSearch, testing::Values(4, 5));

// Two columns against one, N = 4: the same checks, and with both tables a depth-2 search scores
// every sampled position exactly as the table does.
TEST(EgtbSearch, TwoAgainstOneAgreesOnASample) {
    auto small = generate(4, 2);
    ASSERT_TRUE(small) << small.error();
    auto trio = generateTrio(4, small.value(), 2);
    ASSERT_TRUE(trio) << trio.error();
    auto tb = std::make_shared<Tablebase>();
    tb->add(std::move(small).value());
    tb->add(std::move(trio).value());
    const TrioLayout layout(4);
    const SampleCounts n = checkSample(layout, *tb);
    EXPECT_GE(n.wins, 20);
    EXPECT_GE(n.losses, 20);
    EXPECT_GE(n.exact * 10, n.wins * 9) << n.exact << " of " << n.wins;
    EXPECT_GE(exactScoresWithTables(layout, tb), 10);
}

// With the tables, a depth-2 search scores every table position exactly as the table does:
// the longest wins and losses too, far beyond what depth 2 sees on its own.
TEST(EgtbSearch, ProbedTablesGiveExactScores) {
    auto table = generate(5, 2);
    ASSERT_TRUE(table) << table.error();
    auto tb = std::make_shared<Tablebase>();
    tb->add(std::move(table).value());
    EXPECT_GE(exactScoresWithTables(Layout(5), tb), 10);
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
    const auto result = engine.tableResult();
    ASSERT_TRUE(result);
    EXPECT_EQ(verdictText(*result, Color::Black), "Black wins in 3 plies");

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
