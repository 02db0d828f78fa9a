// The view of one seat: the seat's game rebuilt from its lines, and the events in plain words
// (seat_view.h). No I/O.
#include "torneio/person/seat_view.h"

#include <algorithm>

#include "common/text.h"

namespace torneio::person {

using play::Knowledge;

namespace {

using common::makeError;

// ---- Words -----------------------------------------------------------------------------------

// "You" or "Seat 2", as the subject of a sentence.
std::string subject(int seat, int me) {
    return seat == me ? "You" : seatWord(seat);
}

// "Your" or "Seat 2's".
std::string possessive(int seat, int me) {
    return seat == me ? "Your" : seatWord(seat) + "'s";
}

// The verb for a subject: "call" for "You", "calls" for "Seat 2".
std::string verb(int seat, int me, std::string_view plain, std::string_view third) {
    return std::string(seat == me ? plain : third);
}

std::string pieceWord(int piece) {
    return piece == kKing ? std::string("your king") : "warrior " + std::to_string(piece);
}

// "seats 1 and 2" / "seats 1, 3 and 4", with "you" for the seat itself.
std::string seatList(unsigned seats, int me) {
    std::vector<std::string> names;
    for (int s = 0; s < kMaxSeats; ++s)
        if (seats >> s & 1u) names.push_back(s == me ? "you" : "seat " + seatText(s));
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) text += i + 1 == names.size() ? " and " : ", ";
        text += names[i];
    }
    return text;
}

std::string endText(const Event& e, int me) {
    const auto seats = static_cast<unsigned>(e.value);
    if (!e.draw) {
        for (int s = 0; s < kMaxSeats; ++s)
            if (seats >> s & 1u)
                return s == me ? "Game over: you win!" : "Game over: " + seatWord(s) + " wins.";
        return "Game over.";
    }
    return "Game over after the last round (D11): a draw between " + seatList(seats, me) + ".";
}

std::string revealText(const Event& e, int me) {
    if (e.value == kKingReveal)
        return e.seat == me ? "Your king stands on the square!"
                            : seatWord(e.seat) + " reveals its KING!";
    return subject(e.seat, me) + " " + verb(e.seat, me, "reveal", "reveals") + " strength " +
           std::to_string(e.value) + ".";
}

std::string resultText(const Event& e, int me) {
    if (e.seat < 0) return "No winner: every warrior on the square withdraws in secret (G8, G9).";
    return subject(e.seat, me) + " " + verb(e.seat, me, "win", "wins") + " the combat.";
}

std::string setUpText(const SetUp& s, const Geometry& g) {
    std::string text = "Your set-up: king " + g.name(s.king);
    for (std::size_t i = 0; i < kWarriors; ++i)
        text += ", warrior " + std::to_string(i + 1) + " " + g.name(s.warriors[i]) + " (strength " +
                std::to_string(s.strengths[i]) + ")";
    return text + ".";
}

}  // namespace

// ---- Words shared with the screen ------------------------------------------------------------

std::string seatWord(int seat) {
    return "Seat " + seatText(seat);
}

std::string pointsText(int points) {
    return std::to_string(points) + (points == 1 ? " point" : " points");
}

// ---- SeatView ------------------------------------------------------------------------------

common::Result<SeatView> SeatView::start(std::string_view newGameLine) {
    const auto t = common::splitWhitespace(newGameLine);
    if (t.size() < 6 || t[0] != "newgame" || t[1] != "seat" || t[3] != "seed")
        return makeError("expected 'newgame seat <n> seed <s> <params>'");
    const auto seed = common::parseSeed(t[4]);
    if (!seed) return makeError("newgame: bad seed '" + common::printable(t[4]) + "'");
    std::string paramsText;
    for (std::size_t i = 5; i < t.size(); ++i) paramsText += std::string(t[i]) + " ";
    auto params = parseParams(paramsText);
    if (!params) return makeError("newgame: " + params.error());
    auto seat = parseSeat(t[2], params.value().seats);
    if (!seat) return makeError("newgame: " + seat.error());
    return SeatView(Knowledge(params.value(), seat.value()), *seed);
}

common::Result<bool> SeatView::takeEvent(std::string_view line) {
    auto event = parseEvent(line, seat(), geometry());
    if (!event) return makeError(event.error());
    const Square combat = knowledge_.combatSquare();  // before a "turn" clears it
    auto updated = knowledge_.update(event.value());
    if (!updated) return updated;
    sightings_.observe(event.value(), knowledge_);
    const Square where = event.value().kind == EventKind::Combat ? event.value().square : combat;
    std::string text = describeEvent(event.value(), seat(), where, geometry());
    if (!text.empty())
        log_.push_back(LogEntry{knowledge_.round(), std::move(text), event.value(), where});
    return true;
}

common::Result<Request> SeatView::readRequest(std::string_view line) const {
    return parseRequest(line, seat(), geometry());
}

// ---- Words -----------------------------------------------------------------------------------

std::string describeEvent(const Event& e, int me, Square combat, const Geometry& g) {
    const std::string where = combat == kNoSquare ? std::string("the square") : g.name(combat);
    switch (e.kind) {
        case EventKind::Turn:
            return "";
        case EventKind::Moved:
            return e.seat == me ? "" : seatWord(e.seat) + " moved.";
        case EventKind::Pass:
            return subject(e.seat, me) + " " + verb(e.seat, me, "pass", "passes") + ".";
        case EventKind::Combat:
            return subject(e.seat, me) + " " + verb(e.seat, me, "call", "calls") + " a combat on " +
                   g.name(e.square) + ".";
        case EventKind::Unopposed:
            return "Nobody else stands on " + g.name(e.square) + ": nothing is revealed.";
        case EventKind::Reveal:
            return revealText(e, me);
        case EventKind::Result:
            return resultText(e, me);
        case EventKind::Eliminated:
            return e.seat == me ? "You are eliminated: your king stood on " + where + " (G11)."
                                : seatWord(e.seat) + " is eliminated: its king stood on " + where +
                                      " (G11).";
        case EventKind::Refused:
            return subject(e.seat, me) + " " + verb(e.seat, me, "have", "has") + " a piece on " +
                   g.name(e.square) + ": the order is refused.";
        case EventKind::Retreat:
            return possessive(e.seat, me) + " losing warrior retreats to " + g.name(e.square) + ".";
        case EventKind::Removed:
            return possessive(e.seat, me) + " warrior on " + g.name(e.square) +
                   " has nowhere to go and leaves the game (D7).";
        case EventKind::Withdrew:
            return e.seat == me ? "" : seatWord(e.seat) + "'s warrior withdraws in secret.";
        case EventKind::Gained:
            return subject(e.seat, me) + " " + verb(e.seat, me, "gain", "gains") + " " +
                   pointsText(e.value) + ".";
        case EventKind::Forfeit:
            return subject(e.seat, me) + " " + verb(e.seat, me, "have", "has") +
                   " no warrior left: " + pointsText(e.value) + " lost.";
        case EventKind::End:
            return endText(e, me);
        case EventKind::Disqualified:
            return subject(e.seat, me) + " " + verb(e.seat, me, "are", "is") +
                   " put out of the game by the referee (" +
                   std::string(faultName(static_cast<Fault>(e.value))) + ").";
        case EventKind::SetUp:
            return setUpText(e.setUp, g);
        case EventKind::Move:
            return "You moved " + pieceWord(e.piece) + " from " + g.name(e.square) + " to " +
                   g.name(e.to) + ".";
        case EventKind::Withdraw:
            return "Your warrior " + std::to_string(e.piece) + " withdrew in secret from " +
                   g.name(e.square) + " to " + g.name(e.to) + ".";
        case EventKind::Placed:
            return "Warrior " + std::to_string(e.piece) + " gets the point: strength " +
                   std::to_string(e.value) + " now.";
        case EventKind::Position:
            return "Your pieces in this sampled world: " + formatEvent(e, g).substr(15) + ".";
    }
    return "";
}

}  // namespace torneio::person
