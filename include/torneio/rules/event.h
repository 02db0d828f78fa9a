// Events: what happens in a game, each with its audience (D8). The referee sends a seat the
// events it may see, one line each; records keep them all with their audience.
//
// Event lines (seats 1..N, squares as in geometry.h). Public events, seen by every seat:
//   event turn <seat> <round>            D9/D11/D13: <seat> is to play in round <round>
//   event moved <seat>                   G6: <seat> moved a piece (nothing more)
//   event pass <seat>                    D10/D13
//   event combat <seat> <sq>             G7: <seat> calls a combat on <sq>
//   event unopposed <seat> <sq>          D5: nobody else stands on <sq>; nothing is revealed
//   event reveal <seat> <n>|king         G7/D12.1: <seat>'s piece on the square (attacker last)
//   event result <seat>|none             G8/D12.2: the combat's winner, or no winner
//   event eliminated <seat>              G11/D12.3: <seat>'s king stood there; its pieces leave
//   event refused <seat> <sq>            G9/D12.4: the winner ordered <seat>'s piece to <sq>,
//                                        where <seat> has a piece of its own
//   event retreat <seat> <sq>            G9/D12.4: <seat>'s losing piece went to <sq>, as ordered
//   event removed <seat> <sq>            D7: <seat>'s piece on <sq> had nowhere to go
//   event withdrew <seat>                G9/D12.4: <seat>'s piece withdrew (where is secret)
//   event gained <seat> <points>         G10/D12.5: <seat> gained <points> strength points
//   event forfeit <seat> <points>        <seat> has no living warrior: <points> are lost
//                                        (cannot happen under G5, see State::askRewardOrNext;
//                                        kept so that every case has a defined answer)
//   event end win <seat>                 G12: the last player left
//   event end draw <seat> <seat> ...     D11: the survivors after the last round, ascending
//   event disqualified <seat> <fault>    the referee put <seat> out for a protocol fault (see
//                                        Fault); its pieces leave the board as for G11
// Private events, seen only by the seat they concern (which the line does not name):
//   event setup king <sq> warriors <sq>:<n> <sq>:<n> <sq>:<n>     G3: the seat's own set-up
//   event move <piece> <from> <to>       G6: its own move
//   event withdraw <piece> <from> <to>   G9: its own withdrawal
//   event placed <warrior> <strength>    G10: one reward point placed; the warrior's new strength
//   event position king <sq>|- warriors <sq>|-:<n> <sq>|-:<n> <sq>|-:<n>
//                                        not sent by a referee: in a resampled state
//                                        (State::withHiddenPieces) the seat's pieces in that
//                                        world ("-" dead), in place of its private past
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"
#include "torneio/rules/action.h"
#include "torneio/rules/geometry.h"

namespace torneio {

// Audience of a public event; a private event's audience is a seat index.
inline constexpr int kPublic = -1;
// Event::value of a reveal of a king (G7/D12: a king reveals as "king", not as a strength).
inline constexpr int kKingReveal = -1;

enum class EventKind : std::uint8_t {
    // public
    Turn,
    Moved,
    Pass,
    Combat,
    Unopposed,
    Reveal,
    Result,
    Eliminated,
    Refused,
    Retreat,
    Removed,
    Withdrew,
    Gained,
    Forfeit,
    End,
    // private
    SetUp,
    Move,
    Withdraw,
    Placed,
    // public, added for the referee (State::disqualify)
    Disqualified,
    // private, only in resampled states (State::withHiddenPieces)
    Position,
};

// Fault: why the referee disqualified a seat. Not a rule of the game: a player program that
// fails the protocol (torneio-referee, protocol.md) is put out, its pieces leave the board and
// its turns are skipped as for an elimination (G11, D9), and the game goes on for the others.
//   NoStart    did not start or did not answer the handshake / isready
//   Malformed  a reply that is not an action line
//   Illegal    an action that is not a legal reply to the request
//   TooLong    a line over the referee's length limit
//   OutOfTurn  a line when no reply was due
//   Timeout    no reply within the time allowed for a decision
//   Crash      the program ended (its output closed)
//   Left       a person left the game (quit at the terminal, or their input ended)
enum class Fault : std::uint8_t {
    NoStart,
    Malformed,
    Illegal,
    TooLong,
    OutOfTurn,
    Timeout,
    Crash,
    Left
};
inline constexpr int kFaultCount = 8;

// "nostart", "malformed", "illegal", "toolong", "outofturn", "timeout", "crash", "left", and
// back.
std::string_view faultName(Fault fault);
common::Result<Fault> parseFault(std::string_view text);

// True for the kinds seen only by the seat they concern.
bool isPrivateKind(EventKind kind);

// Event: one thing that happened. Fields by kind (unused fields keep their defaults):
//   audience  kPublic, or the seat of a private event
//   seat      the seat the event is about (Turn, Moved, Pass, Combat, Unopposed, Reveal,
//             Eliminated, Refused, Retreat, Removed, Withdrew, Gained, Forfeit); Result: the
//             winner or -1 for none; private kinds: the seat concerned (== audience)
//   piece     Move, Withdraw: the piece index; Placed: the warrior (1..3)
//   square    Combat, Unopposed, Refused, Retreat, Removed: the square; Move, Withdraw: from
//   to        Move, Withdraw: destination
//   value     Turn: the round; Reveal: the strength or kKingReveal; Gained, Forfeit: points;
//             Placed: the new strength; End: bit i set for each winning (win) or drawing
//             (draw) seat i; Disqualified: the Fault
//   draw      End: true for a draw (D11), false for a win (G12)
//   setUp     SetUp: the set-up; Position: the pieces (kNoSquare for a dead one)
// Size: 60 bytes.
struct Event {
    EventKind kind = EventKind::Turn;
    int audience = kPublic;
    int seat = -1;
    int piece = -1;
    Square square = kNoSquare;
    Square to = kNoSquare;
    int value = 0;
    bool draw = false;
    SetUp setUp{};

    friend bool operator==(const Event&, const Event&) = default;
};

// Whether `seat` may see the event (public, or private to it).
inline bool visibleTo(const Event& event, int seat) {
    return event.audience == kPublic || event.audience == seat;
}

// One line, as listed at the top of this file (no line break).
std::string formatEvent(const Event& event, const Geometry& geometry);

// Reads an event line. Public kinds get audience kPublic; private kinds get audience and seat
// `receiver` (the seat that received the line), which must then be a seat (0..seats-1).
common::Result<Event> parseEvent(std::string_view text, int receiver, const Geometry& geometry);

}  // namespace torneio
