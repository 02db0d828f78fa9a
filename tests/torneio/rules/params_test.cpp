// Params: the defaults D1-D13, their checks and their text form.
#include "torneio/rules/params.h"

#include <gtest/gtest.h>

namespace torneio {
namespace {

// D1, D2, D3, D10, D11: the defaults of each seat count.
TEST(Params, DefaultsFollowD1D2D3D10D11) {
    const Params two = defaultParams(2);
    EXPECT_EQ(two.boardSize, 8);               // D1
    EXPECT_EQ(two.zoneDepth, 2);               // D2
    EXPECT_EQ(two.zoneTrim, 0);                // D2: two full ranks
    EXPECT_EQ(two.strengthTotal, 10);          // G4/D3
    EXPECT_EQ(two.minStrength, 0);             // D3
    EXPECT_EQ(two.maxRounds, 200);             // D11
    EXPECT_EQ(two.pass, PassRule::WhenStuck);  // D10
    for (int seats : {3, 4}) {
        const Params p = defaultParams(seats);
        EXPECT_EQ(p.seats, seats);
        EXPECT_EQ(p.boardSize, 10);  // D1
        EXPECT_EQ(p.zoneTrim, 2);    // D2: two squares left out at each end
        EXPECT_TRUE(validateParams(p).ok());
    }
    EXPECT_TRUE(validateParams(two).ok());
}

TEST(Params, ValidationRejectsUnplayableGames) {
    Params p = defaultParams(2);
    p.seats = 1;  // G1
    EXPECT_FALSE(validateParams(p).ok());
    p = defaultParams(4);
    p.seats = 5;
    EXPECT_FALSE(validateParams(p).ok());
    p = defaultParams(3);
    p.zoneTrim = 1;  // side zones would meet
    EXPECT_FALSE(validateParams(p).ok());
    p = defaultParams(2);
    p.boardSize = 3;
    EXPECT_FALSE(validateParams(p).ok());
    p = defaultParams(2);
    p.boardSize = 17;
    EXPECT_FALSE(validateParams(p).ok());
    p = defaultParams(2);
    p.minStrength = 4;  // 3 * 4 > 10 (D3)
    EXPECT_FALSE(validateParams(p).ok());
    p = defaultParams(2);
    p.maxRounds = 0;
    EXPECT_FALSE(validateParams(p).ok());
    p = defaultParams(2);
    p.zoneDepth = 5;  // 2 * 5 > 8: the zones overlap
    EXPECT_FALSE(validateParams(p).ok());
    p = defaultParams(4);
    p.boardSize = 6;  // a 6x6 board with trim 2 leaves a zone of 2 squares per line
    EXPECT_FALSE(validateParams(p).ok());
}

TEST(Params, TextRoundTrip) {
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        const Params p = defaultParams(seats);
        auto parsed = parseParams(formatParams(p));
        ASSERT_TRUE(parsed.ok()) << parsed.error();
        EXPECT_EQ(parsed.value(), p);
    }
    EXPECT_EQ(formatParams(defaultParams(3)),
              "seats=3 board=10 depth=2 trim=2 strength=10 minstrength=0 rounds=200 pass=stuck");
    Params variant = defaultParams(2);
    variant.maxRounds = 50;
    variant.pass = PassRule::Always;
    variant.strengthTotal = 12;
    auto parsed = parseParams("rounds=50 pass=always seats=2 strength=12");
    ASSERT_TRUE(parsed.ok()) << parsed.error();
    EXPECT_EQ(parsed.value(), variant);
}

TEST(Params, TextErrorsAreValues) {
    EXPECT_FALSE(parseParams("").ok());                    // seats required
    EXPECT_FALSE(parseParams("board=8").ok());             // seats required
    EXPECT_FALSE(parseParams("seats=2 seats=3").ok());     // twice
    EXPECT_FALSE(parseParams("seats=5").ok());             // range
    EXPECT_FALSE(parseParams("seats=2 rounds=-1").ok());   // range
    EXPECT_FALSE(parseParams("seats=2 rounds=1x").ok());   // not a number
    EXPECT_FALSE(parseParams("seats=2 colour=red").ok());  // unknown key
    EXPECT_FALSE(parseParams("seats=2 pass=never").ok());  // unknown value
    EXPECT_FALSE(parseParams("seats=3 trim=0").ok());      // validated
    EXPECT_FALSE(parseParams("seats").ok());               // no '='
}

// D1/D9: seats clockwise from south.
TEST(Params, SeatsSitClockwiseFromSouthD1D9) {
    EXPECT_EQ(sideOfSeat(2, 0), Side::South);
    EXPECT_EQ(sideOfSeat(2, 1), Side::North);
    EXPECT_EQ(sideOfSeat(3, 0), Side::South);
    EXPECT_EQ(sideOfSeat(3, 1), Side::West);
    EXPECT_EQ(sideOfSeat(3, 2), Side::North);
    EXPECT_EQ(sideOfSeat(4, 3), Side::East);
    EXPECT_EQ(sideName(Side::West), "west");
}

TEST(Params, SeatTextIsOneBased) {
    EXPECT_EQ(seatText(0), "1");
    EXPECT_EQ(parseSeat("3", 3).value(), 2);
    EXPECT_FALSE(parseSeat("0", 3).ok());
    EXPECT_FALSE(parseSeat("4", 3).ok());
    EXPECT_FALSE(parseSeat("x", 3).ok());
}

}  // namespace
}  // namespace torneio
