// Position: LFEN reading and writing, the column encoding, the hash key, make/unmake.
#include "lasca/core/position.h"

#include <gtest/gtest.h>

#include <random>

#include "lasca/test_util.h"

namespace lasca {
namespace {

TEST(Position, StartPositionMatchesR2) {
    const Position pos = Position::startPosition();
    EXPECT_EQ(pos.toLfen(), kStartLfen);
    EXPECT_EQ(pos.sideToMove(), Color::White);
    EXPECT_EQ(pos.pieceCount(Color::White), 11);
    EXPECT_EQ(pos.pieceCount(Color::Black), 11);
    for (const char* name : {"a1", "c1", "e1", "g1", "b2", "d2", "f2", "a3", "c3", "e3", "g3"}) {
        const Square s = *parseSquare(name);
        EXPECT_EQ(pos.height(s), 1) << name;
        EXPECT_EQ(pos.commander(s), Piece::WhiteSoldier) << name;
    }
    for (const char* name : {"b4", "d4", "f4"}) EXPECT_EQ(pos.height(*parseSquare(name)), 0);
    EXPECT_EQ(pos.commander(*parseSquare("g7")), Piece::BlackSoldier);
    EXPECT_EQ(pos.validate(), "");
}

TEST(Position, SquareNumberingFollowsR1) {
    EXPECT_EQ(*parseSquare("a1"), 0);
    EXPECT_EQ(*parseSquare("g1"), 3);
    EXPECT_EQ(*parseSquare("b2"), 4);
    EXPECT_EQ(*parseSquare("g7"), 24);
    EXPECT_FALSE(parseSquare("b1"));  // dark square
    EXPECT_FALSE(parseSquare("h2"));
    EXPECT_FALSE(parseSquare("a8"));
    EXPECT_FALSE(parseSquare("a"));
    for (Square s = 0; s < kSquares; ++s) EXPECT_EQ(*parseSquare(squareName(s)), s);
}

TEST(Position, ColumnsAreReadTopFirst) {
    const Position pos = test::lfen("-,-,-,-/-,-,-/-,-,-,-/-,WwbB,-/-,-,-,-/-,-,-/-,-,-,- b 7 12");
    const Square d4 = *parseSquare("d4");
    ASSERT_EQ(pos.height(d4), 4);
    EXPECT_EQ(pos.pieceAt(d4, 0), Piece::WhiteOfficer);
    EXPECT_EQ(pos.pieceAt(d4, 1), Piece::WhiteSoldier);
    EXPECT_EQ(pos.pieceAt(d4, 2), Piece::BlackSoldier);
    EXPECT_EQ(pos.pieceAt(d4, 3), Piece::BlackOfficer);
    EXPECT_TRUE(pos.commandedBy(Color::White) & bit(d4));
    EXPECT_TRUE(pos.officers() & bit(d4));
    EXPECT_EQ(pos.sideToMove(), Color::Black);
    EXPECT_EQ(pos.quietPlies(), 7);
    EXPECT_EQ(pos.moveNumber(), 12);
    EXPECT_EQ(pos.toLfen(), "-,-,-,-/-,-,-/-,-,-,-/-,WwbB,-/-,-,-,-/-,-,-/-,-,-,- b 7 12");
}

// A column of three colour blocks cannot arise in play (a capture adds the taken piece at the
// bottom, being captured removes the top): validate() names it, as fromLfen refuses it.
TEST(Position, ValidateNamesAColumnOfMoreThanTwoColourBlocks) {
    Position pos;
    const Square d4 = *parseSquare("d4");
    const auto bits = [](const char* text) {
        ColumnBits b = 0;
        for (int k = 0; text[k] != '\0'; ++k)
            b |= static_cast<ColumnBits>(*pieceFromChar(text[k])) << (2 * k);
        return b;
    };
    pos.setColumn(d4, bits("bbwW"), 4);
    EXPECT_EQ(pos.validate(), "");
    pos.setColumn(d4, bits("bwb"), 3);
    EXPECT_EQ(pos.validate(), "more than two colour blocks on d4");
    pos.setColumn(d4, bits("Wwbw"), 4);
    EXPECT_EQ(pos.validate(), "more than two colour blocks on d4");
}

TEST(Position, LfenAcceptsEmptyFieldsAndOptionalCounters) {
    const Position a = test::lfen("b,b,b,b/b,b,b/b,b,b,b/,,/w,w,w,w/w,w,w/w,w,w,w w");
    EXPECT_EQ(a, Position::startPosition());
    const Position b = test::lfen("  b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w\tw 0 ");
    EXPECT_EQ(b, Position::startPosition());
}

struct BadLfen {
    const char* text;
    const char* messagePart;
};

class LfenErrors : public ::testing::TestWithParam<BadLfen> {};

TEST_P(LfenErrors, NameWhatIsWrong) {
    const auto result = Position::fromLfen(GetParam().text);
    ASSERT_FALSE(result.ok()) << GetParam().text;
    EXPECT_NE(result.error().find(GetParam().messagePart), std::string::npos)
        << "message: " << result.error();
}

INSTANTIATE_TEST_SUITE_P(
    Position, LfenErrors,
    ::testing::Values(
        BadLfen{"", "needs a board"},
        BadLfen{"b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w", "needs a board"},
        BadLfen{"b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w w", "6 ranks, expected 7"},
        BadLfen{"b,b,b,b/b,b,b/b,b,b,b/-,-,-,-/w,w,w,w/w,w,w/w,w,w,w w", "rank 4 has 4"},
        BadLfen{"b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w", "rank 7 has 3"},
        BadLfen{"b,b,b,b/b,b,b/b,b,b,b/-,x,-/w,w,w,w/w,w,w/w,w,w,w w", "unknown piece letter 'x'"},
        BadLfen{"b,b,b,b/b,b,b/b,b,b,b/-,ww,-/w,w,w,w/w,w,w/w,w,w,w w", "13 white pieces"},
        BadLfen{"bb,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w", "12 black pieces"},
        BadLfen{"-,-,-,-/-,-,-/-,-,-,-/-,wwwwwwwwwwwbbbbbbbbbbbb,-/-,-,-,-/-,-,-/-,-,-,- w",
                "more than 22"},
        BadLfen{"b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w x", "bad side to move"},
        BadLfen{"b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w -1", "T2 ply counter"},
        BadLfen{"b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w x 1", "T2 ply counter"},
        BadLfen{"b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w 99999999999", "T2 ply"},
        BadLfen{"b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w 0 0", "bad move number"},
        BadLfen{"b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w 0 1 x", "at most 4"},
        BadLfen{"w,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,- w", "white soldier commands"},
        BadLfen{"-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,b,-,- w", "black soldier commands"},
        // Play makes a column of at most two colour blocks, the commander's over the other's.
        BadLfen{"-,-,-,-/-,-,-/-,-,-,-/-,bwb,-/-,-,-,-/-,-,-/-,-,-,- w",
                "column 'bwb' on d4 has 3 colour blocks"},
        BadLfen{"-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,bwbw/-,-,-,- w",
                "column 'bwbw' on f2 has 4 colour blocks"},
        BadLfen{"-,-,-,-/-,-,-/-,-,-,-/-,-,-/wbw,-,-,-/-,-,-/-,-,-,- b",
                "column 'wbw' on a3 has 3 colour blocks"},
        BadLfen{"-,-,-,Wwbw/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,- w",
                "column 'Wwbw' on g7 has 3 colour blocks"},
        BadLfen{"-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,BbbbbbbbbbWwwwwwwwwwwb w",
                "column 'BbbbbbbbbbWwwwwwwwwwwb' on g1 has 3 colour blocks"},
        BadLfen{"-,-,b,b/b,b,b/b,b,b,b/-,bwb,-/w,w,w,w/w,w,w/-,w,w,w w 0 1",
                "column 'bwb' on d4 has 3 colour blocks; play makes at most two"}));

TEST(Position, LfenParserSurvivesGarbage) {
    std::mt19937 rng(2024);
    const std::string alphabet = "wWbB-,/ 0123456789x\t\n\r\x01\xff";
    for (int i = 0; i < 20000; ++i) {
        std::string text;
        const std::size_t length = rng() % 80;
        for (std::size_t k = 0; k < length; ++k) text += alphabet[rng() % alphabet.size()];
        const auto result = Position::fromLfen(text);
        if (result) {
            EXPECT_EQ(result.value().validate(), "") << text;
            EXPECT_EQ(Position::fromLfen(result.value().toLfen()).value(), result.value());
        } else {
            EXPECT_FALSE(result.error().empty());
        }
    }
    EXPECT_FALSE(Position::fromLfen(std::string(1 << 20, 'w')).ok());
}

// Every position of many random games: the incremental key equals the from-scratch key, every
// invariant holds, LFEN round-trips, and make/unmake of every legal move restores the position
// bit for bit.
TEST(Position, RandomGamesKeepEveryInvariant) {
    int positions = 0;
    for (unsigned seed = 1; seed <= 2000; ++seed) {
        test::playRandomGame(
            Position::startPosition(), seed, 300, [&](const Position& pos, const Move&) {
                ++positions;
                ASSERT_EQ(pos.validate(), "") << pos.toLfen();
                ASSERT_EQ(pos.key(), pos.computeKey());
                const auto reread = Position::fromLfen(pos.toLfen());
                ASSERT_TRUE(reread.ok()) << reread.error();
                ASSERT_EQ(reread.value(), pos);
                MoveList list;
                generateMoves(pos, list);
                Position scratch = pos;
                for (const Move& m : list) {
                    Undo undo{};
                    scratch.make(m, undo);
                    ASSERT_EQ(scratch.key(), scratch.computeKey()) << formatMove(m);
                    ASSERT_EQ(scratch.pieceCount(Color::White), pos.pieceCount(Color::White));
                    ASSERT_EQ(scratch.pieceCount(Color::Black), pos.pieceCount(Color::Black));
                    scratch.unmake(m, undo);
                    ASSERT_EQ(scratch, pos) << formatMove(m);
                }
            });
    }
    EXPECT_GT(positions, 100000);
}

TEST(Position, KeyDependsOnSideToMoveAndColumnOrder) {
    const Position a = test::lfen("-,-,-,-/-,-,-/-,-,-,-/-,Wb,-/-,-,-,-/-,-,-/-,-,-,- w");
    const Position b = test::lfen("-,-,-,-/-,-,-/-,-,-,-/-,Wb,-/-,-,-,-/-,-,-/-,-,-,- b");
    const Position c = test::lfen("-,-,-,-/-,-,-/-,-,-,-/-,bW,-/-,-,-,-/-,-,-/-,-,-,- w");
    const Position d = test::lfen("-,-,-,-/-,-,-/-,-,-,-/-,-,Wb/-,-,-,-/-,-,-/-,-,-,- w");
    EXPECT_NE(a.key(), b.key());
    EXPECT_NE(a.key(), c.key());
    EXPECT_NE(a.key(), d.key());
    EXPECT_EQ(Position().key(), 0u);
}

}  // namespace
}  // namespace lasca
