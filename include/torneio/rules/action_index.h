// Actions as integers: one fixed numbering of every decision of a game (OpenSpiel's "distinct
// actions"), so that a learning program can use a policy head of fixed size and a mask. The
// numbering depends on the Params only (board size, strength total), never on the state.
//
// A set-up (G3, G4) is not one number: it is placed as a sequence of small decisions, as
// OpenSpiel's games with a placement phase do (Battleship places one ship an action), so that no
// decision offers more than a few hundred actions (a whole set-up is one of 110,880 on the
// 2-seat defaults). The steps, in order (SetUpSteps below):
//   the king's square, warrior 1's square, its strength, warrior 2's square, its strength,
//   warrior 3's square (its strength is what is left of the total: no decision).
// The referee's protocol keeps the whole set-up as one line (action.h); only the numbers step.
//
// Layout, with Q = boardSize * boardSize squares (square s = rank * boardSize + file, as in
// geometry.h) and T = Params::strengthTotal:
//   [0, 4Q)            move <piece> <sq>   piece * Q + sq          (piece 0 the king, 1..3)
//   [4Q, 5Q)           combat <sq>         4Q + sq
//   5Q                 pass
//   [5Q+1, 6Q+1)       order <sq>          5Q + 1 + sq
//   [6Q+1, 7Q+1)       withdraw <sq>       6Q + 1 + sq
//   [7Q+1, 7Q+4)       reward <w>          7Q + w   (w = 1..3)
//   [7Q+4, 8Q+4)       place <sq>          7Q + 4 + sq: the set-up's next piece goes on <sq>
//   [8Q+4, 8Q+5+T)     strength <n>        8Q + 4 + n: the warrior just placed has strength n
// Defaults: 8x8 gives 452 + 64 + 11 = 527 actions; 10x10 gives 704 + 100 + 11 = 815.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "torneio/rules/action.h"
#include "torneio/rules/geometry.h"

namespace torneio {

// The steps of one set-up (the order above).
inline constexpr int kSetUpSteps = 6;

// SetUpSteps: one seat's set-up while it is placed step by step.
//   seat   the seat setting up (0-based)
//   made   steps made so far, 0..kSetUpSteps (complete at kSetUpSteps)
//   setUp  the squares and strengths chosen so far (the rest kNoSquare / 0); once complete,
//          warrior 3's strength is what the other two left of the total
struct SetUpSteps {
    int seat = 0;
    int made = 0;
    SetUp setUp{};

    bool complete() const { return made == kSetUpSteps; }
    friend bool operator==(const SetUpSteps&, const SetUpSteps&) = default;
};

// The number of distinct actions of games with this geometry (the layout above).
std::int64_t actionCount(const Geometry& geometry);
// The first set-up step's number (7Q + 4: place on square 0), and the first strength's (8Q + 4).
std::int64_t firstSetUpAction(const Geometry& geometry);
std::int64_t firstStrengthAction(const Geometry& geometry);
// Whether a number is a set-up step (place or strength) rather than a whole action.
bool isSetUpStep(std::int64_t number, const Geometry& geometry);

// The number of `action` when decided by `seat` (0-based): an error for an action that has no
// number (a square off the board, a piece or warrior out of range, a set-up: a set-up is
// numbered as its steps, setUpStepNumbers).
common::Result<std::int64_t> actionNumber(int seat, const Action& action, const Geometry& geometry);
// The action a number stands for when `seat` decides: an error when out of range or a set-up
// step. Does not check legality in a state (checkAction does).
common::Result<Action> actionOfNumber(int seat, std::int64_t number, const Geometry& geometry);

// The numbers of every legal reply to `request` by a seat holding `own`, ascending; for a set-up
// request, the legal first steps (the king's squares). Clears `out` first and reuses its storage.
void legalActionNumbers(const Request& request, const OwnPieces& own, const Geometry& geometry,
                        std::vector<std::int64_t>& out);

// The legal next steps of a set-up being placed, ascending (none once complete): a square of
// the seat's zone (D2) not yet taken, or a strength that leaves every later warrior at least
// the minimum (D3). Clears `out` first.
void legalSetUpSteps(const SetUpSteps& steps, const Geometry& geometry,
                     std::vector<std::int64_t>& out);
// Takes one step; an error (steps unchanged) when the number is not a legal next step.
common::Result<bool> applySetUpStep(SetUpSteps& steps, std::int64_t number,
                                    const Geometry& geometry);
// The six step numbers of a whole set-up (the order above); an error when it has none (a square
// off the board, a strength out of 0..T).
common::Result<std::array<std::int64_t, kSetUpSteps>> setUpStepNumbers(const SetUp& setUp,
                                                                       const Geometry& geometry);
// The numbers of the steps taken so far (steps.made of them), in order.
std::vector<std::int64_t> takenSteps(const SetUpSteps& steps, const Geometry& geometry);
// A step's text, "place c1" or "strength 4", and back (an error for other text or numbers).
common::Result<std::string> stepText(std::int64_t number, const Geometry& geometry);
common::Result<std::int64_t> parseStep(std::string_view text, const Geometry& geometry);
// The pieces placed so far ("king c1 warriors e1:4 g1" once three are placed, the last warrior's
// strength not yet chosen): what the seat itself knows of its set-up in progress.
std::string stepsText(const SetUpSteps& steps, const Geometry& geometry);

}  // namespace torneio
