// Terminal play: what a person playing one seat of a Torneio game sees and types, without any
// I/O. Everything drawn here comes from the seat's SeatView (seat_view.h), so the screen cannot
// show what the seat may not know (D8). The functions return text and parse what the person
// typed; the referee's human seat (include/torneio/referee/human_seat.h) is the only part that
// reads and writes the terminal.
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

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/random.h"
#include "common/result.h"
#include "torneio/person/seat_view.h"
#include "torneio/rules/action.h"

namespace torneio::person {

// ---- Drawing (text, one '\n' after every line) -------------------------------------------------

// The board, rank 1 at the bottom: own king `K`, own warrior `W1:3` (warrior 1, strength 3),
// an opponent's piece last seen on a square `@2:4` (seat 2, strength 4; `?` not revealed, `K`
// a king); an own piece on a square where an opponent was seen too gets a `+`; `.` is an empty
// dark square, `o` a dark square of the seat's zone before it has set up. Then a line with the
// own pieces and a legend.
std::string drawBoard(const SeatView& game);
// Per opponent: in the game or out, its moves and points gained, and its sightings (newest
// first) with the round and how many of its moves ago.
std::string drawOpponents(const SeatView& game);
// The log from entry `from` on, grouped by round; at most `maxLines` entries (the newest), with
// a line saying how many were left out.
std::string drawLog(const SeatView& game, std::size_t from, std::size_t maxLines);

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
Prompt makePrompt(const Request& request, const SeatView& game);

// The end of every prompt marker: a test (or a script) waits for it.
inline constexpr std::string_view kPromptEnd = "> ";

// A few legal set-ups for the seat, each with a short description: the king at the back with
// warriors around it, the king in a corner with one strong warrior, warriors spread out.
std::vector<Choice> proposedSetUps(const Geometry& geometry, int seat);

// The whole screen for a request: header, board, opponents, the log from entry `logFrom`, the
// prompt (ending with its marker, no line end).
std::string drawScreen(const SeatView& game, const Prompt& prompt, std::size_t logFrom);
// The last screen: the board, the log from `logFrom`, and the result in words.
std::string drawEnd(const SeatView& game, std::size_t logFrom);
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
                                 const Prompt& prompt, const play::Knowledge& knowledge);

// Dialog: one request put to the person, as a conversation: `screen()` first, then each typed
// line gets an Answer: text to show and, when the line settled it, the action or the wish to
// quit. Bad input never settles it: the text explains and shows the prompt marker again.
//   game_    the game as the seat knows it; request_ what is asked; prompt_ its choices
class Dialog {
  public:
    Dialog(const SeatView& game, const Request& request, std::size_t logFrom);

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
    const SeatView& game_;
    Request request_;
    Prompt prompt_;
    std::string screen_;
};

}  // namespace torneio::person
