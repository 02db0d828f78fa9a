// Actions as integers: one fixed numbering of every decision of a game (OpenSpiel's "distinct
// actions"), so that a learning program can use a policy head of fixed size and a mask. The
// numbering depends on the Params only (board size, zone size, strength rules), never on the
// state; a number may still mean different set-ups for different seats (below).
//
// Layout, with Q = boardSize * boardSize squares (square s = rank * boardSize + file, as in
// geometry.h):
//   [0, 4Q)            move <piece> <sq>   piece * Q + sq          (piece 0 the king, 1..3)
//   [4Q, 5Q)           combat <sq>         4Q + sq
//   5Q                 pass
//   [5Q+1, 6Q+1)       order <sq>          5Q + 1 + sq
//   [6Q+1, 7Q+1)       withdraw <sq>       6Q + 1 + sq
//   [7Q+1, 7Q+4)       reward <w>          7Q + w   (w = 1..3)
//   [7Q+4, 7Q+4+S)     setup ...           7Q + 4 + nthSetUp's number for the deciding seat
// S is the number of set-ups of a seat (110,880 on the 2-seat defaults, 23,760 on the 3-4 seat
// defaults; the largest over the seats if zones differed). A set-up is one action, numbered
// relative to the deciding seat's zone (king, warriors 1-3, strengths; action.h's order), so the
// same number is "the same choice" for every seat, mirrored onto its own zone. Defaults: 8x8
// gives 452 + 110,880 = 111,332 actions; 10x10 gives 704 + 23,760 = 24,464.
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.h"
#include "torneio/rules/action.h"
#include "torneio/rules/geometry.h"

namespace torneio {

// The number of distinct actions of games with this geometry (the layout above).
std::int64_t actionCount(const Geometry& geometry);
// The first set-up action's number (7Q + 4).
std::int64_t firstSetUpAction(const Geometry& geometry);

// The number of `action` when decided by `seat` (0-based): an error for an action that has no
// number (a square off the board, a piece or warrior out of range, a set-up that is not a legal
// set-up of the seat).
common::Result<std::int64_t> actionNumber(int seat, const Action& action, const Geometry& geometry);
// The action a number stands for when `seat` decides: an error when out of range (or a set-up
// number beyond the seat's set-ups). Does not check legality in a state (checkAction does).
common::Result<Action> actionOfNumber(int seat, std::int64_t number, const Geometry& geometry);

// The numbers of every legal reply to `request` by a seat holding `own`, ascending (for a set-up
// request the whole run of the seat's set-ups). Clears `out` first and reuses its storage.
void legalActionNumbers(const Request& request, const OwnPieces& own, const Geometry& geometry,
                        std::vector<std::int64_t>& out);

}  // namespace torneio
