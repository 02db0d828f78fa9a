// Params: every rule choice of one Torneio game (torneio-rules.md, defaults D1-D13) that another
// reading of the column could make differently. A game is played under one Params value; it is
// stated in every record (record.h) and can be given to the referee as text (formatParams).
//
// Seats. In C++ a seat is an index 0..seats-1 (seat 0 = "seat 1" of D9, south). Every text form
// of the project (actions, requests, events, params, records) numbers seats 1..seats as D9 does.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"

namespace torneio {

inline constexpr int kMinSeats = 2;  // G1
inline constexpr int kMaxSeats = 4;  // G1
inline constexpr int kMinBoardSize = 4;
inline constexpr int kMaxBoardSize = 16;  // files a..p, ranks 1..16
inline constexpr int kMaxStrengthTotal = 1000;
inline constexpr int kMaxRoundsLimit = 100'000;

// D10: when a player may pass.
//   WhenStuck  only when it can neither move nor call a combat (the column's reading, D10)
//   Always     pass is one more legal choice on every turn (a variant)
enum class PassRule : std::uint8_t { WhenStuck, Always };

// Params: the rule choices of one game.
//   seats          G1: 2..4 players
//   boardSize      D1: squares per side (8 for 2 seats, 10 for 3-4)
//   zoneDepth      D2: a home zone is the zoneDepth lines nearest the seat's side (2)
//   zoneTrim       D2: squares left out at each end of those lines (0 for 2 seats, 2 for 3-4,
//                  so that no two zones meet)
//   strengthTotal  G4/D3: the points a seat splits among its 3 warriors (10)
//   minStrength    D3: the least strength of a warrior at set-up (0)
//   maxRounds      D11/D13: the game is drawn among the survivors after this round (200)
//   pass           D10: when passing is legal (WhenStuck)
// Rules that are not parameters, because the game has no sensible alternative or the column is
// explicit: D4 (pieces of different seats share squares, only own pieces block), D5 (a combat
// on a square without opponents is legal and spends the turn: a player cannot know where the
// others are), D6-D8, D9 (seat 1 first), D12 (the order of a combat's events).
// Invariants (validateParams): see there. Size: 32 bytes.
struct Params {
    int seats = 2;
    int boardSize = 8;
    int zoneDepth = 2;
    int zoneTrim = 0;
    int strengthTotal = 10;
    int minStrength = 0;
    int maxRounds = 200;
    PassRule pass = PassRule::WhenStuck;

    friend bool operator==(const Params&, const Params&) = default;
};

// The defaults D1-D13 for a seat count (2..4; other counts give the 2-seat defaults with that
// seat count, which validateParams rejects).
Params defaultParams(int seats);

// The params themselves when they describe a playable game, else what is wrong:
//   seats in 2..4; boardSize in 4..16; zoneDepth >= 1; zoneTrim >= 0;
//   2 seats: 2*zoneDepth <= boardSize (the two zones do not overlap);
//   3-4 seats: zoneTrim >= zoneDepth (side zones do not meet) and 2*zoneDepth <= boardSize;
//   every zone has at least 4 dark squares (G2: 4 pieces on different squares, D2);
//   strengthTotal in 0..1000, minStrength >= 0, 3*minStrength <= strengthTotal;
//   maxRounds in 1..100000.
common::Result<Params> validateParams(const Params& params);

// Text form, every field always written, in this order:
//   seats=3 board=10 depth=2 trim=2 strength=10 minstrength=0 rounds=200 pass=stuck
// (pass=stuck or pass=always). parseParams reads the keys in any order, each at most once;
// `seats` is required and the missing keys take defaultParams(seats). The result is validated.
std::string formatParams(const Params& params);
common::Result<Params> parseParams(std::string_view text);

// D1/D9: the side of the board each seat sits at. Seats go clockwise from south:
//   2 seats: south, north; 3 seats: south, west, north; 4 seats: south, west, north, east.
enum class Side : std::uint8_t { South, West, North, East };
Side sideOfSeat(int seats, int seat);
std::string_view sideName(Side side);  // "south", "west", "north", "east"

// D2: whether the square at (file, rank) (0-based) is in the seat's home zone, light or dark:
// the zoneDepth lines nearest its side, without zoneTrim squares at each end of those lines
// (south: ranks 1-2; north: the two highest ranks; west: files a-b; east: the two highest
// files). With the defaults: 8x8 south a1-h2, north a7-h8; 10x10 south c1-h2, west a3-b8,
// north c9-h10, east i3-j8.
bool inHomeZone(const Params& params, int seat, int file, int rank);

// Seat text (D9): seat index 0..seats-1 written as 1..seats, and back (range-checked).
std::string seatText(int seat);
common::Result<int> parseSeat(std::string_view text, int seats);

}  // namespace torneio
