// The referee of one Torneio game: it holds the true State, sends each seat the lines of its
// own view (protocol.md, "The Torneio player protocol") and judges every reply with the rules
// core (checkAction). A player that fails the protocol (Fault: a malformed or illegal reply, a
// line over the length limit, a line when no reply was due, no reply in time, a crash) is
// disqualified (State::disqualify): that seat only is out, the record's public event says why,
// and the game goes on for the others.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/result.h"
#include "torneio/referee/seat.h"
#include "torneio/rules/record.h"

namespace torneio::referee {

// Limits: how long and how much the referee waits for. Time limits are hang guards.
//   start     each step of the handshake: `torneio` to `torneiook`, `isready` to `readyok`
//   decision  one decision: from the `isready` sent before a request to the reply line; also how
//             long a seat may take to take the lines sent to it (Seat::limitWrites), so that a
//             player that stops reading never blocks the game
//   maxLine   the longest line (bytes, without its end) a player may send
struct Limits {
    std::chrono::milliseconds start{10000};
    std::chrono::milliseconds decision{10000};
    std::size_t maxLine = 4096;
};

// SeatFault: a seat disqualified during a game.
//   seat    0-based; fault as in the record's `event disqualified` line; detail for people
//           (what the player sent, how long the referee waited)
struct SeatFault {
    int seat = -1;
    Fault fault = Fault::Crash;
    std::string detail;
};

// GameSetup: one game.
//   params     the rules (validated); names are the players by seat
//   seed       the game's seed, kept in the record; seat s gets seatSeed(seed, s) (record.h) in its
//              `newgame` line, from which nothing of the game's seed or of another seat's can
//              be computed (common/seed.h)
//   matchSeed  the match's seed the game's seed was derived from, if any, kept in the record
//   seatSeeds  empty, or exactly one seed per seat given instead of seatSeed's (tests that change
//              one seat's seed alone)
//   decided    if set, called on the referee's thread after each accepted decision (the seat,
//              0-based, and the action) and before any event it caused goes out: a caller that
//              keeps the record (the web server's database) has it saved before a seat is told
//   ended      if set, called once on the referee's thread when the game is over, with its
//              record, before any seat is sent an event of the end: the end is kept before a
//              seat is told the game is over
struct GameSetup {
    Params params;
    std::uint64_t seed = 0;
    std::vector<std::string> names;
    std::optional<std::uint64_t> matchSeed;
    std::vector<std::uint64_t> seatSeeds;
    std::function<void(int seat, const Action& action)> decided;
    std::function<void(const Record& record)> ended;
};

// GameResult: the full record of the game (record.h: every action and event, the outcome)
// and the faults, in the order they happened.
struct GameResult {
    Record record;
    std::vector<SeatFault> faults;
};

// The handshake of a freshly opened seat: `torneio` until `torneiook` (the id, option and info
// lines before it are read and dropped), one `setoption` per option of the spec, then `isready`
// until `readyok`. An error says what was missing.
common::Result<bool> handshake(Seat& seat, const SeatSpec& spec, const Limits& limits);

// Between two games of a program that played before: `isready` until `readyok`, every line
// before it (one the player sent after the last game's end) discarded and logged. An error when
// `readyok` does not come (the player ended, hangs or takes no input): the caller starts it
// again.
common::Result<bool> resync(Seat& seat, const Limits& limits);

// Plays one game. seats[s] plays seat s (seats.size() == params.seats), after its handshake;
// nullptr for a player that could not be started or did not answer the handshake: that seat is
// disqualified (nostart) before the set-ups. A disqualified seat is closed; the caller opens it
// again before its next game.
GameResult playGame(std::span<Seat* const> seats, const GameSetup& setup, const Limits& limits);

// The `newgame` line of a seat (protocol.md): `newgame seat <n> seed <s> <params>`.
std::string newGameLine(int seat, std::uint64_t seed, const Params& params);

}  // namespace torneio::referee
