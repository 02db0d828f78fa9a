// A person's Torneio seat in the catalogues' words (web_seat_words.h): its log entries and the
// reasons a decision is refused. Every key is written whole at its use.
#include "web/torneio_tables/web_seat_words.h"

#include <algorithm>
#include <array>
#include <string>

namespace web::torneio_tables {

using messages::Json;
using messages::Say;
using torneio::EventKind;
using torneio::Fault;

namespace {

// A fault's words for another seat put out by the referee.
Say disqualified(Fault fault, int seat) {
    const Json params = {{"seat", seat}};
    switch (fault) {
        case Fault::NoStart:
            return {"torneio.log.disqualified.nostart", params};
        case Fault::Malformed:
            return {"torneio.log.disqualified.malformed", params};
        case Fault::Illegal:
            return {"torneio.log.disqualified.illegal", params};
        case Fault::TooLong:
            return {"torneio.log.disqualified.toolong", params};
        case Fault::OutOfTurn:
            return {"torneio.log.disqualified.outofturn", params};
        case Fault::Timeout:
            return {"torneio.log.disqualified.timeout", params};
        case Fault::Crash:
            return {"torneio.log.disqualified.crash", params};
        case Fault::Left:
            return {"torneio.log.disqualified.left", params};
    }
    return {"torneio.log.disqualified.illegal", params};
}

// "1, 3": the seats of a draw (bit i for seat i), 1-based.
std::string seatNumbers(unsigned seats) {
    std::string text;
    for (int s = 0; s < torneio::kMaxSeats; ++s)
        if (seats >> s & 1u) text += (text.empty() ? "" : ", ") + std::to_string(s + 1);
    return text;
}

}  // namespace

Say logSay(const torneio::person::LogEntry& entry, int me, const torneio::Geometry& g) {
    const torneio::Event& e = entry.event;
    const bool mine = e.seat == me;
    const int seat = e.seat + 1;
    const auto square = [&g](torneio::Square s) { return g.name(s); };
    switch (e.kind) {
        case EventKind::Turn:  // never logged (SeatView): the status says whose turn it is
            return {"torneio.log.turn", {{"seat", seat}, {"round", e.value}}};
        case EventKind::Moved:
            return {"torneio.log.moved", {{"seat", seat}}};
        case EventKind::Pass:
            return mine ? Say{"torneio.log.passYou"} : Say{"torneio.log.pass", {{"seat", seat}}};
        case EventKind::Combat:
            return mine ? Say{"torneio.log.combatYou", {{"square", square(e.square)}}}
                        : Say{"torneio.log.combat", {{"seat", seat}, {"square", square(e.square)}}};
        case EventKind::Unopposed:
            return {"torneio.log.unopposed", {{"square", square(e.square)}}};
        case EventKind::Reveal:
            if (e.value == torneio::kKingReveal)
                return mine ? Say{"torneio.log.revealKingYou"}
                            : Say{"torneio.log.revealKing", {{"seat", seat}}};
            return mine ? Say{"torneio.log.revealYou", {{"strength", e.value}}}
                        : Say{"torneio.log.reveal", {{"seat", seat}, {"strength", e.value}}};
        case EventKind::Result:
            if (e.seat < 0) return {"torneio.log.noWinner"};
            return mine ? Say{"torneio.log.winnerYou"}
                        : Say{"torneio.log.winner", {{"seat", seat}}};
        case EventKind::Eliminated:
            if (entry.combat == torneio::kNoSquare)
                return mine ? Say{"torneio.log.eliminatedYouThere"}
                            : Say{"torneio.log.eliminatedThere", {{"seat", seat}}};
            return mine ? Say{"torneio.log.eliminatedYou", {{"square", square(entry.combat)}}}
                        : Say{"torneio.log.eliminated",
                              {{"seat", seat}, {"square", square(entry.combat)}}};
        case EventKind::Refused:
            return mine
                       ? Say{"torneio.log.refusedYou", {{"square", square(e.square)}}}
                       : Say{"torneio.log.refused", {{"seat", seat}, {"square", square(e.square)}}};
        case EventKind::Retreat:
            return mine
                       ? Say{"torneio.log.retreatYou", {{"square", square(e.square)}}}
                       : Say{"torneio.log.retreat", {{"seat", seat}, {"square", square(e.square)}}};
        case EventKind::Removed:
            return mine
                       ? Say{"torneio.log.removedYou", {{"square", square(e.square)}}}
                       : Say{"torneio.log.removed", {{"seat", seat}, {"square", square(e.square)}}};
        case EventKind::Withdrew:
            return {"torneio.log.withdrew", {{"seat", seat}}};
        case EventKind::Gained:
            return mine ? Say{"torneio.log.gainedYou", {{"count", e.value}}}
                        : Say{"torneio.log.gained", {{"seat", seat}, {"count", e.value}}};
        case EventKind::Forfeit:
            return mine ? Say{"torneio.log.forfeitYou", {{"count", e.value}}}
                        : Say{"torneio.log.forfeit", {{"seat", seat}, {"count", e.value}}};
        case EventKind::End: {
            const auto seats = static_cast<unsigned>(e.value);
            if (e.draw)
                return seats >> me & 1u
                           ? Say{"torneio.log.endDrawYou", {{"seats", seatNumbers(seats)}}}
                           : Say{"torneio.log.endDraw", {{"seats", seatNumbers(seats)}}};
            for (int s = 0; s < torneio::kMaxSeats; ++s)
                if (seats >> s & 1u)
                    return s == me ? Say{"torneio.log.endWinYou"}
                                   : Say{"torneio.log.endWin", {{"seat", s + 1}}};
            return {"torneio.log.end"};
        }
        case EventKind::Disqualified:
            if (mine) return {"torneio.log.disqualifiedYou"};
            return disqualified(static_cast<Fault>(e.value), seat);
        case EventKind::SetUp: {
            const auto& s = e.setUp;
            return {"torneio.log.setup",
                    {{"king", square(s.king)},
                     {"square1", square(s.warriors[0])},
                     {"strength1", s.strengths[0]},
                     {"square2", square(s.warriors[1])},
                     {"strength2", s.strengths[1]},
                     {"square3", square(s.warriors[2])},
                     {"strength3", s.strengths[2]}}};
        }
        case EventKind::Move:
            if (e.piece == torneio::kKing)
                return {"torneio.log.moveKing", {{"from", square(e.square)}, {"to", square(e.to)}}};
            return {"torneio.log.move",
                    {{"n", e.piece}, {"from", square(e.square)}, {"to", square(e.to)}}};
        case EventKind::Withdraw:
            return {"torneio.log.withdraw",
                    {{"n", e.piece}, {"from", square(e.square)}, {"to", square(e.to)}}};
        case EventKind::Placed:
            return {"torneio.log.placed", {{"n", e.piece}, {"strength", e.value}}};
        case EventKind::Position:  // never sent by a referee (resampled states only)
            return {"torneio.log.position"};
    }
    return {"torneio.log.end"};
}

Json logEntryJson(const torneio::person::LogEntry& entry, int seat, const torneio::Geometry& g) {
    auto say = logSay(entry, seat, g);
    return {{"round", entry.round},
            {"key", std::move(say.key)},
            {"params", std::move(say.params)},
            {"text", entry.text}};
}

Say refusalSay(const torneio::Request& request, const torneio::OwnPieces& own,
               const torneio::Geometry& g, const torneio::Action& action) {
    using torneio::ActionKind;
    using torneio::RequestKind;
    const auto square = [&g](torneio::Square s) { return g.name(s); };
    switch (request.kind) {
        case RequestKind::SetUp: {
            if (action.kind != ActionKind::SetUp) return {"server.torneio.refused.expectSetUp"};
            const auto& s = action.setUp;
            const std::array<torneio::Square, torneio::kPiecesPerSeat> squares{
                s.king, s.warriors[0], s.warriors[1], s.warriors[2]};
            for (std::size_t i = 0; i < squares.size(); ++i) {
                if (!g.inZone(request.seat, squares[i]))  // D2
                    return {"server.torneio.refused.notZone", {{"square", square(squares[i])}}};
                for (std::size_t j = 0; j < i; ++j)
                    if (squares[j] == squares[i])  // G5
                        return {"server.torneio.refused.twoPieces",
                                {{"square", square(squares[i])}}};
            }
            const int total = g.params().strengthTotal;
            const int least = g.params().minStrength;
            int sum = 0;
            for (const int strength : s.strengths) {
                if (strength < least)  // D3
                    return {"server.torneio.refused.strengthMin",
                            {{"min", least}, {"strength", strength}}};
                sum += strength;
            }
            if (sum != total)  // G4, D3
                return {"server.torneio.refused.strengthTotal", {{"sum", sum}, {"total", total}}};
            break;
        }
        case RequestKind::Turn:
            if (action.kind == ActionKind::Move) {
                if (action.piece < 0 || action.piece >= torneio::kPiecesPerSeat ||
                    !own[action.piece].alive)
                    return action.piece == torneio::kKing
                               ? Say{"server.torneio.refused.kingOut"}
                               : Say{"server.torneio.refused.warriorOut", {{"n", action.piece}}};
                if (!torneio::pieceDestinations(own, action.piece, g).contains(action.square))
                    return action.piece == torneio::kKing  // G5
                               ? Say{"server.torneio.refused.kingTarget",
                                     {{"square", square(action.square)}}}
                               : Say{"server.torneio.refused.warriorTarget",
                                     {{"n", action.piece}, {"square", square(action.square)}}};
                break;
            }
            if (action.kind == ActionKind::Combat) {
                if (own.pieceOn(action.square) < torneio::kFirstWarrior)  // G7
                    return {"server.torneio.refused.noWarrior",
                            {{"square", square(action.square)}}};
                break;
            }
            if (action.kind == ActionKind::Pass) {
                if (!torneio::passAllowed(own, g)) return {"server.torneio.refused.noPass"};  // D10
                break;
            }
            return {"server.torneio.refused.expectTurn"};
        case RequestKind::RetreatOrder: {
            if (action.kind != ActionKind::Order) return {"server.torneio.refused.expectOrder"};
            if (!g.onBoard(request.from)) break;
            const auto steps = g.warriorSteps(request.from);
            if (std::find(steps.begin(), steps.end(), action.square) == steps.end())  // G5, D7
                return {"server.torneio.refused.notAStep",
                        {{"square", square(action.square)}, {"from", square(request.from)}}};
            if (std::find(request.refused.begin(), request.refused.end(), action.square) !=
                request.refused.end())  // D12
                return {"server.torneio.refused.alreadyRefused",
                        {{"square", square(action.square)}}};
            break;
        }
        case RequestKind::Withdraw:
            if (action.kind != ActionKind::Withdraw)
                return {"server.torneio.refused.expectWithdraw"};
            if (request.piece >= torneio::kFirstWarrior &&
                request.piece < torneio::kPiecesPerSeat &&
                !torneio::pieceDestinations(own, request.piece, g).contains(action.square))
                return {"server.torneio.refused.withdrawTarget",
                        {{"n", request.piece}, {"square", square(action.square)}}};  // G5, G9
            break;
        case RequestKind::Reward:
            if (action.kind != ActionKind::Reward) return {"server.torneio.refused.expectReward"};
            if (action.piece < torneio::kFirstWarrior || action.piece >= torneio::kPiecesPerSeat ||
                !own[action.piece].alive)  // G10
                return {"server.torneio.refused.warriorOut", {{"n", action.piece}}};
            break;
    }
    return {"server.torneio.refused.illegal"};
}

}  // namespace web::torneio_tables
