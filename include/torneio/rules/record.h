// Game records: one game = one JSON-lines file (nlohmann json), one JSON object per line.
//
//   {"type":"header","format":"torneio-record","version":1,"params":{...},"seed":"42",
//    "players":["a","b"],"view":null,"start":null}
//   {"type":"action","seat":1,"text":"setup king c1 warriors a1:3 e1:3 g1:4"}
//   {"type":"event","to":1,"text":"event setup king c1 warriors a1:3 e1:3 g1:4"}
//   {"type":"action","seat":2,"text":"setup ..."}
//   {"type":"event","to":"all","text":"event turn 1 1"}
//   ...
//   {"type":"result","outcome":"win","seats":[2],"round":57}
//
// Header: params as an object with the keys of formatParams (seats, board, depth, trim,
// strength, minstrength, rounds, pass); seed as a decimal string (exact beyond 2^53): the
// game's seed in a full record, the seat's own seed (seatSeed) in a seat's record; matchSeed,
// optional (absent in records of before it): the seed of the match the game belongs to, a
// decimal string, never in a seat's record; players'
// names, optional (empty list); view: null for a full record, or the seat (1..N) a seat's
// record is seen from; start: null, or the StartPosition of a game made by
// State::fromPosition ({"turn":1,"round":1,"pieces":[[{"square":"c1","strength":0,
// "alive":true}, ... 4 per seat], ...]}, dead pieces with "square":null).
// Entries: every decision ("action", seat 1..N, the action's text) followed by the events it
// caused ("event", audience "all" or a seat 1..N, the event line); the true set-ups are the
// first actions. Events before the first action are those of the start (fromPosition).
// Result: "ongoing", "win" or "draw", the winning/drawing seats, the round.
// Seats are 1..N in the file (D9) and 0..N-1 in the structs below.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "torneio/rules/action.h"
#include "torneio/rules/event.h"
#include "torneio/rules/params.h"
#include "torneio/rules/state.h"

namespace torneio {

// RecordEntry: one line after the header.
//   kind    Action or Event
//   seat    Action: the deciding seat (0-based)
//   action  Action: the reply
//   event   Event: the event, its audience inside
struct RecordEntry {
    enum class Kind : std::uint8_t { Action, Event };
    Kind kind = Kind::Event;
    int seat = -1;
    Action action;
    Event event;

    friend bool operator==(const RecordEntry&, const RecordEntry&) = default;
};

// Record: one game.
//   viewSeat  -1 for a full record (every action and event); else the seat it is seen from:
//             only that seat's own actions and the events it saw (not replayable)
//   seed      the game's seed (a seat's record: that seat's seed); matchSeed the match's, if
//             the game was played in one
struct Record {
    Params params;
    std::uint64_t seed = 0;
    std::optional<std::uint64_t> matchSeed;
    std::vector<std::string> players;
    std::optional<StartPosition> start;
    int viewSeat = -1;
    std::vector<RecordEntry> entries;
    Outcome outcome;

    friend bool operator==(const Record&, const Record&) = default;
};

// The seed seat s (0-based) of a game receives in its `newgame` line: keyed BLAKE2b of the
// game's seed (common::deriveSeed(gameSeed, "torneio seat", s + 1)), so that a seat's seed tells
// nothing of the game's seed or of another seat's.
std::uint64_t seatSeed(std::uint64_t gameSeed, int seat);

// The full record of a state's game so far (needs event logging on for the whole game).
Record recordOf(const State& state, std::uint64_t seed = 0, std::vector<std::string> players = {});

// The record as seen from one seat: its own actions and the events visible to it (D8), its own
// seed in place of the game's, no match seed.
Record seatRecord(const Record& record, int seat);

// JSON-lines text (each line ends with '\n') and back. Reading checks the structure, every
// action and event line (parseAction / parseEvent) and the params (validateParams).
std::string formatRecord(const Record& record);
common::Result<Record> parseRecord(std::string_view text);

// Files. Errors name the path.
common::Result<bool> writeRecord(const std::string& path, const Record& record);
common::Result<Record> readRecord(const std::string& path);

// Summary: what a verified replay found.
struct Summary {
    Outcome outcome;
    std::size_t decisions = 0;
    std::size_t events = 0;
};

// Replays a full record through the rules: re-applies every action (each must be legal and
// made by the seat to decide) and checks that the events it causes are exactly the recorded
// ones, and that the recorded result is the rules' result. An error names the first mismatch.
common::Result<Summary> replayRecord(const Record& record);

// The game as readable text, for `torneio replay`: a header line (params, seed, players, and
// the seat a seat's record is seen from), then every decision as `seat <n>: <action>` and the
// events it caused, indented, each marked `(to seat <n>)` when private, then the result.
std::string recordListing(const Record& record);

}  // namespace torneio
