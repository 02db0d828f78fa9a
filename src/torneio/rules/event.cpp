#include "torneio/rules/event.h"

#include <array>

#include "common/text.h"

namespace torneio {

namespace {

using common::makeError;
using Tokens = std::vector<std::string_view>;

// The keyword of each kind, in EventKind order.
constexpr std::array<std::string_view, 21> kKindWords{
    "turn",       "moved",   "pass",    "combat",   "unopposed", "reveal",       "result",
    "eliminated", "refused", "retreat", "removed",  "withdrew",  "gained",       "forfeit",
    "end",        "setup",   "move",    "withdraw", "placed",    "disqualified", "position"};

// The word of each Fault, in Fault order.
constexpr std::array<std::string_view, kFaultCount> kFaultWords{
    "nostart", "malformed", "illegal", "toolong", "outofturn", "timeout", "crash", "left"};

std::string_view kindWord(EventKind kind) {
    return kKindWords[static_cast<std::size_t>(kind)];
}

// The tokens after "event <kind>" of each kind, for error messages.
std::string_view kindForm(EventKind kind) {
    switch (kind) {
        case EventKind::Turn:
            return "event turn <seat> <round>";
        case EventKind::Moved:
            return "event moved <seat>";
        case EventKind::Pass:
            return "event pass <seat>";
        case EventKind::Combat:
            return "event combat <seat> <square>";
        case EventKind::Unopposed:
            return "event unopposed <seat> <square>";
        case EventKind::Reveal:
            return "event reveal <seat> <strength>|king";
        case EventKind::Result:
            return "event result <seat>|none";
        case EventKind::Eliminated:
            return "event eliminated <seat>";
        case EventKind::Refused:
            return "event refused <seat> <square>";
        case EventKind::Retreat:
            return "event retreat <seat> <square>";
        case EventKind::Removed:
            return "event removed <seat> <square>";
        case EventKind::Withdrew:
            return "event withdrew <seat>";
        case EventKind::Gained:
            return "event gained <seat> <points>";
        case EventKind::Forfeit:
            return "event forfeit <seat> <points>";
        case EventKind::End:
            return "event end win <seat> | event end draw <seat> <seat> ...";
        case EventKind::SetUp:
            return "event setup king <sq> warriors <sq>:<n> <sq>:<n> <sq>:<n>";
        case EventKind::Move:
            return "event move <piece> <from> <to>";
        case EventKind::Withdraw:
            return "event withdraw <warrior> <from> <to>";
        case EventKind::Placed:
            return "event placed <warrior> <strength>";
        case EventKind::Disqualified:
            return "event disqualified <seat> <fault>";
        case EventKind::Position:
            return "event position king <sq>|- warriors <sq>|-:<n> <sq>|-:<n> <sq>|-:<n>";
    }
    return "event ?";
}

common::Result<int> parseNumber(std::string_view text, std::int64_t low, std::int64_t high) {
    const auto number = common::parseBoundedInteger(text, low, high);
    if (!number)
        return makeError("expected a number in " + std::to_string(low) + ".." +
                         std::to_string(high) + ", not '" + common::printable(text) + "'");
    return static_cast<int>(*number);
}

// The largest strength a warrior can reach: the total plus every point of every combat of a
// long game is far below this bound; it only keeps numbers sane.
constexpr int kMaxStrength = 1'000'000;

// The body of an End event: "win <seat>" or "draw <seat> <seat> ...".
common::Result<Event> parseEnd(const Tokens& tokens, const Geometry& geometry) {
    Event e;
    e.kind = EventKind::End;
    if (tokens.size() < 4 || (tokens[2] != "win" && tokens[2] != "draw") ||
        (tokens[2] == "win" && tokens.size() != 4))
        return makeError(std::string("expected '") + std::string(kindForm(EventKind::End)) + "'");
    e.draw = tokens[2] == "draw";
    int previous = -1;
    for (std::size_t i = 3; i < tokens.size(); ++i) {
        auto seat = parseSeat(tokens[i], geometry.seats());
        if (!seat) return makeError(seat.error());
        if (seat.value() <= previous) return makeError("end seats must be ascending");
        previous = seat.value();
        e.value |= 1 << seat.value();
    }
    return e;
}

}  // namespace

std::string_view faultName(Fault fault) {
    return kFaultWords[static_cast<std::size_t>(fault)];
}

common::Result<Fault> parseFault(std::string_view text) {
    for (std::size_t i = 0; i < kFaultWords.size(); ++i)
        if (kFaultWords[i] == text) return static_cast<Fault>(i);
    return makeError("unknown fault '" + common::printable(text) + "'");
}

bool isPrivateKind(EventKind kind) {
    return kind == EventKind::SetUp || kind == EventKind::Move || kind == EventKind::Withdraw ||
           kind == EventKind::Placed || kind == EventKind::Position;
}

std::string formatEvent(const Event& e, const Geometry& geometry) {
    std::string text = "event " + std::string(kindWord(e.kind));
    const auto add = [&text](const std::string& token) { text += " " + token; };
    switch (e.kind) {
        case EventKind::Turn:
            add(seatText(e.seat));
            add(std::to_string(e.value));
            break;
        case EventKind::Moved:
        case EventKind::Pass:
        case EventKind::Eliminated:
        case EventKind::Withdrew:
            add(seatText(e.seat));
            break;
        case EventKind::Combat:
        case EventKind::Unopposed:
        case EventKind::Refused:
        case EventKind::Retreat:
        case EventKind::Removed:
            add(seatText(e.seat));
            add(geometry.name(e.square));
            break;
        case EventKind::Reveal:
            add(seatText(e.seat));
            add(e.value == kKingReveal ? std::string("king") : std::to_string(e.value));
            break;
        case EventKind::Result:
            add(e.seat < 0 ? std::string("none") : seatText(e.seat));
            break;
        case EventKind::Gained:
        case EventKind::Forfeit:
            add(seatText(e.seat));
            add(std::to_string(e.value));
            break;
        case EventKind::End:
            add(e.draw ? "draw" : "win");
            for (int seat = 0; seat < kMaxSeats; ++seat)
                if ((e.value >> seat & 1) != 0) add(seatText(seat));
            break;
        case EventKind::SetUp:
            add(formatSetUp(e.setUp, geometry));
            break;
        case EventKind::Move:
        case EventKind::Withdraw:
            add(std::to_string(e.piece));
            add(geometry.name(e.square));
            add(geometry.name(e.to));
            break;
        case EventKind::Placed:
            add(std::to_string(e.piece));
            add(std::to_string(e.value));
            break;
        case EventKind::Disqualified:
            add(seatText(e.seat));
            add(std::string(faultName(static_cast<Fault>(e.value))));
            break;
        case EventKind::Position: {
            const auto square = [&geometry](Square q) {
                return geometry.onBoard(q) ? geometry.name(q) : std::string("-");
            };
            add("king");
            add(square(e.setUp.king));
            add("warriors");
            for (std::size_t i = 0; i < kWarriors; ++i)
                add(square(e.setUp.warriors[i]) + ":" + std::to_string(e.setUp.strengths[i]));
            break;
        }
    }
    return text;
}

common::Result<Event> parseEvent(std::string_view text, int receiver, const Geometry& geometry) {
    const Tokens tokens = common::splitWhitespace(text);
    if (tokens.size() < 2 || tokens[0] != "event") return makeError("expected 'event <kind> ...'");
    std::size_t kindIndex = 0;
    while (kindIndex < kKindWords.size() && kKindWords[kindIndex] != tokens[1]) ++kindIndex;
    if (kindIndex == kKindWords.size())
        return makeError("unknown event '" + common::printable(tokens[1]) + "'");
    const auto kind = static_cast<EventKind>(kindIndex);
    const auto wrong = [kind] {
        return makeError("expected '" + std::string(kindForm(kind)) + "'");
    };

    Event e;
    e.kind = kind;
    if (isPrivateKind(kind)) {
        if (receiver < 0 || receiver >= geometry.seats())
            return makeError("a private event needs the seat that received it");
        e.audience = receiver;
        e.seat = receiver;
    }
    // Reads tokens[i] as a seat / square / number into a field.
    const auto seatAt = [&](std::size_t i, int& field) -> common::Result<bool> {
        auto seat = parseSeat(tokens[i], geometry.seats());
        if (!seat) return makeError(seat.error());
        field = seat.value();
        return true;
    };
    const auto squareAt = [&](std::size_t i, Square& field) -> common::Result<bool> {
        auto square = geometry.parse(tokens[i]);
        if (!square) return makeError(square.error());
        field = square.value();
        return true;
    };
    const auto numberAt = [&](std::size_t i, int& field, int low,
                              int high) -> common::Result<bool> {
        auto number = parseNumber(tokens[i], low, high);
        if (!number) return makeError(number.error());
        field = number.value();
        return true;
    };
    common::Result<bool> ok = true;
    switch (kind) {
        case EventKind::Turn:
            if (tokens.size() != 4) return wrong();
            if (ok = seatAt(2, e.seat); ok) ok = numberAt(3, e.value, 1, kMaxRoundsLimit);
            break;
        case EventKind::Moved:
        case EventKind::Pass:
        case EventKind::Eliminated:
        case EventKind::Withdrew:
            if (tokens.size() != 3) return wrong();
            ok = seatAt(2, e.seat);
            break;
        case EventKind::Combat:
        case EventKind::Unopposed:
        case EventKind::Refused:
        case EventKind::Retreat:
        case EventKind::Removed:
            if (tokens.size() != 4) return wrong();
            if (ok = seatAt(2, e.seat); ok) ok = squareAt(3, e.square);
            break;
        case EventKind::Reveal:
            if (tokens.size() != 4) return wrong();
            if (ok = seatAt(2, e.seat); ok) {
                if (tokens[3] == "king") {
                    e.value = kKingReveal;
                } else {
                    ok = numberAt(3, e.value, 0, kMaxStrength);
                }
            }
            break;
        case EventKind::Result:
            if (tokens.size() != 3) return wrong();
            if (tokens[2] == "none") {
                e.seat = -1;
            } else {
                ok = seatAt(2, e.seat);
            }
            break;
        case EventKind::Gained:
        case EventKind::Forfeit:
            if (tokens.size() != 4) return wrong();
            if (ok = seatAt(2, e.seat); ok) ok = numberAt(3, e.value, 1, kMaxStrengthTotal);
            break;
        case EventKind::End:
            return parseEnd(tokens, geometry);
        case EventKind::SetUp: {
            auto setUp = parseSetUp(text.substr(text.find("setup") + 5), geometry);
            if (!setUp) return makeError(setUp.error());
            e.setUp = setUp.value();
            break;
        }
        case EventKind::Move:
        case EventKind::Withdraw:
            if (tokens.size() != 5) return wrong();
            ok = numberAt(2, e.piece, kind == EventKind::Move ? kKing : kFirstWarrior,
                          kPiecesPerSeat - 1);
            if (ok) ok = squareAt(3, e.square);
            if (ok) ok = squareAt(4, e.to);
            break;
        case EventKind::Placed:
            if (tokens.size() != 4) return wrong();
            ok = numberAt(2, e.piece, kFirstWarrior, kPiecesPerSeat - 1);
            if (ok) ok = numberAt(3, e.value, 1, kMaxStrength);
            break;
        case EventKind::Position: {
            if (tokens.size() != 8 || tokens[2] != "king" || tokens[4] != "warriors")
                return wrong();
            const auto square = [&](std::string_view t, Square& field) -> common::Result<bool> {
                if (t == "-") {
                    field = kNoSquare;
                    return true;
                }
                auto q = geometry.parse(t);
                if (!q) return makeError(q.error());
                field = q.value();
                return true;
            };
            ok = square(tokens[3], e.setUp.king);
            for (std::size_t i = 0; ok && i < kWarriors; ++i) {
                const std::string_view field = tokens[5 + i];
                const std::size_t colon = field.find(':');
                if (colon == std::string_view::npos) return wrong();
                ok = square(field.substr(0, colon), e.setUp.warriors[i]);
                if (ok) {
                    auto n = parseNumber(field.substr(colon + 1), 0, kMaxStrength);
                    if (!n)
                        ok = makeError(n.error());
                    else
                        e.setUp.strengths[i] = n.value();
                }
            }
            break;
        }
        case EventKind::Disqualified: {
            if (tokens.size() != 4) return wrong();
            ok = seatAt(2, e.seat);
            auto fault = parseFault(tokens[3]);
            if (ok && !fault) ok = makeError(fault.error());
            if (ok) e.value = static_cast<int>(fault.value());
            break;
        }
    }
    if (!ok) return makeError(ok.error());
    return e;
}

}  // namespace torneio
