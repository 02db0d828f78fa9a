// The human seat: a person plays one seat of a torneio-referee game at the terminal
// (`--player name=me,human`). It is one more Seat (seat.h), so the referee treats it like any
// player: it sends the seat's lines and judges the reply with the same rules.
//
// What the person sees is built from the lines the referee sends this seat and nothing else
// (torneio/person/seat_view.h: a SeatView fed the seat's `newgame` and event lines; drawn by
// torneio/person/terminal.h), never from the referee's State: the leak guarantee of the
// protocol (D8) holds for the screen too.
//
// Behaviour
//   - `torneio` and `isready` are answered at once by the seat itself; options are ignored.
//   - A request shows the screen (person::Dialog) and reads lines until one settles it: a bad
//     line is explained and asked again, never sent, so the person is never disqualified for a
//     typing mistake.
//   - There is no time limit: receive ignores its deadline (--decision-ms is a hang guard for
//     programs; a person may think as long as they like).
//   - `quit` (or the end of the input) ends the seat: receive reports the connection closed, the
//     referee disqualifies the seat (its record says `disqualified <seat> crash`) and the game
//     goes on for the others without it.
//   - When the seat is eliminated in a game of 3 or 4 the person is told at once; the last
//     screen (the result) comes with the `end` event.
#pragma once

#include <iosfwd>
#include <memory>

#include "torneio/referee/seat.h"

namespace torneio::referee {

// A seat for the person who types on `in` and reads `out` (the referee's stdin and stdout).
std::unique_ptr<Seat> makeHumanSeat(std::istream& in, std::ostream& out);

}  // namespace torneio::referee
