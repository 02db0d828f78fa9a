// Knowledge: what one seat knows of a game, rebuilt from the event lines a referee sent it
// (protocol.md, "The Torneio player protocol"; D8) and nothing else: its own pieces (so that
// legalActions(request, knowledge.own(), geometry) gives its legal replies) and the public facts
// (who is out, points gained, whose turn and which round, the combat being resolved, the
// result). A player program keeps one and updates it with every event line it receives. Fed
// every event a seat sees, in order, its own pieces equal the rules core's view of the seat
// (viewOf(state, seat).own) after every event (tests/torneio/play/knowledge_test.cpp).
#pragma once

#include <array>
#include <string_view>

#include "common/result.h"
#include "torneio/rules/action.h"
#include "torneio/rules/event.h"
#include "torneio/rules/geometry.h"
#include "torneio/rules/params.h"
#include "torneio/rules/state.h"

namespace torneio::play {

// Knowledge: one seat's running knowledge.
//   geometry_      the board and Params of the game
//   seat_          whose knowledge (0-based)
//   own_           its pieces: set by its "setup" event, moved by its "move", "withdraw" and
//                  public "retreat" events, strengthened by "placed", taken off by "removed",
//                  "eliminated" and "disqualified" (dead pieces keep their strength, as in State)
//   out_           public: seats eliminated (G11) or disqualified by the referee
//   gained_        public (G10, D12.5): points each seat has gained
//   turnSeat_, round_   from the last "turn" event (-1 and 0 before the first)
//   combatSquare_  the square of the last "combat" event (where "retreat" starts from), cleared
//                  by the next "turn"
//   setUp_         its "setup" event came (or the game started from a position): a second one
//                  is refused
//   outcome_       from the "end" event; no event is taken after it
// Size: about 150 bytes plus the Geometry (a few KB).
class Knowledge {
  public:
    // params must be valid (validateParams) and seat in 0..seats-1. The seat's pieces come
    // with its "setup" event.
    Knowledge(const Params& params, int seat);
    // A game from a position (State::fromPosition, tests): the seat's pieces at the start.
    Knowledge(const Params& params, int seat, const OwnPieces& start);

    // Takes the next event the seat received. An error (and no change) when the event cannot
    // be one the seat sees at this point: private to another seat, about a piece it does not
    // have there, a "retreat" outside a combat, a second "setup" or one that is not a legal
    // set-up of this seat (D2, D3), any event after "end".
    common::Result<bool> update(const Event& event);
    // The same from an event line (parseEvent with this seat as the receiver).
    common::Result<bool> update(std::string_view line);

    const Geometry& geometry() const { return geometry_; }
    int seat() const { return seat_; }
    const OwnPieces& own() const { return own_; }
    bool eliminated(int seat) const { return out_[static_cast<std::size_t>(seat)]; }
    int pointsGained(int seat) const { return gained_[static_cast<std::size_t>(seat)]; }
    int turnSeat() const { return turnSeat_; }
    int round() const { return round_; }
    Square combatSquare() const { return combatSquare_; }
    bool over() const { return outcome_.kind != OutcomeKind::Ongoing; }
    bool setUp() const { return setUp_; }
    const Outcome& outcome() const { return outcome_; }

  private:
    common::Result<bool> updateOwn(const Event& event);

    Geometry geometry_;
    int seat_;
    OwnPieces own_;
    std::array<bool, kMaxSeats> out_{};
    std::array<int, kMaxSeats> gained_{};
    int turnSeat_ = -1;
    int round_ = 0;
    Square combatSquare_ = kNoSquare;
    bool setUp_ = false;
    Outcome outcome_;
};

}  // namespace torneio::play
