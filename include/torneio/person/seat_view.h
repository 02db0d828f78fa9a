// The view of one seat of a Torneio game as a person knows it, without any I/O: built from the
// protocol lines the referee sends that seat (protocol.md, "The Torneio player protocol") and
// from nothing else. A SeatView is made from the seat's `newgame` line and fed its event lines,
// so what is drawn from it (terminal.h, the web's Torneio table) cannot show what the seat may
// not know (D8). It holds the seat's Knowledge, its sightings of opponents' pieces
// (torneio/play/sightings.h) and the events in plain words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "torneio/play/knowledge.h"
#include "torneio/play/sightings.h"
#include "torneio/rules/action.h"
#include "torneio/rules/event.h"

namespace torneio::person {

// The person's sightings: up to 6 per opponent, in the order last seen; a withdrawal (G9) marks
// the sightings on the combat square, a retreat is a new sighting with the strength seen there.
inline constexpr play::SightingRules kPersonSightings{6, true, true};

// LogEntry: one event in plain words, with the round it happened in (0: the set-ups), the event
// itself and the square of the combat it belongs to (kNoSquare outside a combat), so that a page
// can say it in its own words (web/torneio_tables/web_seat_words.h).
struct LogEntry {
    int round = 0;
    std::string text;
    Event event{};
    Square combat = kNoSquare;
};

// SeatView: one seat's game as the person playing it knows it, built from the lines the referee
// sent that seat, in order, and nothing else.
//   knowledge_   the seat's Knowledge (knowledge.h): own pieces, who is out, points gained,
//                round, the combat being resolved, the outcome
//   seed_        the seat's seed from its `newgame` line (for the `random` choice)
//   sightings_   what is publicly known of opponents' pieces (sightings.h), kept by
//                kPersonSightings; moves(s) counts the "moved" events of seat s
//   log_         every event that says something to the person, in plain words, oldest first
class SeatView {
  public:
    // From the seat's `newgame seat <n> seed <s> <params>` line.
    static common::Result<SeatView> start(std::string_view newGameLine);

    // Takes the next event line the seat received: its knowledge, the sightings and the log.
    // An error (and no change) for a line that is not an event this seat can receive now.
    common::Result<bool> takeEvent(std::string_view line);
    // Reads a request line addressed to this seat (parseRequest).
    common::Result<Request> readRequest(std::string_view line) const;

    const play::Knowledge& knowledge() const { return knowledge_; }
    const Geometry& geometry() const { return knowledge_.geometry(); }
    int seat() const { return knowledge_.seat(); }
    std::uint64_t seed() const { return seed_; }
    // Oldest first: the newest sighting is the last.
    const std::vector<play::Sighting>& sightings() const { return sightings_.all(); }
    const std::vector<LogEntry>& log() const { return log_; }
    int moves(int seat) const { return sightings_.moves(seat); }
    // The opponent's moves since the sighting: how far the piece may have gone.
    int movesSince(const play::Sighting& s) const { return sightings_.movesSince(s); }

  private:
    SeatView(play::Knowledge knowledge, std::uint64_t seed)
        : knowledge_(std::move(knowledge)), seed_(seed) {}

    play::Knowledge knowledge_;
    std::uint64_t seed_ = 0;
    play::Sightings sightings_{kPersonSightings};
    std::vector<LogEntry> log_;
};

// ---- Words -----------------------------------------------------------------------------------

// One event in plain words from `seat`'s point of view ("Seat 2 moved.", "You call a combat on
// d4."); empty for events that say nothing new to the person (a turn, its own "moved", which
// its private "move" event tells better). `combat` is the square of the combat being resolved.
std::string describeEvent(const Event& event, int seat, Square combat, const Geometry& geometry);
// "Seat 2" (seats are 0-based here, 1-based in words).
std::string seatWord(int seat);
// "1 point", "3 points".
std::string pointsText(int points);

}  // namespace torneio::person
