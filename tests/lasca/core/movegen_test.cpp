// Move generation checked against an independent, deliberately simple reference generator that
// works on a 7x7 grid of strings, and the counting shortcuts checked against generation.
#include "lasca/core/movegen.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <set>

#include "lasca/core/notation.h"
#include "lasca/core/perft.h"
#include "lasca/test_util.h"

namespace lasca {
namespace {

// ---- The reference generator: the rules text turned into code as plainly as possible. ----
// Grid: the board as [file][rank] (0..6 each), each square's column top first ("" when empty).
// Indexed by int, as files and ranks are computed.
template <class T>
struct IntIndexed {
    std::array<T, 7> items{};
    T& operator[](int i) { return items[static_cast<std::size_t>(i)]; }
    const T& operator[](int i) const { return items[static_cast<std::size_t>(i)]; }
};
using Grid = IntIndexed<IntIndexed<std::string>>;

Grid gridOf(const Position& pos) {
    Grid g;
    for (Square s = 0; s < kSquares; ++s)
        if (pos.height(s) > 0) g[fileOf(s)][rankOf(s)] = columnText(pos.column(s), pos.height(s));
    return g;
}

bool onBoard(int f, int r) {
    return f >= 0 && f < 7 && r >= 0 && r < 7;
}
bool isWhite(char c) {
    return c == 'w' || c == 'W';
}
std::string name(int f, int r) {
    return {static_cast<char>('a' + f), static_cast<char>('1' + r)};
}

struct Ref {
    bool white;
    bool officer;
    std::set<std::string> moves;

    void jumps(Grid g, int f, int r, std::set<std::pair<int, int>> jumped, std::string path) {
        bool extended = false;
        for (int df : {1, -1}) {
            for (int dr : {1, -1}) {
                if (!officer && dr != (white ? 1 : -1)) continue;  // R5: soldiers forward only
                const int mf = f + df, mr = r + dr, lf = f + 2 * df, lr = r + 2 * dr;
                if (!onBoard(lf, lr) || jumped.count({mf, mr})) continue;  // R7
                const std::string& victim = g[mf][mr];
                if (victim.empty() || isWhite(victim[0]) == white) continue;
                if (!g[lf][lr].empty()) continue;
                extended = true;
                Grid next = g;
                next[mf][mr] = victim.substr(1);  // only the commander is taken
                auto nextJumped = jumped;
                nextJumped.insert({mf, mr});
                const std::string nextPath = path + "x" + name(lf, lr);
                if (!officer && lr == (white ? 6 : 0)) {
                    moves.insert(nextPath);  // R8: promotion ends the move
                    continue;
                }
                jumps(next, lf, lr, nextJumped, nextPath);
            }
        }
        if (!extended && path.size() > 2) moves.insert(path);
    }
};

std::vector<std::string> referenceMoves(const Position& pos) {
    const Grid g = gridOf(pos);
    const bool whiteToMove = pos.sideToMove() == Color::White;
    std::set<std::string> captures, steps;
    for (int f = 0; f < 7; ++f) {
        for (int r = 0; r < 7; ++r) {
            if (g[f][r].empty() || isWhite(g[f][r][0]) != whiteToMove) continue;
            const bool officer = g[f][r][0] == 'W' || g[f][r][0] == 'B';
            Ref ref{whiteToMove, officer, {}};
            Grid lifted = g;
            lifted[f][r].clear();  // the column leaves its square (R7: it may land there again)
            ref.jumps(lifted, f, r, {}, name(f, r));
            captures.insert(ref.moves.begin(), ref.moves.end());
            for (int df : {1, -1})
                for (int dr : {1, -1}) {
                    if (!officer && dr != (whiteToMove ? 1 : -1)) continue;
                    if (onBoard(f + df, r + dr) && g[f + df][r + dr].empty())
                        steps.insert(name(f, r) + "-" + name(f + df, r + dr));
                }
        }
    }
    const auto& chosen = captures.empty() ? steps : captures;  // R6: capturing is compulsory
    return {chosen.begin(), chosen.end()};
}

// Random boards with tall mixed columns and officers, for positions games rarely reach.
Position randomBoard(std::mt19937& rng) {
    static const char* kColumns[] = {"W",   "B",   "w",   "b",   "W",   "B",   "w",
                                     "b",   "Wb",  "Bw",  "wb",  "bw",  "wbB", "bwW",
                                     "Bbw", "Wwb", "bbw", "wwb", "Bbww"};
    for (;;) {
        std::string text;
        for (int rank = 6; rank >= 0; --rank) {
            for (int file = rank % 2; file < 7; file += 2) {
                if (file > 1) text += ',';
                text += rng() % 5 < 3 ? "-" : kColumns[rng() % std::size(kColumns)];
            }
            if (rank > 0) text += '/';
        }
        text += (rng() % 2) ? " w" : " b";
        if (auto pos = Position::fromLfen(text)) return pos.value();
    }
}

TEST(MoveGen, AgreesWithReferenceOnRandomGames) {
    int checked = 0;
    for (unsigned seed = 1; seed <= 300; ++seed) {
        test::playRandomGame(
            Position::startPosition(), seed, 200, [&](const Position& pos, const Move&) {
                ASSERT_EQ(test::legalMoveTexts(pos), referenceMoves(pos)) << pos.toLfen();
                ++checked;
            });
    }
    EXPECT_GT(checked, 10000);
}

TEST(MoveGen, AgreesWithReferenceOnRandomBoards) {
    std::mt19937 rng(99);
    int withCaptures = 0, multiJumps = 0;
    for (int i = 0; i < 20000; ++i) {
        const Position pos = randomBoard(rng);
        const auto moves = test::legalMoveTexts(pos);
        ASSERT_EQ(moves, referenceMoves(pos)) << pos.toLfen();
        if (!moves.empty() && moves[0].find('x') != std::string::npos) ++withCaptures;
        for (const auto& m : moves) multiJumps += std::count(m.begin(), m.end(), 'x') > 1;
    }
    EXPECT_GT(withCaptures, 5000);  // the sample exercises captures
    EXPECT_GT(multiJumps, 1000);    // and multi-jumps
}

TEST(MoveGen, CountingShortcutsAgreeWithGeneration) {
    std::mt19937 rng(5);
    auto check = [](const Position& pos) {
        MoveList list;
        generateMoves(pos, list);
        ASSERT_EQ(countMoves(pos), list.size()) << pos.toLfen();
        ASSERT_EQ(hasLegalMove(pos), !list.empty()) << pos.toLfen();
        ASSERT_EQ(hasCapture(pos), !list.empty() && list[0].capture) << pos.toLfen();
        for (const Move& m : list) ASSERT_EQ(m.capture, list[0].capture);
    };
    for (int i = 0; i < 20000; ++i) check(randomBoard(rng));
    for (unsigned seed = 1; seed <= 300; ++seed)
        test::playRandomGame(Position::startPosition(), seed, 200,
                             [&](const Position& pos, const Move&) { check(pos); });
}

// perft's two- and three-ply counters (no make/unmake, bulk counting of replies) against plain
// make/unmake counting, on random boards and on positions of random games.
std::uint64_t slowPerft(Position& pos, int depth) {
    if (depth <= 0) return 1;
    MoveList list;
    generateMoves(pos, list);
    if (depth == 1) return list.size();
    std::uint64_t nodes = 0;
    for (const Move& m : list) {
        Undo undo{};
        pos.make(m, undo);
        nodes += slowPerft(pos, depth - 1);
        pos.unmake(m, undo);
    }
    return nodes;
}

TEST(MoveGen, MultiPlyCountersAgreeWithMakeUnmake) {
    std::mt19937 rng(23);
    auto check = [](Position pos) {
        const Position before = pos;
        ASSERT_EQ(countMovePairs(pos), slowPerft(pos, 2)) << pos.toLfen();
        ASSERT_EQ(countMoveTriples(pos), slowPerft(pos, 3)) << pos.toLfen();
        ASSERT_EQ(countMoveQuadruples(pos), slowPerft(pos, 4)) << pos.toLfen();
        ASSERT_EQ(pos, before);
    };
    for (int i = 0; i < 20000; ++i) check(randomBoard(rng));
    for (unsigned seed = 1; seed <= 150; ++seed)
        test::playRandomGame(Position::startPosition(), seed, 150,
                             [&](const Position& pos, const Move&) { check(pos); });
}

// The popcount the leaf batches use on targets without a SIMD popcount instruction, checked on
// every set of squares (the native build may not compile it into the batches at all).
TEST(MoveGen, PopcountByShiftsMatchesPopcount) {
    for (Bitboard b = 0; b <= kAllSquares; ++b)
        if (popcountByShifts(b) != popcount(b)) FAIL() << "differs on " << b;
}

// One tally fed many positions of both sides to move at every depth: its batches fill and
// flush across positions, and the sum must still be exact.
TEST(MoveGen, PerftTallySumsAcrossPositions) {
    std::mt19937 rng(31);
    PerftTally tally;
    std::uint64_t expected = 0;
    int added = 0;
    auto add = [&](Position pos, int plies) {
        tally.add(pos, plies);
        expected += slowPerft(pos, plies);
        ++added;
    };
    for (int i = 0; i < 3000; ++i) add(randomBoard(rng), 1 + i % 4);
    for (int i = 0; i < 30; ++i) add(randomBoard(rng), i % 3 == 0 ? 0 : 5);  // 1, make/unmake
    for (unsigned seed = 1; seed <= 40; ++seed)
        test::playRandomGame(Position::startPosition(), seed, 120,
                             [&](const Position& pos, const Move&) { add(pos, 1 + added % 4); });
    EXPECT_EQ(tally.total(), expected);
    EXPECT_GT(expected, 100000u);  // many batches were filled
}

TEST(MoveGen, MovesAreCanonicalAndDistinct) {
    std::mt19937 rng(11);
    for (int i = 0; i < 5000; ++i) {
        const Position pos = randomBoard(rng);
        MoveList list;
        generateMoves(pos, list);
        for (std::size_t a = 0; a < list.size(); ++a) {
            for (int k = list[a].length; k < kMaxJumps; ++k)
                ASSERT_EQ(list[a].path[static_cast<std::size_t>(k)], 0);
            for (std::size_t b = a + 1; b < list.size(); ++b) ASSERT_FALSE(list[a] == list[b]);
        }
    }
}

// The list capacity against the largest move counts we can construct. Nine officers on the
// nine b/d/f squares of ranks 2, 4, 6 with every other square empty each have four steps:
// 36 moves, the most steps we found. The most captures found by a hill climb over boards
// (below, rerun here with a fixed seed) stays far below the capacity too.
TEST(MoveGen, WorstCaseFitsTheList) {
    const Position nineOfficers = test::lfen("-,-,-,-/W,W,W/-,-,-,-/W,W,W/-,-,-,-/W,W,W/-,-,-,- w");
    MoveList list;
    generateMoves(nineOfficers, list);
    EXPECT_EQ(list.size(), 36u);

    // One officer in the middle of a 4x4 lattice of landing squares, all nine squares between
    // them holding single black soldiers: 16 capture paths, the most for one column we found.
    const Position lattice = test::lfen("-,-,-,-/b,b,b/-,W,-,-/b,b,b/-,-,-,-/b,b,b/-,-,-,- w");
    generateMoves(lattice, list);
    EXPECT_EQ(list.size(), 16u);

    std::mt19937 rng(3);
    std::size_t most = 0;
    for (int restart = 0; restart < 20; ++restart) {
        Position pos = randomBoard(rng);
        for (int step = 0; step < 2000; ++step) {
            Position next = pos;
            const Square s = static_cast<Square>(rng() % kSquares);
            const Position donor = randomBoard(rng);
            next.setColumn(s, donor.column(s), donor.height(s));
            if (!next.validate().empty()) continue;
            MoveList a, b;
            generateMoves(pos, a);
            generateMoves(next, b);
            if (b.size() >= a.size()) pos = next;
            most = std::max(most, std::max(a.size(), b.size()));
        }
    }
    EXPECT_GE(most, 20u);
    EXPECT_LT(most * 4, kMaxMoves);  // a wide margin under the capacity
}

// R8: a move promotes when a soldier (not an officer) ends it on its colour's last rank.
TEST(MoveGen, PromotesOnlyASoldierReachingItsLastRank) {
    const auto white = Position::fromLfen("-,-,-,-/-,b,b/-,w,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,- w");
    ASSERT_TRUE(white.ok());
    EXPECT_TRUE(promotes(white.value(), parseMove(white.value(), "c5xe7").value()));
    const auto black = Position::fromLfen("-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,b,-,-/-,w,w/-,-,-,- b");
    ASSERT_TRUE(black.ok());
    EXPECT_TRUE(promotes(black.value(), parseMove(black.value(), "c3xe1").value()));
    const Position start = Position::startPosition();
    EXPECT_FALSE(promotes(start, parseMove(start, "c3-d4").value()));
    const auto officer = Position::fromLfen("-,-,-,-/-,W,-/-,-,-,-/-,-,-/b,-,-,-/-,-,-/-,-,-,- w");
    ASSERT_TRUE(officer.ok());
    EXPECT_FALSE(promotes(officer.value(), parseMove(officer.value(), "d6-e7").value()));
}

}  // namespace
}  // namespace lasca
