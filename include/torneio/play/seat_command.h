// The referee's commands to a seat (protocol.md, "The Torneio player protocol"), told apart by a
// line's first word in this one place: every reader of the seat's side of the protocol (the
// `torneio` program's PlayerSession, the terminal's human seat, the web table's seat and its
// replay) dispatches on seatCommand(line), each answering the commands its own way.
#pragma once

#include <cstdint>
#include <string_view>

namespace torneio::play {

// SeatCommand: what a line sent to a seat asks.
//   Empty      no word at all
//   Torneio    the handshake (`torneio`): identify, list options, `torneiook`
//   IsReady    `isready`: answer `readyok`
//   SetOption  `setoption name <id> [value <x>]`
//   NewGame    `newgame seat <n> seed <s> <params>`
//   Event      `event ...`: something the seat sees
//   Request    `request ...`: a decision is asked of the seat
//   Quit       `quit`
//   Unknown    any other first word
enum class SeatCommand : std::uint8_t {
    Empty,
    Torneio,
    IsReady,
    SetOption,
    NewGame,
    Event,
    Request,
    Quit,
    Unknown
};

// The command of a line, by its first word (words are separated by spaces or tabs).
SeatCommand seatCommand(std::string_view line);

}  // namespace torneio::play
