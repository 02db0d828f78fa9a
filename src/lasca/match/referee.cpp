#include "lasca/match/referee.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "common/text.h"
#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"

namespace lasca::match {

namespace {

// GameClock: the two clocks of a Clock time control, in milliseconds (may go negative).
struct GameClock {
    std::array<std::int64_t, 2> remaining{};
};

Outcome winFor(Color c) {
    return c == Color::White ? Outcome::WhiteWins : Outcome::BlackWins;
}

std::string positionCommand(const std::string& startLfen, const std::vector<std::string>& moves) {
    std::string cmd = startLfen == kStartLfen ? "position startpos" : "position fen " + startLfen;
    if (!moves.empty()) cmd += " moves";
    for (const auto& m : moves) cmd += " " + m;
    return cmd;
}

std::string goCommand(const TimeControl& tc, const GameClock& clock, Dialect dialect) {
    using Kind = TimeControl::Kind;
    switch (tc.kind) {
        case Kind::MoveTime:
            return "go movetime " + std::to_string(tc.movetimeMs);
        case Kind::Nodes:
            return "go nodes " + std::to_string(tc.nodes);
        case Kind::Depth:
            return "go depth " + std::to_string(tc.depth);
        case Kind::Clock:
            break;
    }
    const bool ugi = dialect == Dialect::Ugi;
    auto ms = [](std::int64_t v) { return std::to_string(v < 0 ? 0 : v); };
    return std::string("go ") + (ugi ? "p1time " : "wtime ") + ms(clock.remaining[0]) +
           (ugi ? " p2time " : " btime ") + ms(clock.remaining[1]) + (ugi ? " p1inc " : " winc ") +
           ms(tc.incMs) + (ugi ? " p2inc " : " binc ") + ms(tc.incMs);
}

// How long the runner waits for this move's bestmove.
std::chrono::milliseconds moveDeadline(const TimeControl& tc, const GameClock& clock, Color c) {
    using Kind = TimeControl::Kind;
    switch (tc.kind) {
        case Kind::MoveTime:
            return std::chrono::milliseconds(tc.movetimeMs) + tc.margin;
        case Kind::Clock:
            return std::chrono::milliseconds(std::max<std::int64_t>(
                       clock.remaining[static_cast<std::size_t>(index(c))], 0)) +
                   tc.margin;
        default:
            return tc.searchTimeout;
    }
}

// True when the move came in time; charges the clock (Clock control only).
bool chargeClock(const TimeControl& tc, GameClock& clock, Color c,
                 std::chrono::milliseconds elapsed) {
    if (tc.kind == TimeControl::Kind::MoveTime)
        return elapsed <= std::chrono::milliseconds(tc.movetimeMs) + tc.margin;
    if (tc.kind != TimeControl::Kind::Clock) return true;
    auto& left = clock.remaining[static_cast<std::size_t>(index(c))];
    left -= elapsed.count();
    if (left < -tc.margin.count()) return false;
    left = std::max<std::int64_t>(left, 0) + tc.incMs;
    return true;
}

// The time control `engine` plays under: the match's, or the engine's own per-move limit.
TimeControl controlFor(const TimeControl& match, const EngineSpec& engine) {
    TimeControl tc = match;
    if (engine.movetimeMs > 0) {
        tc.kind = TimeControl::Kind::MoveTime;
        tc.movetimeMs = engine.movetimeMs;
    } else if (engine.nodes > 0) {
        tc.kind = TimeControl::Kind::Nodes;
        tc.nodes = engine.nodes;
    }
    return tc;
}

// The referee's verdict on the current position, if the game is over.
bool adjudicate(const Game& game, const GameSettings& settings, GameRecord& record) {
    const GameStatus status = game.status(settings.rules);
    if (status.over()) {
        record.outcome = status.outcome;
        record.reason = status.termination == Termination::NoLegalMove  ? EndReason::NoLegalMove
                        : status.termination == Termination::Repetition ? EndReason::Repetition
                                                                        : EndReason::NoProgress;
        return true;
    }
    if (settings.maxPlies > 0 && static_cast<int>(game.moves().size()) >= settings.maxPlies) {
        record.outcome = Outcome::Draw;
        record.reason = EndReason::MaxPlies;
        return true;
    }
    return false;
}

void lose(GameRecord& record, Color loser, EndReason reason, std::string detail) {
    record.outcome = winFor(~loser);
    record.reason = reason;
    record.detail = std::string(loser == Color::White ? "White" : "Black") + ": " + detail;
}

// Why the reply to one `go` loses the game, if it does (before its move is even read).
struct Failure {
    EndReason reason;
    std::string detail;
};
std::optional<Failure> replyFailure(const MoveReply& reply, bool inTime) {
    switch (reply.status) {
        case ReplyStatus::Crashed:
            return Failure{EndReason::Crash, "engine process ended"};
        case ReplyStatus::Timeout:
            return Failure{EndReason::TimeForfeit,
                           "no bestmove after " + std::to_string(reply.elapsed.count()) + " ms"};
        case ReplyStatus::Garbled:
            return Failure{EndReason::GarbledMove, "bestmove without a move"};
        case ReplyStatus::Ok:
            break;
    }
    if (!inTime)
        return Failure{EndReason::TimeForfeit,
                       "out of time (" + std::to_string(reply.elapsed.count()) + " ms)"};
    return std::nullopt;
}

// Checks the reply to one `go`; plays the move and returns true when it is legal and in time.
bool refereeMove(const MoveReply& reply, bool inTime, Game& game, GameRecord& record) {
    const Color mover = game.current().sideToMove();
    if (auto failure = replyFailure(reply, inTime)) {
        lose(record, mover, failure->reason, failure->detail);
        return false;
    }
    auto move = parseMove(game.current(), reply.move);
    if (!move) {
        const bool wellFormed = move.error().find("not legal") != std::string::npos ||
                                move.error().find("written with") != std::string::npos ||
                                reply.move == "0000";
        lose(record, mover, wellFormed ? EndReason::IllegalMove : EndReason::GarbledMove,
             move.error());
        return false;
    }
    game.play(move.value());
    record.moves.push_back(formatMove(move.value()));
    return true;
}

}  // namespace

const char* endReasonName(EndReason r) {
    switch (r) {
        // Endings by the rules carry the rules core's own names.
        case EndReason::NoLegalMove:
            return terminationName(Termination::NoLegalMove);
        case EndReason::Repetition:
            return terminationName(Termination::Repetition);
        case EndReason::NoProgress:
            return terminationName(Termination::NoProgress);
        case EndReason::MaxPlies:
            return "max plies";
        case EndReason::IllegalMove:
            return "illegal move";
        case EndReason::GarbledMove:
            return "garbled move";
        case EndReason::TimeForfeit:
            return "time forfeit";
        case EndReason::Crash:
            return "crash";
        case EndReason::Disconnected:
            return "disconnected";
    }
    return "?";
}

GameRecord forfeitGame(Color loser, const std::string& detail) {
    GameRecord record;
    record.startLfen = std::string(kStartLfen);
    lose(record, loser, EndReason::Disconnected, detail);
    return record;
}

GameRecord playGame(Engine& white, Engine& black, const Position& start,
                    const GameSettings& settings) {
    GameRecord record;
    record.white = white.spec().name;
    record.black = black.spec().name;
    record.startLfen = start.toLfen();
    std::array<Engine*, 2> engines{&white, &black};
    for (Color c : {Color::White, Color::Black}) {
        if (!engines[static_cast<std::size_t>(index(c))]->newGame()) {
            lose(record, c, EndReason::Disconnected, "no readyok after the new-game command");
            return record;
        }
    }
    const std::array<TimeControl, 2> controls{controlFor(settings.timeControl, white.spec()),
                                              controlFor(settings.timeControl, black.spec())};
    GameClock clock;
    clock.remaining = {settings.timeControl.baseMs, settings.timeControl.baseMs};
    Game game(start);
    while (!adjudicate(game, settings, record)) {
        const Color mover = game.current().sideToMove();
        Engine& engine = *engines[static_cast<std::size_t>(index(mover))];
        const TimeControl& tc = controls[static_cast<std::size_t>(index(mover))];
        const MoveReply reply = engine.requestMove(positionCommand(record.startLfen, record.moves),
                                                   goCommand(tc, clock, engine.spec().dialect),
                                                   moveDeadline(tc, clock, mover));
        const bool inTime =
            reply.status != ReplyStatus::Ok || chargeClock(tc, clock, mover, reply.elapsed);
        if (!refereeMove(reply, inTime, game, record)) break;
    }
    return record;
}

common::Result<TimeControl> parseClock(std::string_view text) {
    const std::string tc(text);
    const auto plus = tc.find('+');
    double base = 0, inc = 0;
    try {
        base = std::stod(tc.substr(0, plus));
        inc = plus == std::string::npos ? 0 : std::stod(tc.substr(plus + 1));
    } catch (const std::logic_error&) {
        return common::makeError("--tc: '" + common::printable(text) + "' is not SECONDS+INC");
    }
    constexpr double kMaxSeconds = 1e6;
    if (!(base > 0 && base <= kMaxSeconds && inc >= 0 && inc <= kMaxSeconds))
        return common::makeError("--tc needs 0 < SECONDS <= 1000000 and 0 <= INC <= 1000000");
    TimeControl t;
    t.kind = TimeControl::Kind::Clock;
    t.baseMs = std::llround(base * 1000);
    t.incMs = std::llround(inc * 1000);
    return t;
}

}  // namespace lasca::match
