// What anyone watching a Torneio table may know (D8), and nothing more: the table's public
// events in order, and what they say of the game (round, whose turn, who is out, points gained,
// where pieces were seen and with what strength, the outcome). A watcher's page is built from
// these alone: publicViewJson is a function of the parameters, the seats and the public events,
// so that a test can rebuild every message a watcher received from a finished game's record.
//
// A running table learns its public events from the decisions its referee accepts (PublicRecord
// below): the rules core applies them to a State of its own, whose public events are kept and
// whose private ones (set-ups, moves, withdrawals, placed points) never leave it.
#pragma once

#include <array>
#include <cstddef>
#include <mutex>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/result.h"
#include "torneio/rules/action.h"
#include "torneio/rules/event.h"
#include "torneio/rules/geometry.h"
#include "torneio/rules/params.h"
#include "torneio/rules/record.h"
#include "torneio/rules/state.h"

namespace web::torneio_tables {

using Json = nlohmann::json;

// PublicSighting::strength of a piece seen without its strength (a combat call, a refused
// order); a revealed king is torneio::kKingReveal (-1).
inline constexpr int kUnrevealed = -2;
// How many sightings a watcher keeps per seat (the least recently seen goes first); a seat has 4
// pieces, and a few more places where one of them may still stand.
inline constexpr std::size_t kSightingsPerSeat = 6;

// PublicSighting: one piece seen in public, where it was last seen.
//   seat, square   whose piece, where; strength: revealed, torneio::kKingReveal or kUnrevealed
//   round          the round it was seen in; movesAt: its seat's "moved" count then (each move
//                  since may have taken it a step further)
//   withdrew       it stepped away in secret from `square` after a combat without a winner (G9)
struct PublicSighting {
    int seat = -1;
    torneio::Square square = torneio::kNoSquare;
    int strength = kUnrevealed;
    int round = 0;
    int movesAt = 0;
    bool withdrew = false;
};

// PublicBoard: the game as the public events tell it, fed them in order.
//   out_[s]       s was eliminated (G11) or disqualified; gained_[s] its points gained (G10)
//   moves_[s]     its "moved" events; passes_[s] its passes (D10)
//   turnSeat_, round_   from the last "turn" event (-1 and 0 before the first)
//   combat_       the square of the combat being resolved (kNoSquare between combats);
//                 revealed_ the seats that revealed in it
//   sightings_    the pieces seen, at most kSightingsPerSeat per seat, the newest last
//   outcome_      from the "end" event
class PublicBoard {
  public:
    explicit PublicBoard(const torneio::Params& params);
    // The next public event. An error (and no change) for a private event, or a seat that is
    // no seat of the game.
    common::Result<bool> take(const torneio::Event& event);
    // The board as a watcher's page shows it: round, turnSeat, players, sightings, combat,
    // over, outcome.
    Json json() const;

  private:
    void see(int seat, torneio::Square square, int strength);
    void forget(int seat, torneio::Square square);

    torneio::Geometry geometry_;
    std::array<bool, torneio::kMaxSeats> out_{};
    std::array<int, torneio::kMaxSeats> gained_{};
    std::array<int, torneio::kMaxSeats> moves_{};
    std::array<int, torneio::kMaxSeats> passes_{};
    int turnSeat_ = -1;
    int round_ = 0;
    torneio::Square combat_ = torneio::kNoSquare;
    std::vector<int> revealed_;
    std::vector<PublicSighting> sightings_;
    torneio::Outcome outcome_;
};

// The public events of a record, in order (audience torneio::kPublic).
std::vector<torneio::Event> publicEvents(const torneio::Record& record);

// A watcher's view (protocol.md, `torneio.watchView`): the parameters (seats, boardSize,
// strengthTotal, maxRounds), the seats as TorneioTable::seatsJson gives them, the public event
// lines from index `from` on (eventsFrom, events, eventCount) and the board after all of them
// (PublicBoard::json). An error when an event is not public.
common::Result<Json> publicViewJson(const torneio::Params& params, const Json& seats,
                                    std::span<const torneio::Event> events, std::size_t from);

// PublicRecord: the public events of a running game, kept from the decisions its referee
// accepts (called on the table's thread) and read by the server's thread. All behind mutex_.
//   state_    the rules core's own State of the game, fed the same decisions as the referee's:
//             its private events stay here, only its public events are copied out
//   taken_    how many of state_'s events were looked at
//   events_   the public events so far, in order
//   resets_   how many times events_ was replaced by a finished game's record (a seat the
//             referee disqualified with a fault this copy could only guess): a watcher then
//             takes the list again from its start
//   broken_   a decision state_ could not apply (it no longer follows the game): nothing is
//             added until the record of the end replaces the list
class PublicRecord {
  public:
    explicit PublicRecord(const torneio::Params& params);
    // An accepted decision; true when public events were added.
    bool decided(int seat, const torneio::Action& action);
    // The referee put `seat` out for a fault; true when public events were added (false when
    // the seat is out already or the game is over).
    bool disqualified(int seat, torneio::Fault fault);
    // Whether the seat is out or the game over in this copy (a seat the referee closes then is
    // dropped, not disqualified).
    bool outOrOver(int seat) const;
    // The finished game's record: its public events replace the list when they differ from it
    // (resets_ counts it); true when they did.
    bool ended(const torneio::Record& record);
    // The public events so far (a copy) and resets_, read together.
    struct Snapshot {
        std::vector<torneio::Event> events;
        int resets = 0;
    };
    Snapshot snapshot() const;

  private:
    void takeNew();

    mutable std::mutex mutex_;
    torneio::State state_;
    std::size_t taken_ = 0;
    std::vector<torneio::Event> events_;
    int resets_ = 0;
    bool broken_ = false;
};

}  // namespace web::torneio_tables
