#include "lasca/core/types.h"

namespace lasca {

char pieceChar(Piece p) {
    switch (p) {
        case Piece::WhiteSoldier:
            return 'w';
        case Piece::BlackSoldier:
            return 'b';
        case Piece::WhiteOfficer:
            return 'W';
        case Piece::BlackOfficer:
            return 'B';
    }
    return '?';
}

std::optional<Piece> pieceFromChar(char c) {
    switch (c) {
        case 'w':
            return Piece::WhiteSoldier;
        case 'b':
            return Piece::BlackSoldier;
        case 'W':
            return Piece::WhiteOfficer;
        case 'B':
            return Piece::BlackOfficer;
        default:
            return std::nullopt;
    }
}

std::string squareName(Square s) {
    if (s < 0 || s >= kSquares) return "??";
    return {static_cast<char>('a' + fileOf(s)), static_cast<char>('1' + rankOf(s))};
}

std::optional<Square> parseSquare(std::string_view text) {
    if (text.size() != 2) return std::nullopt;
    const int file = text[0] - 'a';
    const int rank = text[1] - '1';
    const Square s = makeSquare(file, rank);
    if (s == kNoSquare) return std::nullopt;
    return s;
}

}  // namespace lasca
