// Rule tests: hand-built positions, each checking one numbered rule of docs/lasca-rules.md
// (R4-R9, T1, T2, LFEN). For every position the EXACT set of legal moves is compared with a
// list derived by hand from the rules text (the derivation is in the comments), and where a
// move is played the resulting columns are checked, top piece first.
//
// Board reminder (LFEN lists ranks 7 down to 1, squares left to right):
//   rank 7: a7 c7 e7 g7      rank 6: b6 d6 f6
//   rank 5: a5 c5 e5 g5      rank 4: b4 d4 f4
//   rank 3: a3 c3 e3 g3      rank 2: b2 d2 f2
//   rank 1: a1 c1 e1 g1

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "lasca/core/game.h"
#include "lasca/core/move.h"
#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"
#include "lasca/core/position.h"
#include "lasca/core/types.h"

namespace lasca {
namespace {

using Moves = std::vector<std::string>;

// Reads an LFEN the test relies on; a failure to read it is a test failure.
Position load(std::string_view lfen) {
    auto result = Position::fromLfen(lfen);
    if (!result.ok()) {
        ADD_FAILURE() << "cannot read LFEN '" << lfen << "': " << result.error();
        return Position{};
    }
    EXPECT_EQ(result.value().validate(), "") << lfen;
    return result.value();
}

// The legal moves of pos in notation, sorted.
Moves legal(const Position& pos) {
    MoveList list;
    generateMoves(pos, list);
    Moves out;
    for (const Move& m : list) out.push_back(formatMove(m));
    std::sort(out.begin(), out.end());
    return out;
}

// A hand-derived expectation, sorted so that order of generation does not matter.
Moves expected(std::initializer_list<const char*> moves) {
    Moves out(moves.begin(), moves.end());
    std::sort(out.begin(), out.end());
    return out;
}

Square sq(std::string_view name) {
    const auto s = parseSquare(name);
    EXPECT_TRUE(s.has_value()) << name;
    return s.value_or(0);
}

// The column on a square as LFEN writes it, top first ("-" when empty).
std::string col(const Position& pos, std::string_view square) {
    const Square s = sq(square);
    return columnText(pos.column(s), pos.height(s));
}

// The board field of the position's LFEN (without side to move and counters).
std::string board(const Position& pos) {
    const std::string lfen = pos.toLfen();
    return lfen.substr(0, lfen.find(' '));
}

// Finds a legal move by its text; a failure to find it is a test failure.
Move find(const Position& pos, std::string_view text) {
    auto move = parseMove(pos, text);
    if (!move.ok()) {
        ADD_FAILURE() << "move '" << text << "' not legal: " << move.error();
        return Move{};
    }
    return move.value();
}

// pos after the legal move written as text.
Position after(const Position& pos, std::string_view text) {
    Position next = pos;
    const Move m = find(pos, text);
    if (m.isNull()) return next;
    Undo undo{};
    next.make(m, undo);
    EXPECT_EQ(next.validate(), "") << text;
    return next;
}

void play(Game& game, std::string_view text) {
    const auto result = game.playText(text);
    EXPECT_TRUE(result.ok()) << "move '" << text << "': " << (result.ok() ? "" : result.error());
}

bool isLegal(const Position& pos, std::string_view text) {
    return parseMove(pos, text).ok();
}

// ---------------------------------------------------------------------------------------------
// R4: a soldier steps diagonally forward only, an officer forward and backward.
// White officer d4, white soldier f2, black soldier a7.
//   d4 (officer): c5, e5, c3, e3 all empty -> four steps.
//   f2 (soldier): forward e3, g3 -> two steps (e1/g1 are backward).
// With Black to move, the black soldier a7 has only b6 (forward for Black is toward rank 1).
TEST(RulesTest, R4_OfficerStepsBothWaysSoldierOnlyForward) {
    const Position white = load("b,-,-,-/-,-,-/-,-,-,-/-,W,-/-,-,-,-/-,-,w/-,-,-,- w");
    EXPECT_EQ(legal(white), expected({"d4-c5", "d4-e5", "d4-c3", "d4-e3", "f2-e3", "f2-g3"}));

    const Position black = load("b,-,-,-/-,-,-/-,-,-,-/-,W,-/-,-,-,-/-,-,w/-,-,-,- b");
    EXPECT_EQ(legal(black), expected({"a7-b6"}));
}

// R4/R5: an officer captures backward. White officer d4, black soldiers c3 (behind it, b2 empty)
// and e5 (ahead, f6 empty). Both jumps are legal; neither can continue (from b2 nothing is
// adjacent but the emptied c3; from f6 nothing is adjacent). The backward jump d4xb2 puts the
// black soldier under the officer: b2 = "Wb", c3 and d4 empty, e5 untouched.
TEST(RulesTest, R5_OfficerCapturesBackward) {
    const Position pos = load("-,-,-,-/-,-,-/-,-,b,-/-,W,-/-,b,-,-/-,-,-/-,-,-,- w");
    EXPECT_EQ(legal(pos), expected({"d4xb2", "d4xf6"}));

    const Position next = after(pos, "d4xb2");
    EXPECT_EQ(board(next), "-,-,-,-/-,-,-/-,-,b,-/-,-,-/-,-,-,-/Wb,-,-/-,-,-,-");
    EXPECT_EQ(next.commander(sq("b2")), Piece::WhiteOfficer);
    EXPECT_EQ(next.pieceAt(sq("b2"), 1), Piece::BlackSoldier);
    EXPECT_EQ(next.sideToMove(), Color::Black);

    // The same for Black: backward for Black is toward rank 7. Black officer d4 jumps the
    // white soldier e5 and lands on f6: f6 = "Bw".
    const Position black = load("-,-,-,-/-,-,-/-,-,w,-/-,B,-/-,-,-,-/-,-,-/-,-,-,- b");
    EXPECT_EQ(legal(black), expected({"d4xf6"}));
    const Position blackNext = after(black, "d4xf6");
    EXPECT_EQ(board(blackNext), "-,-,-,-/-,-,Bw/-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-");
}

// R5: a soldier may only capture along a diagonal it may step in, i.e. forward. White soldier
// d4 with black soldiers behind it on c3 and e3 and the landing squares b2 and f2 empty: no
// capture, so only the forward steps d4-c5 and d4-e5.
TEST(RulesTest, R5_SoldierCannotCaptureBackward) {
    const Position pos = load("-,-,-,-/-,-,-/-,-,-,-/-,w,-/-,b,b,-/-,-,-/-,-,-,- w");
    EXPECT_EQ(legal(pos), expected({"d4-c5", "d4-e5"}));
    EXPECT_FALSE(isLegal(pos, "d4xb2"));
    EXPECT_FALSE(isLegal(pos, "d4xf2"));

    // Black soldier d4 with white soldiers c5 and e5 behind it (b6, f6 empty): steps c3, e3.
    const Position black = load("-,-,-,-/-,-,-/-,w,w,-/-,b,-/-,-,-,-/-,-,-/-,-,-,- b");
    EXPECT_EQ(legal(black), expected({"d4-c3", "d4-e3"}));
}

// R5: a column may never jump a column commanded by its own side (even if prisoners of the
// other colour are underneath). White soldier c3, white column d4 = "wb", e5 empty.
//   c3: b4 empty -> step; d4 is occupied and white-commanded -> neither step nor jump.
//   d4 (soldier): c5, e5 -> steps.
TEST(RulesTest, R5_CannotJumpOwnCommandedColumn) {
    const Position pos = load("-,-,-,-/-,-,-/-,-,-,-/-,wb,-/-,w,-,-/-,-,-/-,-,-,- w");
    EXPECT_EQ(legal(pos), expected({"c3-b4", "d4-c5", "d4-e5"}));
    EXPECT_FALSE(isLegal(pos, "c3xe5"));
}

// R5 (and R3): only the commander of a jumped column is taken; the rest stays and is now
// commanded by its next piece, which may free prisoners, and keeps its rank.
// White soldier c3 jumps d4 = "bWw" (a black soldier over a white officer over a white
// soldier) and lands on e5: e5 = "wb"; d4 = "Ww", now commanded by the freed white officer.
// Nothing is adjacent to e5 ahead (d6, f6 empty), so the move is the single jump c3xe5.
TEST(RulesTest, R5_CaptureFreesPrisoners) {
    const Position pos = load("-,-,-,-/-,-,-/-,-,-,-/-,bWw,-/-,w,-,-/-,-,-/-,-,-,- w");
    EXPECT_EQ(legal(pos), expected({"c3xe5"}));

    const Position next = after(pos, "c3xe5");
    EXPECT_EQ(board(next), "-,-,-,-/-,-,-/-,-,wb,-/-,Ww,-/-,-,-,-/-,-,-/-,-,-,-");
    EXPECT_EQ(next.commander(sq("d4")), Piece::WhiteOfficer);
    EXPECT_EQ(next.pieceAt(sq("d4"), 1), Piece::WhiteSoldier);
    EXPECT_TRUE(next.commandedBy(Color::White) & bit(sq("d4")));
    EXPECT_EQ(next.commander(sq("e5")), Piece::WhiteSoldier);
    EXPECT_EQ(next.pieceAt(sq("e5"), 1), Piece::BlackSoldier);
    EXPECT_EQ(next.pieceCount(Color::White), 3);
    EXPECT_EQ(next.pieceCount(Color::Black), 1);
    // Black now commands nothing: it has no legal move.
    EXPECT_EQ(legal(next), Moves{});
}

// R5: in a 2-jump capture the taken commanders go to the BOTTOM of the capturing column, in
// jump order. White column a1 = "wb" jumps b2 = "Bw" (black officer over a white soldier),
// lands on c3, then jumps d4 = "b" and lands on e5 (from e5, d6 and f6 are empty: end).
// Result e5 = "w" "b" (old prisoner) "B" (first taken) "b" (second taken) = "wbBb";
// b2 = "w" (freed), a1, c3, d4 empty.
TEST(RulesTest, R5_CapturedPiecesGoToBottomInJumpOrder) {
    const Position pos = load("-,-,-,-/-,-,-/-,-,-,-/-,b,-/-,-,-,-/Bw,-,-/wb,-,-,- w");
    EXPECT_EQ(legal(pos), expected({"a1xc3xe5"}));

    const Position next = after(pos, "a1xc3xe5");
    EXPECT_EQ(board(next), "-,-,-,-/-,-,-/-,-,wbBb,-/-,-,-/-,-,-,-/w,-,-/-,-,-,-");
    EXPECT_EQ(next.height(sq("e5")), 4);
    EXPECT_EQ(next.pieceAt(sq("e5"), 0), Piece::WhiteSoldier);
    EXPECT_EQ(next.pieceAt(sq("e5"), 1), Piece::BlackSoldier);
    EXPECT_EQ(next.pieceAt(sq("e5"), 2), Piece::BlackOfficer);
    EXPECT_EQ(next.pieceAt(sq("e5"), 3), Piece::BlackSoldier);
    EXPECT_EQ(next.commander(sq("b2")), Piece::WhiteSoldier);
}

// R5: a tall column d4 = "bbww" (two black soldiers over two white soldiers, as play makes
// them) jumped four times, by both sides: White takes the two black pieces one at a time, the
// freed white pieces then command the column and Black takes them. White officer c3, black
// officer c5, black soldier a7 (a spare move for Black). Per ply:
//  1. c3xe5  (W's only piece jumps d4 NE; from e5 d6/f6/f4 empty)  e5 = "Wb", d4 = "bww"
//  2. a7-b6  Black has no capture (c5 touches no white column; the soldier d4 would jump e5
//            backward); its steps: a7-b6, officer c5-b4/b6/d6 (d4 is its own), d4-c3/e3
//  3. e5xc3  (W's only piece jumps d4 SW, c3 emptied in ply 1)      c3 = "Wbb", d4 = "ww"
//  4. c5xe3  (B jumps d4 SE, now White's; from e3 d2/f2/f4 empty;   e3 = "Bw",  d4 = "w"
//            b6 has only forward neighbours a5 and c5, no capture)
//  5. c3-b2  White has no capture (officer c3: b4/b2/d2 empty, d4 its own; soldier d4 would
//            jump e3 backward); its steps: c3-b4/b2/d2, d4-c5/e5
//  6. e3xc5  (B jumps d4 NW, c5 emptied in ply 4; from c5 b4/d6     c5 = "Bww", d4 empty
//            empty, b6 its own)
// then White (officer b2 "Wbb" alone, a1/c1/a3/c3 empty, nothing to jump) only steps.
TEST(RulesTest, R5_TallMixedColumnJumpedRepeatedly) {
    Game game(load("b,-,-,-/-,-,-/-,B,-,-/-,bbww,-/-,W,-,-/-,-,-/-,-,-,- w"));
    EXPECT_EQ(col(game.current(), "d4"), "bbww");

    EXPECT_EQ(legal(game.current()), expected({"c3xe5"}));
    play(game, "c3xe5");
    EXPECT_EQ(col(game.current(), "d4"), "bww");
    EXPECT_EQ(col(game.current(), "e5"), "Wb");
    EXPECT_EQ(col(game.current(), "c3"), "-");

    EXPECT_EQ(legal(game.current()),
              expected({"a7-b6", "c5-b4", "c5-b6", "c5-d6", "d4-c3", "d4-e3"}));
    play(game, "a7-b6");

    EXPECT_EQ(legal(game.current()), expected({"e5xc3"}));
    play(game, "e5xc3");
    EXPECT_EQ(col(game.current(), "d4"), "ww");
    EXPECT_TRUE(game.current().commandedBy(Color::White) & bit(sq("d4")));
    EXPECT_EQ(col(game.current(), "c3"), "Wbb");
    EXPECT_EQ(col(game.current(), "e5"), "-");

    EXPECT_EQ(legal(game.current()), expected({"c5xe3"}));
    play(game, "c5xe3");
    EXPECT_EQ(col(game.current(), "d4"), "w");
    EXPECT_EQ(col(game.current(), "e3"), "Bw");
    EXPECT_EQ(col(game.current(), "c5"), "-");

    EXPECT_EQ(legal(game.current()), expected({"c3-b2", "c3-b4", "c3-d2", "d4-c5", "d4-e5"}));
    play(game, "c3-b2");

    EXPECT_EQ(legal(game.current()), expected({"e3xc5"}));
    play(game, "e3xc5");
    EXPECT_EQ(col(game.current(), "d4"), "-");
    EXPECT_EQ(col(game.current(), "c5"), "Bww");
    EXPECT_EQ(board(game.current()), "-,-,-,-/b,-,-/-,Bww,-,-/-,-,-/-,-,-,-/Wbb,-,-/-,-,-,-");

    EXPECT_EQ(legal(game.current()), expected({"b2-a1", "b2-a3", "b2-c1", "b2-c3"}));
    EXPECT_EQ(game.status(DrawRules{}).outcome, Outcome::Ongoing);
}

// R6: capturing is compulsory, and there is no rule to take the most.
// White soldiers c1 and a5, black soldiers b2, d2, f4.
//   a5: b6 empty -> a step would be possible, but captures exist, so it is not legal.
//   c1: NW over b2 to a3 (then b4 empty: end)                 -> c1xa3      (1 piece)
//       NE over d2 to e3, then NE over f4 to g5 (f6 empty: end) -> c1xe3xg5 (2 pieces)
// Both captures are legal, the shorter one included.
TEST(RulesTest, R6_CaptureCompulsoryAndFreeChoice) {
    const Position pos = load("-,-,-,-/-,-,-/w,-,-,-/-,-,b/-,-,-,-/b,b,-/-,w,-,- w");
    EXPECT_EQ(legal(pos), expected({"c1xa3", "c1xe3xg5"}));
    EXPECT_FALSE(isLegal(pos, "a5-b6"));
    EXPECT_TRUE(hasCapture(pos));

    EXPECT_EQ(col(after(pos, "c1xa3"), "a3"), "wb");
    const Position longer = after(pos, "c1xe3xg5");
    EXPECT_EQ(board(longer), "-,-,-,-/-,-,-/w,-,-,wbb/-,-,-/-,-,-,-/b,-,-/-,-,-,-");
}

// R6: after a jump the column must keep jumping while it can. White officer a3 and white
// soldier g1, black soldiers b4, d4, f4.
//   a3: NE over b4 to c5 (SE b2 empty); c5: SE over d4 to e3 (b6, d6 empty); e3: NE over f4 to
//   g5 (d2, f2 empty); g5: f6 empty -> end. One move: a3xc5xe3xg5.
//   g1's step g1-f2 is not legal since a capture exists; the prefixes are not legal moves.
TEST(RulesTest, R6_MultiJumpMustContinue) {
    const Position pos = load("-,-,-,-/-,-,-/-,-,-,-/b,b,b/W,-,-,-/-,-,-/-,-,-,w w");
    EXPECT_EQ(legal(pos), expected({"a3xc5xe3xg5"}));
    EXPECT_FALSE(isLegal(pos, "a3xc5"));
    EXPECT_FALSE(isLegal(pos, "a3xc5xe3"));
    EXPECT_FALSE(isLegal(pos, "g1-f2"));

    const Position next = after(pos, "a3xc5xe3xg5");
    EXPECT_EQ(board(next), "-,-,-,-/-,-,-/-,-,-,Wbbb/-,-,-/-,-,-,-/-,-,-/-,-,-,w");
}

// R7 (first sentence): the line from the rules file
//   c3-d4 e5xc3 d2xb4 g5-f4 e3xg5 d6-e5 b4xd6 e7xc5 g5xe7 c5-d4
// derived by hand:
//   e5xc3: c3 = "bw"; d2xb4: b4 = "wb", c3 = "w"; e3xg5: g5 = "wb"; b4xd6: d6 = "wbb";
//   e7xc5: c5 = "bw", d6 = "bb"; g5xe7: promotes, e7 = "Wbb"; c5-d4: d4 = "bw".
// White to move. The officer e7 must jump d6 (its top b) to c5; from c5 it may not jump d6
// again to e7 (R7), b6 is blocked behind by a7, so it jumps d4 (black-commanded "bw") to e3;
// from e3 d4 was jumped, f4 and d2 are empty and f2 is white: end. No other white column can
// capture (c3 over d4 would land on the occupied e5), so the only legal move is e7xc5xe3.
TEST(RulesTest, R7_CannotJumpSameSquareTwice) {
    Game game;
    for (const char* m :
         {"c3-d4", "e5xc3", "d2xb4", "g5-f4", "e3xg5", "d6-e5", "b4xd6", "e7xc5", "g5xe7", "c5-d4"})
        play(game, m);
    ASSERT_EQ(game.moves().size(), 10u);
    const Position& pos = game.current();
    EXPECT_EQ(board(pos), "b,b,Wbb,b/b,bb,-/b,-,b,-/-,bw,-/w,w,-,w/w,-,w/w,w,w,w");
    EXPECT_EQ(pos.sideToMove(), Color::White);

    EXPECT_FALSE(isLegal(pos, "e7xc5xe7"));
    EXPECT_FALSE(isLegal(pos, "e7xc5"));
    EXPECT_EQ(legal(pos), expected({"e7xc5xe3"}));

    play(game, "e7xc5xe3");
    EXPECT_EQ(col(game.current(), "e3"), "Wbbbb");
    EXPECT_EQ(col(game.current(), "d6"), "b");
    EXPECT_EQ(col(game.current(), "d4"), "w");
    EXPECT_EQ(col(game.current(), "c5"), "-");
    EXPECT_EQ(col(game.current(), "e7"), "-");
}

// R7 (second sentence): a column may land on its own starting square. White officer c3 and
// black pieces b4, d4 (an officer), b6, d6 around the 2x2 block: the officer can go round it
// either way and come back to c3, where all four neighbours are jumped or empty (end).
//   c3xe5xc7xa5xc3 jumps d4, d6, b6, b4 -> c3 = "WBbbb"
//   c3xa5xc7xe5xc3 jumps b4, b6, d6, d4 -> c3 = "WbbbB"
// At every landing square there is exactly one jump to make, so these are the only moves.
TEST(RulesTest, R7_LandsOnItsOwnStartSquare) {
    const Position pos = load("-,-,-,-/b,b,-/-,-,-,-/b,B,-/-,W,-,-/-,-,-/-,-,-,- w");
    EXPECT_EQ(legal(pos), expected({"c3xe5xc7xa5xc3", "c3xa5xc7xe5xc3"}));

    const Move m = find(pos, "c3xe5xc7xa5xc3");
    EXPECT_EQ(m.origin(), m.destination());
    Position next = pos;
    Undo undo{};
    next.make(m, undo);
    EXPECT_EQ(board(next), "-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,WBbbb,-,-/-,-,-/-,-,-,-");
    next.unmake(m, undo);
    EXPECT_EQ(next, pos);

    EXPECT_EQ(col(after(pos, "c3xa5xc7xe5xc3"), "c3"), "WbbbB");
}

// R7 (second sentence): a column may land on a square emptied earlier in the same move. (A
// jumped square can never be a later landing square: landing squares differ from the origin by
// an even number of files and ranks, jumped squares by an odd number. So the squares that can be
// emptied and landed on again are those the column itself left.) White officer a1; black
// soldiers b2, d2, f2, f4 and black officer d4 (single pieces, each left empty when jumped).
//   a1 -> c3 over b2, then a figure of eight through c3 again in either direction:
//   a1xc3xe5xg3xe1xc3 jumps b2, d4, f4, f2, d2 -> c3 = "WbBbbb"
//   a1xc3xe1xg3xe5xc3 jumps b2, d2, f2, f4, d4 -> c3 = "WbbbbB"
// The second visit of c3 ends the move: b2, d4, d2 are jumped, b4 is empty.
TEST(RulesTest, R7_LandsAgainOnSquareEmptiedInSameMove) {
    const Position pos = load("-,-,-,-/-,-,-/-,-,-,-/-,B,b/-,-,-,-/b,b,b/W,-,-,- w");
    EXPECT_EQ(legal(pos), expected({"a1xc3xe5xg3xe1xc3", "a1xc3xe1xg3xe5xc3"}));

    const Move m = find(pos, "a1xc3xe5xg3xe1xc3");
    EXPECT_EQ(m.landing(0), m.landing(4));
    const Position next = after(pos, "a1xc3xe5xg3xe1xc3");
    EXPECT_EQ(board(next), "-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,WbBbbb,-,-/-,-,-/-,-,-,-");
    EXPECT_EQ(col(after(pos, "a1xc3xe1xg3xe5xc3"), "c3"), "WbbbbB");
}

// R8: promotion ends the move. White soldier c5 jumps d6 to e7 (b6 empty: only capture) and is
// promoted; as an officer it could go on over f6 to g5, but the move ends: c5xe7 only.
// Black mirror: black soldier c3 jumps d2 to e1 and is promoted; as an officer it could go on
// over f2 to g3, but the move ends.
TEST(RulesTest, R8_PromotionEndsCapture) {
    const Position pos = load("-,-,-,-/-,b,b/-,w,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,- w");
    EXPECT_EQ(legal(pos), expected({"c5xe7"}));
    EXPECT_FALSE(isLegal(pos, "c5xe7xg5"));
    const Position next = after(pos, "c5xe7");
    EXPECT_EQ(board(next), "-,-,Wb,-/-,-,b/-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-");
    EXPECT_EQ(next.commander(sq("e7")), Piece::WhiteOfficer);
    EXPECT_TRUE(next.officers() & bit(sq("e7")));

    const Position black = load("-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,b,-,-/-,w,w/-,-,-,- b");
    EXPECT_EQ(legal(black), expected({"c3xe1"}));
    EXPECT_FALSE(isLegal(black, "c3xe1xg3"));
    const Position blackNext = after(black, "c3xe1");
    EXPECT_EQ(board(blackNext), "-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,w/-,-,Bw,-");
    EXPECT_EQ(blackNext.commander(sq("e1")), Piece::BlackOfficer);
}

// R8: only the commander is promoted. White column d6 = "wwb" steps to c7 or e7 (black soldier
// a3 is far away). After d6-e7: e7 = "Wwb": the white soldier below stays a soldier.
TEST(RulesTest, R8_OnlyCommanderPromoted) {
    const Position pos = load("-,-,-,-/-,wwb,-/-,-,-,-/-,-,-/b,-,-,-/-,-,-/-,-,-,- w");
    EXPECT_EQ(legal(pos), expected({"d6-c7", "d6-e7"}));

    const Position next = after(pos, "d6-e7");
    EXPECT_EQ(board(next), "-,-,Wwb,-/-,-,-/-,-,-,-/-,-,-/b,-,-,-/-,-,-/-,-,-,-");
    EXPECT_EQ(next.pieceAt(sq("e7"), 0), Piece::WhiteOfficer);
    EXPECT_EQ(next.pieceAt(sq("e7"), 1), Piece::WhiteSoldier);
    EXPECT_EQ(next.pieceAt(sq("e7"), 2), Piece::BlackSoldier);
    EXPECT_EQ(next.quietPlies(), 0);  // a soldier-commanded column moved (T2)
}

// R9: the side to move whose columns are all blocked loses.
// Black soldier a7; its only square b6 holds a white soldier, and c5 beyond is occupied.
// White mirror: white soldier g1; f2 is black and e3 beyond is occupied.
TEST(RulesTest, R9_BlockedSideLoses) {
    Game game(load("b,-,-,-/w,-,-/-,w,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,- b"));
    EXPECT_EQ(legal(game.current()), Moves{});
    EXPECT_GT(game.current().pieceCount(Color::Black), 0);
    const GameStatus status = game.status(DrawRules{});
    EXPECT_EQ(status.outcome, Outcome::WhiteWins);
    EXPECT_EQ(status.termination, Termination::NoLegalMove);
    EXPECT_EQ(game.status(DrawRules{false, false}).outcome, Outcome::WhiteWins);

    Game white(load("-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,b,-/-,-,b/-,-,-,w w"));
    EXPECT_EQ(legal(white.current()), Moves{});
    EXPECT_EQ(white.status(DrawRules{}).outcome, Outcome::BlackWins);
    EXPECT_EQ(white.status(DrawRules{}).termination, Termination::NoLegalMove);
}

// R9: the side whose pieces are all prisoners loses. Black soldier d4 takes the last white
// commander c3 (d4xb2; the step d4-e3 and the officer's step g7-f6 are not legal since a
// capture exists). Afterwards both white pieces are prisoners (b2 = "bw", g7 = "Bw"): White
// has no move and Black has won.
TEST(RulesTest, R9_AllPiecesCapturedLoses) {
    Game game(load("-,-,-,Bw/-,-,-/-,-,-,-/-,b,-/-,w,-,-/-,-,-/-,-,-,- b"));
    EXPECT_EQ(legal(game.current()), expected({"d4xb2"}));
    EXPECT_EQ(game.status(DrawRules{}).outcome, Outcome::Ongoing);

    play(game, "d4xb2");
    const Position& pos = game.current();
    EXPECT_EQ(board(pos), "-,-,-,Bw/-,-,-/-,-,-,-/-,-,-/-,-,-,-/bw,-,-/-,-,-,-");
    EXPECT_EQ(pos.commandedBy(Color::White), Bitboard{0});
    EXPECT_EQ(pos.pieceCount(Color::White), 2);
    EXPECT_EQ(legal(pos), Moves{});
    const GameStatus status = game.status(DrawRules{});
    EXPECT_EQ(status.outcome, Outcome::BlackWins);
    EXPECT_EQ(status.termination, Termination::NoLegalMove);
}

// T1: threefold repetition. White officer a1, black officer g7 shuffle a1-b2 g7-f6 b2-a1
// f6-g7 twice. Positions P0..P3 repeat with period 4; the first to occur a third time is the
// start position after ply 8. Before that no position has occurred more than twice.
TEST(RulesTest, T1_ThreefoldRepetition) {
    const Position start = load("-,-,-,B/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- w 0 1");
    EXPECT_EQ(legal(start), expected({"a1-b2"}));

    const char* cycle[] = {"a1-b2", "g7-f6", "b2-a1", "f6-g7"};
    Game game(start);
    Game noRepetitionRule(start);
    for (int ply = 1; ply <= 8; ++ply) {
        const char* m = cycle[(ply - 1) % 4];
        play(game, m);
        play(noRepetitionRule, m);
        const GameStatus status = game.status(DrawRules{});
        if (ply < 8) {
            EXPECT_LE(game.occurrences(), 2) << "ply " << ply;
            EXPECT_EQ(status.outcome, Outcome::Ongoing) << "ply " << ply;
            EXPECT_EQ(status.termination, Termination::None) << "ply " << ply;
        } else {
            EXPECT_EQ(game.occurrences(), 3);
            EXPECT_EQ(status.outcome, Outcome::Draw);
            EXPECT_EQ(status.termination, Termination::Repetition);
        }
        EXPECT_EQ(game.occurrences(), ply >= 4 ? (ply == 8 ? 3 : 2) : 1) << "ply " << ply;
    }
    // Same board and side to move as the start (the counters differ: 8 quiet plies later).
    EXPECT_EQ(board(game.current()), board(start));
    EXPECT_EQ(game.current().sideToMove(), Color::White);
    EXPECT_EQ(game.current().key(), start.key());
    // The same game with T1 switched off (T2 on, only 8 quiet plies) goes on.
    EXPECT_EQ(noRepetitionRule.status(DrawRules{false, true}).outcome, Outcome::Ongoing);
    EXPECT_EQ(game.status(DrawRules{false, true}).outcome, Outcome::Ongoing);
    EXPECT_EQ(game.status(DrawRules{true, false}).termination, Termination::Repetition);
}

// T2: no progress. White officer a1, white soldier g1, black officer g7, quiet counter 99.
// Legal: a1-b2 (officer) and g1-f2 (soldier). The officer step is the 100th quiet ply: draw.
// The soldier step resets the counter instead. With T2 off the officer step does not draw.
TEST(RulesTest, T2_NoProgress) {
    const Position start = load("-,-,-,B/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,w w 99 50");
    EXPECT_EQ(start.quietPlies(), 99);
    EXPECT_EQ(legal(start), expected({"a1-b2", "g1-f2"}));

    Game officer(start);
    EXPECT_EQ(officer.status(DrawRules{}).outcome, Outcome::Ongoing);
    play(officer, "a1-b2");
    EXPECT_EQ(officer.current().quietPlies(), 100);
    EXPECT_EQ(officer.status(DrawRules{}).outcome, Outcome::Draw);
    EXPECT_EQ(officer.status(DrawRules{}).termination, Termination::NoProgress);
    EXPECT_EQ(officer.status(DrawRules{true, false}).outcome, Outcome::Ongoing);

    Game soldier(start);
    play(soldier, "g1-f2");
    EXPECT_EQ(soldier.current().quietPlies(), 0);
    EXPECT_EQ(soldier.status(DrawRules{}).outcome, Outcome::Ongoing);
}

// LFEN: readers accept an empty field for an empty square; writers always use '-'.
TEST(RulesTest, Lfen_EmptyFieldsReadAsDash) {
    const Position start = load("b,b,b,b/b,b,b/b,b,b,b/,,/w,w,w,w/w,w,w/w,w,w,w w 0 1");
    EXPECT_EQ(start, Position::startPosition());
    EXPECT_EQ(start.toLfen(), std::string(kStartLfen));

    const Position dashes = load("-,-,-,B/-,-,-/-,-,-,-/-,bw,-/-,-,-,-/-,-,-/W,-,-,- b 3 7");
    const Position empties = load(",,,B/,,/,,,/,bw,/,,,/,,/W,,, b 3 7");
    EXPECT_EQ(empties, dashes);
    EXPECT_EQ(empties.toLfen(), "-,-,-,B/-,-,-/-,-,-,-/-,bw,-/-,-,-,-/-,-,-/W,-,-,- b 3 7");
    EXPECT_EQ(legal(empties), legal(dashes));
}

}  // namespace
}  // namespace lasca
