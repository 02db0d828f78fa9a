// Terminal play: the drawing of the board, the opponents and the log (terminal.h). No I/O.
#include "torneio/person/terminal.h"

#include <algorithm>

namespace torneio::person {

using play::kNotRevealed;
using play::Knowledge;
using play::Sighting;

namespace {

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
bool settingUp(const SeatView& game) {
    const Knowledge& k = game.knowledge();
    return !k.own().kingAlive() && !k.eliminated(k.seat()) && k.round() == 0;
}

// The newest sighting standing on the square (a withdrawn piece is no longer there).
const Sighting* sightingOn(const SeatView& game, Square square) {
    const auto& all = game.sightings();
    for (auto it = all.rbegin(); it != all.rend(); ++it)
        if (it->square == square && !it->withdrew) return &*it;
    return nullptr;
}

std::string ownPieceMark(const Piece& piece, int index) {
    if (index == kKing) return "K";
    return "W" + std::to_string(index) + ":" + std::to_string(piece.strength);
}

std::string cellText(const SeatView& game, Square square) {
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

std::string ownPiecesLine(const SeatView& game) {
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

std::string opponentLine(const SeatView& game, int seat) {
    const Knowledge& k = game.knowledge();
    std::string line =
        "  " + seatWord(seat) + " (" + std::string(sideName(game.geometry().side(seat))) + "): ";
    if (k.eliminated(seat)) return line + "out of the game.\n";
    line += std::to_string(game.moves(seat)) + (game.moves(seat) == 1 ? " move" : " moves");
    line += ", gained " + pointsText(k.pointsGained(seat)) + ".";
    return line + "\n";
}

std::string sightingLine(const SeatView& game, const Sighting& s) {
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

// ---- Drawing ---------------------------------------------------------------------------------

std::string drawBoard(const SeatView& game) {
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

std::string drawOpponents(const SeatView& game) {
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

std::string drawLog(const SeatView& game, std::size_t from, std::size_t maxLines) {
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

}  // namespace torneio::person
