// Terminal play: the seat's game rebuilt from its lines, the events in plain words, and the
// drawing of the board, the opponents and the log (terminal.h). No I/O.
#include "torneio/person/seat_view.h"

#include <algorithm>

#include "common/text.h"

namespace torneio::terminal {

namespace {

using common::makeError;

// ---- Words -----------------------------------------------------------------------------------

std::string seatWord(int seat) {
    return "Seat " + seatText(seat);
}

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

std::string pointsText(int points) {
    return std::to_string(points) + (points == 1 ? " point" : " points");
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

// ---- Text layout -----------------------------------------------------------------------------

std::string padRight(std::string text, std::size_t width) {
    if (text.size() < width) text.append(width - text.size(), ' ');
    return text;
}

std::string padLeft(const std::string& text, std::size_t width) {
    return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

std::string strengthMark(int strength) {
    if (strength == kKingReveal) return "K";
    if (strength == kNotRevealed) return "?";
    return std::to_string(strength);
}

std::string strengthWords(int strength) {
    if (strength == kKingReveal) return "its KING";
    if (strength == kNotRevealed) return "strength ?";
    return "strength " + std::to_string(strength);
}

std::string movesAgo(int moves) {
    if (moves <= 0) return "no move since";
    return std::to_string(moves) + (moves == 1 ? " move ago" : " moves ago");
}

// ---- The board -------------------------------------------------------------------------------

constexpr std::size_t kCellWidth = 6;  // a blank, then at most 5 characters

// Before its set-up, the seat's zone squares are shown (D2): where it may place its pieces.
bool settingUp(const TerminalGame& game) {
    const Knowledge& k = game.knowledge();
    return !k.own().kingAlive() && !k.eliminated(k.seat()) && k.round() == 0;
}

// The newest sighting standing on the square (a withdrawn piece is no longer there).
const Sighting* sightingOn(const TerminalGame& game, Square square) {
    const auto& all = game.sightings();
    for (auto it = all.rbegin(); it != all.rend(); ++it)
        if (it->square == square && !it->withdrew) return &*it;
    return nullptr;
}

std::string ownPieceMark(const Piece& piece, int index) {
    if (index == kKing) return "K";
    return "W" + std::to_string(index) + ":" + std::to_string(piece.strength);
}

std::string cellText(const TerminalGame& game, Square square) {
    const Knowledge& k = game.knowledge();
    const Geometry& g = game.geometry();
    const int own = k.own().pieceOn(square);
    const Sighting* seen = sightingOn(game, square);
    if (own >= 0) {
        std::string mark = ownPieceMark(k.own()[own], own);
        if (seen && mark.size() < kCellWidth - 1) mark += "+";
        return mark;
    }
    if (seen) return "@" + seatText(seen->seat) + ":" + strengthMark(seen->strength);
    if (!g.isDark(square)) return "";
    return settingUp(game) && g.inZone(k.seat(), square) ? "o" : ".";
}

std::string filesLine(const Geometry& g) {
    std::string line = "   ";
    for (int file = 0; file < g.size(); ++file)
        line += padRight(" " + std::string(1, static_cast<char>('a' + file)), kCellWidth);
    line.erase(line.find_last_not_of(' ') + 1);
    return line + "\n";
}

std::string ownPiecesLine(const TerminalGame& game) {
    const Knowledge& k = game.knowledge();
    const Geometry& g = game.geometry();
    if (k.eliminated(k.seat())) return "Your pieces: none, you are out of the game.\n";
    if (settingUp(game)) return "Your pieces: not set up yet (o marks your zone's dark squares).\n";
    std::string line = "Your pieces:";
    for (int p = 0; p < kPiecesPerSeat; ++p) {
        const Piece& piece = k.own()[p];
        line += p == kKing ? "  K king" : "  W" + std::to_string(p);
        if (!piece.alive)
            line += " out";
        else
            line += " " + g.name(piece.square);
        if (p != kKing) line += " strength " + std::to_string(piece.strength);
        line += p + 1 < kPiecesPerSeat ? "," : ".";
    }
    return line + "\n";
}

std::string opponentLine(const TerminalGame& game, int seat) {
    const Knowledge& k = game.knowledge();
    std::string line =
        "  " + seatWord(seat) + " (" + std::string(sideName(game.geometry().side(seat))) + "): ";
    if (k.eliminated(seat)) return line + "out of the game.\n";
    line += std::to_string(game.moves(seat)) + (game.moves(seat) == 1 ? " move" : " moves");
    line += ", gained " + pointsText(k.pointsGained(seat)) + ".";
    return line + "\n";
}

std::string sightingLine(const TerminalGame& game, const Sighting& s) {
    const Geometry& g = game.geometry();
    std::string line =
        "      " + padRight(g.name(s.square), 4) + padRight(strengthWords(s.strength), 13);
    if (s.withdrew)
        line += "withdrew from " + g.name(s.square) + " in round " + std::to_string(s.round) +
                " to a square next to it";
    else
        line += "seen in round " + std::to_string(s.round) + ", " + movesAgo(game.movesSince(s));
    const int gained = game.knowledge().pointsGained(s.seat) - s.gainedAt;
    if (gained > 0) line += ", +" + pointsText(gained) + " gained since";
    return line + "\n";
}

}  // namespace

// ---- TerminalGame ----------------------------------------------------------------------------

common::Result<TerminalGame> TerminalGame::start(std::string_view newGameLine) {
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
    return TerminalGame(Knowledge(params.value(), seat.value()), *seed);
}

common::Result<bool> TerminalGame::takeEvent(std::string_view line) {
    auto event = parseEvent(line, seat(), geometry());
    if (!event) return makeError(event.error());
    const Square combat = knowledge_.combatSquare();  // before a "turn" clears it
    auto updated = knowledge_.update(event.value());
    if (!updated) return updated;
    remember(event.value());
    const Square where = event.value().kind == EventKind::Combat ? event.value().square : combat;
    std::string text = describeEvent(event.value(), seat(), where, geometry());
    if (!text.empty()) log_.push_back(LogEntry{knowledge_.round(), std::move(text)});
    return true;
}

common::Result<Request> TerminalGame::readRequest(std::string_view line) const {
    return parseRequest(line, seat(), geometry());
}

// The sightings an event gives or takes away (D8: every fact used here is public).
void TerminalGame::remember(const Event& e) {
    const Square combat = knowledge_.combatSquare();
    const bool other = e.seat >= 0 && e.seat != seat() && !isPrivateKind(e.kind);
    switch (e.kind) {
        case EventKind::Moved:
            ++moves_[static_cast<std::size_t>(e.seat)];
            break;
        case EventKind::Combat:
            revealed_.clear();
            if (other) see(e.seat, e.square, kNotRevealed);
            break;
        case EventKind::Unopposed:
            dropUnrevealed(e.square, e.seat);  // nobody else stands there (D5)
            break;
        case EventKind::Reveal:
            revealed_.push_back(e.seat);
            if (other) see(e.seat, combat, e.value);
            break;
        case EventKind::Result:
            dropUnrevealed(combat, -1);  // every piece there has revealed (D12.1)
            break;
        case EventKind::Refused:
            if (other) see(e.seat, e.square, kNotRevealed);
            break;
        case EventKind::Retreat:
            if (other) {
                const auto it =
                    std::find_if(sightings_.begin(), sightings_.end(), [&](const Sighting& s) {
                        return s.seat == e.seat && s.square == combat && !s.withdrew;
                    });
                const int strength = it == sightings_.end() ? kNotRevealed : it->strength;
                forget(e.seat, combat);
                see(e.seat, e.square, strength);
            }
            break;
        case EventKind::Removed:
            if (other) forget(e.seat, e.square);
            break;
        case EventKind::Withdrew:
            if (other)
                for (Sighting& s : sightings_)
                    if (s.seat == e.seat && s.square == combat) {
                        s.withdrew = true;
                        s.round = knowledge_.round();
                        s.movesAt = moves(e.seat);
                    }
            break;
        case EventKind::Eliminated:
        case EventKind::Disqualified:
            forgetSeat(e.seat);
            break;
        default:
            break;
    }
}

// A sighting of (seat, square) now: a new one, or the old one brought up to date. A presence
// without a strength keeps the strength seen there before while the seat has not moved since
// (it is the same piece); after a move it may be another piece.
void TerminalGame::see(int seat, Square square, int strength) {
    for (auto it = sightings_.begin(); it != sightings_.end(); ++it) {
        if (it->seat != seat || it->square != square) continue;
        Sighting s = *it;
        if (strength != kNotRevealed || s.withdrew || movesSince(s) > 0) {
            s.strength = strength;
            s.gainedAt = knowledge_.pointsGained(seat);
        }
        s.round = knowledge_.round();
        s.movesAt = moves(seat);
        s.withdrew = false;
        sightings_.erase(it);
        sightings_.push_back(s);  // the newest last
        return;
    }
    sightings_.push_back(Sighting{seat, square, strength, knowledge_.round(), moves(seat),
                                  knowledge_.pointsGained(seat), false});
    const auto count = std::count_if(sightings_.begin(), sightings_.end(),
                                     [seat](const Sighting& s) { return s.seat == seat; });
    if (static_cast<std::size_t>(count) <= kSightingsPerSeat) return;
    sightings_.erase(std::find_if(sightings_.begin(), sightings_.end(),
                                  [seat](const Sighting& s) { return s.seat == seat; }));
}

void TerminalGame::forget(int seat, Square square) {
    std::erase_if(sightings_,
                  [&](const Sighting& s) { return s.seat == seat && s.square == square; });
}

void TerminalGame::forgetSeat(int seat) {
    std::erase_if(sightings_, [seat](const Sighting& s) { return s.seat == seat; });
}

// A combat on `square` showed every opponent piece standing there: the sightings there of
// seats that did not reveal (nor called it) are out of date. Withdrawn ones are elsewhere.
void TerminalGame::dropUnrevealed(Square square, int attacker) {
    std::erase_if(sightings_, [&](const Sighting& s) {
        const bool revealed =
            std::find(revealed_.begin(), revealed_.end(), s.seat) != revealed_.end();
        return s.square == square && !s.withdrew && s.seat != attacker && !revealed;
    });
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
    }
    return "";
}

// ---- Drawing ---------------------------------------------------------------------------------

std::string drawBoard(const TerminalGame& game) {
    const Geometry& g = game.geometry();
    std::string text = filesLine(g);
    for (int rank = g.size() - 1; rank >= 0; --rank) {
        const std::string label = std::to_string(rank + 1);
        std::string row = padLeft(label, 2) + " ";
        for (int file = 0; file < g.size(); ++file)
            row += padRight(" " + cellText(game, g.at(file, rank)), kCellWidth);
        text += row + " " + label + "\n";
    }
    text += filesLine(g);
    text += ownPiecesLine(game);
    text +=
        "Key: K your king, W1:3 your warrior 1 of strength 3, . an empty dark square,\n"
        "     @2:4 a piece of seat 2 last seen there, strength 4 (? not revealed).\n";
    return text;
}

std::string drawOpponents(const TerminalGame& game) {
    std::string text = "What is known of the others:\n";
    for (int seat = 0; seat < game.geometry().seats(); ++seat) {
        if (seat == game.seat()) continue;
        text += opponentLine(game, seat);
        const auto& all = game.sightings();
        for (auto it = all.rbegin(); it != all.rend(); ++it)
            if (it->seat == seat) text += sightingLine(game, *it);
    }
    return text;
}

std::string drawLog(const TerminalGame& game, std::size_t from, std::size_t maxLines) {
    const auto& log = game.log();
    if (from >= log.size()) return "";
    std::string text = "What happened:\n";
    if (log.size() - from > maxLines) {
        const std::size_t skipped = log.size() - from - maxLines;
        text += "  (" + std::to_string(skipped) + " earlier lines not shown)\n";
        from = log.size() - maxLines;
    }
    int round = -1;
    for (std::size_t i = from; i < log.size(); ++i) {
        if (log[i].round != round) {
            round = log[i].round;
            text += round == 0 ? std::string("  Set-up:\n")
                               : "  Round " + std::to_string(round) + ":\n";
        }
        text += "    " + log[i].text + "\n";
    }
    return text;
}

}  // namespace torneio::terminal
