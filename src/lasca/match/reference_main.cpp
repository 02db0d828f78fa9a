// lasca-reference: the reference players of reference_players.h behind a minimal protocol loop
// (uci/ugi, isready, setoption, ucinewgame/uginewgame, position, go, quit). `go` ignores its
// parameters and answers at once with `bestmove <move>` (`bestmove 0000` when there is no
// legal move). Errors get one `info string error: ...` line; the previous state stays.
#include <cstdint>
#include <iostream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/text.h"
#include "common/version.h"
#include "lasca/core/game.h"
#include "lasca/core/notation.h"
#include "lasca/engine/protocol.h"
#include "lasca/match/reference_players.h"

namespace {

using lasca::match::PlayerConfig;
using Tokens = std::vector<std::string_view>;

constexpr int kMaxDepth = 30;
constexpr std::int64_t kMaxSeed = 2147483647;

// ReferenceState: everything the loop remembers between commands.
//   player      the configured player (Player and Depth options)
//   seed        the Seed option; the generator is reseeded with seed + games at each new game
//   games       number of new-game commands seen
//   position    the current position (after the moves of the last `position` command)
struct ReferenceState {
    PlayerConfig player;
    std::int64_t seed = 0;
    std::uint64_t games = 0;
    common::Random rng{0};
    lasca::Position position = lasca::Position::startPosition();
};

void reply(const std::string& line) {
    std::cout << line << std::endl;
}

void error(const std::string& what) {
    reply(common::errorLine(what));
}

void handshake(std::string_view dialect) {
    reply("id name Lasca reference");
    reply("id author the lasca developers");
    reply("option name Player type string default alphabeta");
    reply("option name Depth type spin default 6 min 1 max " + std::to_string(kMaxDepth));
    reply("option name Seed type spin default 0 min 0 max " + std::to_string(kMaxSeed));
    reply(std::string(dialect) + "ok");
}

// setoption name <id> value <x>: every option here has a value.
void setOption(const Tokens& t, ReferenceState& state) {
    const auto option = common::parseSetOption(t);
    if (!option || option->value.empty()) return error("setoption: bad syntax");
    const std::string& value = option->value;
    if (common::equalsIgnoringCase(option->name, "player")) {
        const auto kind = lasca::match::parsePlayerKind(value);
        if (!kind) return error("option Player must be random, greedy or alphabeta");
        state.player.kind = *kind;
    } else if (common::equalsIgnoringCase(option->name, "depth")) {
        const auto n = common::parseBoundedInteger(value, 1, kMaxDepth);
        if (!n) return error("option Depth out of range");
        state.player.depth = static_cast<int>(*n);
    } else if (common::equalsIgnoringCase(option->name, "seed")) {
        const auto n = common::parseBoundedInteger(value, 0, kMaxSeed);
        if (!n) return error("option Seed out of range");
        state.seed = *n;
        state.rng.reseed(static_cast<std::uint64_t>(*n));
    } else {
        error("unknown option '" + option->name + "'");
    }
}

void newGame(ReferenceState& state) {
    ++state.games;
    state.rng.reseed(static_cast<std::uint64_t>(state.seed) + state.games);
    state.position = lasca::Position::startPosition();
}

// position startpos|fen <LFEN: 2 to 4 fields> [moves ...]; at an illegal move the position is
// the one before it.
void setPosition(const Tokens& t, ReferenceState& state) {
    using Kind = lasca::engine::PositionCommandError::Kind;
    auto parsed = lasca::engine::parsePositionCommand(t);
    if (const auto* bad = std::get_if<lasca::engine::PositionCommandError>(&parsed)) {
        if (bad->kind == Kind::AfterStartpos)
            return error("position: unexpected '" + bad->word + "'");
        return error(bad->kind == Kind::BadLfen ? bad->word : "position: expected startpos or fen");
    }
    const auto& command = std::get<lasca::engine::PositionCommand>(parsed);
    lasca::Game game(command.start);
    for (const std::string& move : command.moves) {
        if (!game.playText(move)) {
            state.position = game.current();
            return error("illegal move " + move);
        }
    }
    state.position = game.current();
}

void go(ReferenceState& state) {
    const lasca::Move m = lasca::match::chooseMove(state.position, state.player, state.rng);
    reply("bestmove " + lasca::formatMove(m));
}

// Returns false on quit.
bool handle(std::string_view line, ReferenceState& state) {
    const Tokens t = common::splitWhitespace(line);
    if (t.empty()) return true;
    const std::string_view cmd = t[0];
    if (cmd == "uci" || cmd == "ugi") {
        handshake(cmd);
    } else if (cmd == "isready") {
        reply("readyok");
    } else if (cmd == "setoption") {
        setOption(t, state);
    } else if (cmd == "ucinewgame" || cmd == "uginewgame") {
        newGame(state);
    } else if (cmd == "position") {
        setPosition(t, state);
    } else if (cmd == "go") {
        go(state);
    } else if (cmd == "quit") {
        return false;
    } else if (cmd != "stop") {
        error("unknown command '" + std::string(cmd) + "'");
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (common::printVersionIfAsked(argc, argv, "lasca-reference", std::cout)) return 0;
    if (argc > 1) {
        std::cout
            << "Usage: lasca-reference\n\n"
               "The reference players of lasca-match as one engine speaking the Lasca UCI "
               "protocol on stdin/stdout\n(protocol.md); its option Player chooses random, "
               "greedy or alphabeta (its Depth option).\n\nOptions:\n  -h, --help     this help\n"
               "  -V, --version  the version\n";
        return std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h" ? 0 : 2;
    }
    std::ios::sync_with_stdio(false);
    ReferenceState state;
    common::readCommandLines(
        std::cin, lasca::engine::kMaxLineBytes,
        [&](std::string_view line) { return handle(line, state); },
        [](std::size_t length) {
            error(common::lineTooLong(length, lasca::engine::kMaxLineBytes));
        });
    return 0;
}
