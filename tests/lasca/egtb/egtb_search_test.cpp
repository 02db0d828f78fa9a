// The search on table positions: a table win is found as a forced win no shorter than the
// table's distance, and the search never finds a win in a table draw or loss. (The sets tested
// here have no draws: every position is decisive, so the loss branch carries the second check.)
#include <gtest/gtest.h>

#include "lasca/egtb/egtb.h"
#include "lasca/search/search.h"

namespace lasca::egtb {
namespace {

using search::Search;
using search::SearchLimits;
using search::SearchSettings;
using search::TranspositionTable;

Score searchScore(const Position& pos, int depth) {
    TranspositionTable tt;
    Search search(tt);
    SearchSettings settings;
    settings.rules = DrawRules{false, false};  // the tables are solved with T1/T2 off
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

}  // namespace
}  // namespace lasca::egtb
