#include "torneio/play/seat_command.h"

#include <vector>

#include "common/text.h"

namespace torneio::play {

SeatCommand seatCommand(std::string_view line) {
    const std::vector<std::string_view> tokens = common::splitWhitespace(line);
    if (tokens.empty()) return SeatCommand::Empty;
    const std::string_view word = tokens[0];
    if (word == "torneio") return SeatCommand::Torneio;
    if (word == "isready") return SeatCommand::IsReady;
    if (word == "setoption") return SeatCommand::SetOption;
    if (word == "newgame") return SeatCommand::NewGame;
    if (word == "event") return SeatCommand::Event;
    if (word == "request") return SeatCommand::Request;
    if (word == "quit") return SeatCommand::Quit;
    return SeatCommand::Unknown;
}

}  // namespace torneio::play
