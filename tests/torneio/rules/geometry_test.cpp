// Geometry: square names and dark squares (D1), home zones (D2), warrior and king moves (G5).
#include "torneio/rules/geometry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "torneio/rules/action.h"
#include "torneio/torneio_test_util.h"

namespace torneio {
namespace {

using test::army;
using test::sq;

std::vector<std::string> names(const Geometry& geometry, std::span<const Square> squares) {
    std::vector<std::string> out;
    for (Square s : squares) out.push_back(geometry.name(s));
    return out;
}

std::vector<std::string> sortedNames(const Geometry& geometry, const SquareList& list) {
    std::vector<std::string> out;
    for (Square s : list) out.push_back(geometry.name(s));
    std::sort(out.begin(), out.end());
    return out;
}

// D1: files a.. west to east, ranks 1.. south to north; a1 south-west, j10 north-east.
TEST(Geometry, SquareNamesD1) {
    const Geometry g8(defaultParams(2));
    const Geometry g10(defaultParams(4));
    EXPECT_EQ(g8.name(0), "a1");
    EXPECT_EQ(g8.name(7), "h1");
    EXPECT_EQ(g8.name(63), "h8");
    EXPECT_EQ(g10.name(99), "j10");
    EXPECT_EQ(g10.name(g10.at(2, 9)), "c10");
    for (const Geometry* g : {&g8, &g10})
        for (Square s = 0; s < g->squareCount(); ++s) EXPECT_EQ(g->parse(g->name(s)).value(), s);
    EXPECT_EQ(g8.fileOf(sq(g8, "d5")), 3);
    EXPECT_EQ(g8.rankOf(sq(g8, "d5")), 4);
}

TEST(Geometry, SquareParseErrors) {
    for (const char* bad : {"", "a", "i1", "a9", "a0", "a01", "A1", "a1x", " a1", "z3", "a-1"})
        EXPECT_FALSE(parseSquare(bad, 8).ok()) << bad;
    EXPECT_TRUE(parseSquare("j10", 10).ok());
    EXPECT_FALSE(parseSquare("j10", 8).ok());
    EXPECT_FALSE(parseSquare("a11", 10).ok());
}

// D1: dark when file + rank (from 0) is even; a1 is dark.
TEST(Geometry, DarkSquaresD1) {
    const Geometry g(defaultParams(2));
    EXPECT_TRUE(g.isDark(sq(g, "a1")));
    EXPECT_FALSE(g.isDark(sq(g, "b1")));
    EXPECT_FALSE(g.isDark(sq(g, "a2")));
    EXPECT_TRUE(g.isDark(sq(g, "b2")));
    EXPECT_TRUE(g.isDark(sq(g, "h8")));
}

// D2, 2 players on 8x8: two full ranks, 8 dark squares each.
TEST(Geometry, ZonesTwoPlayersD2) {
    const Geometry g(defaultParams(2));
    EXPECT_EQ(names(g, g.zone(0)),
              (std::vector<std::string>{"a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2"}));
    EXPECT_EQ(names(g, g.zone(1)),
              (std::vector<std::string>{"a7", "c7", "e7", "g7", "b8", "d8", "f8", "h8"}));
    EXPECT_FALSE(g.inZone(0, sq(g, "b1")));  // light
    EXPECT_FALSE(g.inZone(0, sq(g, "a3")));  // third rank
    EXPECT_FALSE(g.inZone(1, sq(g, "a1")));
}

// D2, 3 players on 10x10: south c1-h2, west a3-b8, north c9-h10; 6 dark squares each.
TEST(Geometry, ZonesThreePlayersD2) {
    const Geometry g(defaultParams(3));
    EXPECT_EQ(names(g, g.zone(0)), (std::vector<std::string>{"c1", "e1", "g1", "d2", "f2", "h2"}));
    EXPECT_EQ(names(g, g.zone(1)), (std::vector<std::string>{"a3", "b4", "a5", "b6", "a7", "b8"}));
    EXPECT_EQ(names(g, g.zone(2)),
              (std::vector<std::string>{"c9", "e9", "g9", "d10", "f10", "h10"}));
    EXPECT_FALSE(g.inZone(0, sq(g, "a1")));  // the two squares at each end are left out
    EXPECT_FALSE(g.inZone(0, sq(g, "i2")));
    EXPECT_FALSE(g.inZone(1, sq(g, "a1")));
    EXPECT_FALSE(g.inZone(1, sq(g, "b10")));
}

// D2, 4 players on 10x10: east i3-j8 as well; the four zones are disjoint.
TEST(Geometry, ZonesFourPlayersD2) {
    const Geometry g(defaultParams(4));
    EXPECT_EQ(names(g, g.zone(3)), (std::vector<std::string>{"i3", "j4", "i5", "j6", "i7", "j8"}));
    for (int seat = 0; seat < 4; ++seat) {
        EXPECT_EQ(g.zone(seat).size(), 6u);
        for (Square s : g.zone(seat)) {
            EXPECT_TRUE(g.isDark(s));
            for (int other = 0; other < 4; ++other)
                if (other != seat) {
                    EXPECT_FALSE(g.inZone(other, s));
                }
        }
    }
}

// G5: a warrior steps one square in any of the 8 directions.
TEST(Geometry, WarriorStepsG5) {
    const Geometry g(defaultParams(2));
    EXPECT_EQ(g.warriorSteps(sq(g, "a1")).size(), 3u);
    EXPECT_EQ(g.warriorSteps(sq(g, "d1")).size(), 5u);
    EXPECT_EQ(g.warriorSteps(sq(g, "d4")).size(), 8u);
    EXPECT_EQ(names(g, g.warriorSteps(sq(g, "d4"))),
              (std::vector<std::string>{"d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5"}));
    EXPECT_EQ(g.step(sq(g, "h8"), 0), kNoSquare);
}

// G5: a warrior never steps onto an own piece; other players' pieces never block (D4).
TEST(Geometry, WarriorNeverOntoOwnPieceG5) {
    const Geometry g(defaultParams(2));
    const OwnPieces own = army(g, "d5", {"d4:3", "e5:3", "c3:4"});
    EXPECT_EQ(sortedNames(g, pieceDestinations(own, 1, g)),
              (std::vector<std::string>{"c4", "c5", "d3", "e3", "e4"}));
}

// G5: the king moves one or two squares orthogonally only.
TEST(Geometry, KingMovesOneOrTwoOrthogonallyG5) {
    const Geometry g(defaultParams(2));
    const OwnPieces own = army(g, "d4", {"a8:3", "b8:3", "c8:4"});
    EXPECT_EQ(sortedNames(g, pieceDestinations(own, kKing, g)),
              (std::vector<std::string>{"b4", "c4", "d2", "d3", "d5", "d6", "e4", "f4"}));
    const OwnPieces corner = army(g, "a1", {"h8:3", "g8:3", "f8:4"});
    EXPECT_EQ(sortedNames(g, pieceDestinations(corner, kKing, g)),
              (std::vector<std::string>{"a2", "a3", "b1", "c1"}));
}

// G5: the king never passes over one of its own pieces, and never lands on one.
TEST(Geometry, KingCannotPassOverOwnPieceG5) {
    const Geometry g(defaultParams(2));
    // d5 holds an own warrior: north is closed (no d5, no d6). f4 holds one: e4 only.
    const OwnPieces own = army(g, "d4", {"d5:3", "f4:3", "a8:4"});
    EXPECT_EQ(sortedNames(g, pieceDestinations(own, kKing, g)),
              (std::vector<std::string>{"b4", "c4", "d2", "d3", "e4"}));
}

TEST(Geometry, DeadPieceHasNoDestinations) {
    const Geometry g(defaultParams(2));
    const OwnPieces own = army(g, "d4", {"-:3", "f4:3", "a8:4"});
    EXPECT_TRUE(pieceDestinations(own, 1, g).empty());
}

TEST(Geometry, MakeGeometryValidates) {
    Params p = defaultParams(2);
    p.seats = 7;
    EXPECT_FALSE(makeGeometry(p).ok());
    EXPECT_TRUE(makeGeometry(defaultParams(4)).ok());
}

}  // namespace
}  // namespace torneio
