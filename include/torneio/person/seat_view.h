// Terminal play (issue 13): what a person playing one seat of a Torneio game sees and types,
// without any I/O. Everything here is built from the protocol lines the referee sends that seat
// (protocol.md, "The Torneio player protocol") and from nothing else: a TerminalGame is made
// from the seat's `newgame` line and fed its event lines, so the screen cannot show what the
// seat may not know (D8). The functions return text and parse what the person typed; the
// referee's human seat (include/torneio/referee/human_seat.h) is the only part that reads and
// writes the terminal.
//
// The screen for one decision (drawScreen):
//   a header (seat, side, round), the board (own pieces with their strengths, the king marked;
//   the last public sighting of opponents' pieces), what is known of each opponent (last
//   revealed squares and strengths, how many of its moves ago), the events since the person's
//   last decision in plain words ("Seat 2 moved.", "Seat 1 calls a combat on d4."), and a
//   prompt listing the legal choices, each with a key to type.
// What the person may type (parseInput): a listed key (a number, or a warrior's number for a
// reward), an action line of the protocol (`move 1 b3`, `combat d4`, `order e5`, `setup king c1
// warriors a1:3 e1:3 g1:4`, ...), a short form (`1 b3`, `k c3` for a move; `e5` for an order or
// a withdrawal; `king c1 warriors ...` for a set-up), `random`, `board`, `help` or `quit`.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/random.h"
#include "common/result.h"
#include "torneio/rules/action.h"
#include "torneio/rules/event.h"
#include "torneio/play/knowledge.h"

namespace torneio::terminal {

// Sighting::strength of a piece whose presence is known but not its strength (a combat call, a
// refused order). A revealed king is kKingReveal (event.h).
inline constexpr int kNotRevealed = -2;
// At most this many sightings are kept per opponent (the oldest goes first).
inline constexpr std::size_t kSightingsPerSeat = 6;

// Sighting: what is publicly known of one opponent piece (D8): where it was last seen.
//   seat      the opponent (0-based)
//   square    where it was seen: its combat call, its reveal, its ordered retreat, a refusal
//   strength  the revealed strength, kKingReveal, or kNotRevealed
//   round     the round it was seen in
//   movesAt   the opponent's count of "moved" events at that moment: each later one may have
//             taken this piece one step further (movesSince)
//   gainedAt  the points the opponent had gained at that moment (G10: totals are public; a
//             point gained since may have gone onto this piece)
//   withdrew  the piece withdrew in secret from `square` after a combat without a winner (G9):
//             it now stands one step away
// Size: 28 bytes.
struct Sighting {
    int seat = -1;
    Square square = kNoSquare;
    int strength = kNotRevealed;
    int round = 0;
    int movesAt = 0;
    int gainedAt = 0;
    bool withdrew = false;

    friend bool operator==(const Sighting&, const Sighting&) = default;
};

// LogEntry: one event in plain words, with the round it happened in (0: the set-ups).
struct LogEntry {
    int round = 0;
    std::string text;
};

// TerminalGame: one seat's game as the person at the terminal knows it, built from the lines
// the referee sent that seat, in order, and nothing else.
//   knowledge_   the seat's Knowledge (knowledge.h): own pieces, who is out, points gained,
//                round, the combat being resolved, the outcome
//   seed_        the seat's seed from its `newgame` line (for the `random` choice)
//   sightings_   what is publicly known of opponents' pieces, oldest first, at most one per
//                (seat, square) and kSightingsPerSeat per seat; dropped when disproved (a combat
//                on the square without that seat's reveal), removed (D7) or out (G11)
//   moves_[s]    how many "moved" events of seat s came so far
//   revealed_    the seats that revealed in the combat being resolved (D12.1)
//   log_         every event that says something to the person, in plain words, oldest first
class TerminalGame {
  public:
    // From the seat's `newgame seat <n> seed <s> <params>` line.
    static common::Result<TerminalGame> start(std::string_view newGameLine);

    // Takes the next event line the seat received: its knowledge, the sightings and the log.
    // An error (and no change) for a line that is not an event this seat can receive now.
    common::Result<bool> takeEvent(std::string_view line);
    // Reads a request line addressed to this seat (parseRequest).
    common::Result<Request> readRequest(std::string_view line) const;

    const Knowledge& knowledge() const { return knowledge_; }
    const Geometry& geometry() const { return knowledge_.geometry(); }
    int seat() const { return knowledge_.seat(); }
    std::uint64_t seed() const { return seed_; }
    const std::vector<Sighting>& sightings() const { return sightings_; }
    const std::vector<LogEntry>& log() const { return log_; }
    int moves(int seat) const { return moves_[static_cast<std::size_t>(seat)]; }
    // The opponent's moves since the sighting: how far the piece may have gone.
    int movesSince(const Sighting& s) const { return moves(s.seat) - s.movesAt; }

  private:
    TerminalGame(Knowledge knowledge, std::uint64_t seed)
        : knowledge_(std::move(knowledge)), seed_(seed) {}
    void remember(const Event& event);
    void see(int seat, Square square, int strength);
    void forget(int seat, Square square);
    void forgetSeat(int seat);
    void dropUnrevealed(Square square, int attacker);

    Knowledge knowledge_;
    std::uint64_t seed_ = 0;
    std::vector<Sighting> sightings_;
    std::array<int, kMaxSeats> moves_{};
    std::vector<int> revealed_;
    std::vector<LogEntry> log_;
};

// ---- Drawing (text, one '\n' after every line) -------------------------------------------------

// One event in plain words from `seat`'s point of view ("Seat 2 moved.", "You call a combat on
// d4."); empty for events that say nothing new to the person (a turn, its own "moved", which
// its private "move" event tells better). `combat` is the square of the combat being resolved.
std::string describeEvent(const Event& event, int seat, Square combat, const Geometry& geometry);

// The board, rank 1 at the bottom: own king `K`, own warrior `W1:3` (warrior 1, strength 3),
// an opponent's piece last seen on a square `@2:4` (seat 2, strength 4; `?` not revealed, `K`
// a king); an own piece on a square where an opponent was seen too gets a `+`; `.` is an empty
// dark square, `o` a dark square of the seat's zone before it has set up. Then a line with the
// own pieces and a legend.
std::string drawBoard(const TerminalGame& game);
// Per opponent: in the game or out, its moves and points gained, and its sightings (newest
// first) with the round and how many of its moves ago.
std::string drawOpponents(const TerminalGame& game);
// The log from entry `from` on, grouped by round; at most `maxLines` entries (the newest), with
// a line saying how many were left out.
std::string drawLog(const TerminalGame& game, std::size_t from, std::size_t maxLines);

// Choice: one listed option of a prompt: the key to type, the action, its description.
struct Choice {
    std::string key;
    Action action;
    std::string label;
};

// Prompt: what is asked and the listed choices. For a set-up the choices are a few proposed
// set-ups (proposedSetUps; any other legal set-up may be typed); for the other requests they are
// exactly legalActions, in its order.
//   title    what is asked, one line
//   body     the choices laid out, with keys
//   marker   the last text shown, without a line end ("turn 3> ")
struct Prompt {
    std::string title;
    std::string body;
    std::string marker;
    std::vector<Choice> choices;
};
Prompt makePrompt(const Request& request, const TerminalGame& game);

// The end of every prompt marker: a test (or a script) waits for it.
inline constexpr std::string_view kPromptEnd = "> ";

// A few legal set-ups for the seat, each with a short description: the king at the back with
// warriors around it, the king in a corner with one strong warrior, warriors spread out.
std::vector<Choice> proposedSetUps(const Geometry& geometry, int seat);

// The whole screen for a request: header, board, opponents, the log from entry `logFrom`, the
// prompt (ending with its marker, no line end).
std::string drawScreen(const TerminalGame& game, const Prompt& prompt, std::size_t logFrom);
// The last screen: the board, the log from `logFrom`, and the result in words.
std::string drawEnd(const TerminalGame& game, std::size_t logFrom);
// What the person may type for this request, with examples.
std::string helpText(const Request& request, const Geometry& geometry);

// ---- Input -----------------------------------------------------------------------------------

// InputKind: what a typed line asks for.
//   Choose  a legal action (Input::action)
//   Random  a random legal action
//   Board   the screen again
//   Help    helpText
//   Quit    the person leaves the game (resigns)
enum class InputKind : std::uint8_t { Choose, Random, Board, Help, Quit };

struct Input {
    InputKind kind = InputKind::Help;
    Action action;
};

// Reads one typed line (case does not matter). An error says what is wrong in words: not
// understood, or not legal (checkAction's reason); the person is then asked again.
common::Result<Input> parseInput(std::string_view line, const Request& request,
                                 const Prompt& prompt, const Knowledge& knowledge);

// Dialog: one request put to the person, as a conversation: `screen()` first, then each typed
// line gets an Answer: text to show and, when the line settled it, the action or the wish to
// quit. Bad input never settles it: the text explains and shows the prompt marker again.
//   game_    the game as the seat knows it; request_ what is asked; prompt_ its choices
class Dialog {
  public:
    Dialog(const TerminalGame& game, const Request& request, std::size_t logFrom);

    const std::string& screen() const { return screen_; }
    const Prompt& prompt() const { return prompt_; }

    // Answer: the reply to one typed line.
    //   text    to show (an explanation and the marker again, the help, a confirmation)
    //   action  the legal action chosen, when the line settled the request
    //   quit    the person quits
    struct Answer {
        std::string text;
        std::optional<Action> action;
        bool quit = false;
    };
    // `random` draws from `random` (seeded by the seat's seed).
    Answer answer(std::string_view line, common::Random& random) const;

  private:
    const TerminalGame& game_;
    Request request_;
    Prompt prompt_;
    std::string screen_;
};

}  // namespace torneio::terminal
