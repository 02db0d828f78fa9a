#include "lasca/core/notation.h"

#include <vector>

#include "common/text.h"
#include "lasca/core/movegen.h"

namespace lasca {

namespace {

constexpr std::size_t kMaxMoveText = 64;

// The squares of a move as written, and the separator used between them (0 for none).
struct WrittenMove {
    std::vector<Square> squares;
    char separator = 0;
};

common::Result<WrittenMove> readSquares(std::string_view text) {
    const std::string shown = common::printable(text);
    if (text.empty()) return common::makeError("empty move");
    if (text.size() > kMaxMoveText) return common::makeError("move '" + shown + "' is too long");
    if (text.back() == '*') text.remove_suffix(1);

    WrittenMove written;
    std::string separators;  // what stood between each pair of squares (' ' for nothing)
    std::size_t i = 0;
    while (true) {
        if (i + 2 > text.size())
            return common::makeError("move '" + shown + "' ends where a square name should be");
        const auto square = parseSquare(text.substr(i, 2));
        if (!square)
            return common::makeError("bad square name '" + common::printable(text.substr(i, 2)) +
                                     "' in move '" + shown + "'");
        written.squares.push_back(*square);
        i += 2;
        if (i == text.size()) break;
        const bool isSeparator = text[i] == '-' || text[i] == 'x';
        separators += isSeparator ? text[i] : ' ';
        if (isSeparator) ++i;
    }
    if (separators.find_first_not_of(separators.empty() ? ' ' : separators[0]) != std::string::npos)
        return common::makeError("move '" + shown + "' mixes separators");
    written.separator = separators.empty() || separators[0] == ' ' ? 0 : separators[0];
    if (written.squares.size() < 2)
        return common::makeError("move '" + shown + "' needs at least two squares");
    if (written.squares.size() > kMaxJumps + 1)
        return common::makeError("move '" + shown + "' has more squares than any capture can have");
    return written;
}

bool samePath(const Move& m, const std::vector<Square>& squares) {
    if (m.origin() != squares[0] || static_cast<std::size_t>(m.length) + 1 != squares.size())
        return false;
    for (int i = 0; i < m.length; ++i)
        if (m.landing(i) != squares[static_cast<std::size_t>(i) + 1]) return false;
    return true;
}

}  // namespace

std::string formatMove(const Move& m) {
    if (m.isNull()) return "0000";
    std::string text = squareName(m.origin());
    for (int i = 0; i < m.length; ++i) {
        text += m.capture ? 'x' : '-';
        text += squareName(m.landing(i));
    }
    return text;
}

common::Result<std::vector<Square>> moveSquares(std::string_view text) {
    auto written = readSquares(text);
    if (!written) return common::makeError(written.error());
    return written.value().squares;
}

common::Result<Move> moveShape(std::string_view text) {
    auto written = readSquares(text);
    if (!written) return common::makeError(written.error());
    const std::vector<Square>& squares = written.value().squares;
    const std::string shown = common::printable(text);
    Move move{};
    move.from = static_cast<std::uint8_t>(squares[0]);
    move.length = static_cast<std::uint8_t>(squares.size() - 1);
    for (std::size_t i = 1; i < squares.size(); ++i) {
        const int df = fileOf(squares[i]) - fileOf(squares[i - 1]);
        const int dr = rankOf(squares[i]) - rankOf(squares[i - 1]);
        const int reach = df < 0 ? -df : df;
        if (reach != (dr < 0 ? -dr : dr) || reach < 1 || reach > 2)
            return common::makeError("move '" + shown +
                                     "': each square must be one diagonal step or one jump (two "
                                     "squares along a diagonal) from the one before");
        const bool jump = reach == 2;
        if (i == 1) move.capture = jump;
        if (jump != move.capture || (!jump && squares.size() > 2))
            return common::makeError("move '" + shown + "' mixes steps and jumps");
        move.path[i - 1] = static_cast<std::uint8_t>(squares[i]);
    }
    const char separator = written.value().separator;
    if ((separator == 'x' && !move.capture) || (separator == '-' && move.capture))
        return common::makeError("move '" + shown + "': written with '" + separator +
                                 "' but it is a " + (move.capture ? "capture" : "step"));
    return move;
}

std::string boardText(const Position& pos) {
    constexpr char kLetters[] = {'w', 'b', 'W', 'B'};
    const std::string border = "  +" + std::string(29, '-') + "+\n";
    std::string out = border;
    for (int rank = kRanks - 1; rank >= 0; --rank) {
        out += std::to_string(rank + 1) + " |";
        for (int file = 0; file < kFiles; ++file) {
            std::string cell;
            const Square s = makeSquare(file, rank);
            if (s != kNoSquare && pos.height(s) == 0) cell = ".";
            if (s != kNoSquare && pos.height(s) > 0) {
                cell = kLetters[static_cast<int>(pos.commander(s))];
                if (pos.height(s) > 1) cell += std::to_string(pos.height(s));
            }
            cell.resize(3, ' ');
            out += " " + cell;
        }
        out += " |\n";
    }
    out += border + "    a   b   c   d   e   f   g\n";
    return out + (pos.sideToMove() == Color::White ? "white" : "black") + " to move";
}

common::Result<Move> parseMove(const Position& pos, std::string_view text) {
    auto written = readSquares(text);
    if (!written) return common::makeError(written.error());
    const WrittenMove& w = written.value();

    MoveList legal;
    generateMoves(pos, legal);
    for (const Move& m : legal) {
        if (!samePath(m, w.squares)) continue;
        if (w.separator == 'x' && !m.capture)
            return common::makeError("move '" + common::printable(text) +
                                     "' is a step, written with 'x'");
        if (w.separator == '-' && m.capture)
            return common::makeError("move '" + common::printable(text) +
                                     "' is a capture, written with '-'");
        return m;
    }
    return common::makeError("move '" + common::printable(text) +
                             "' is not legal in this position");
}

}  // namespace lasca
