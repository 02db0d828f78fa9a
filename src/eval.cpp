#include "lasca/eval.h"

namespace lasca {

namespace {

// Hand-set starting weights (the tuning pipeline of a later issue replaces them).
constexpr Score kSoldierCommander = 100;
constexpr Score kOfficerCommander = 290;
constexpr Score kReserveBelow = 35;  // own piece in the unbroken own run under the commander
constexpr Score kReserveDeep = 12;   // own piece further down, below an enemy piece
constexpr Score kPrisoner = 30;      // enemy piece held anywhere under an own commander
constexpr Score kCentre = 8;         // commander on one of the seven central squares
constexpr Score kMobility = 3;       // per step the column could make
constexpr std::array<Score, kRanks> kAdvancement = {0, 0, 4, 10, 18, 28, 0};  // soldier, by rank

constexpr Bitboard kCentreSquares =
    bit(8) | bit(9) | bit(11) | bit(12) | bit(13) | bit(15) | bit(16);  // c3 e3 b4 d4 f4 c5 e5

enum Term { Commanders, Reserves, Prisoners, Advancement, Centre, Mobility, kTermCount };
constexpr std::array<const char*, kTermCount> kTermNames = {"commanders",  "reserves", "prisoners",
                                                            "advancement", "centre",   "mobility"};

// Scores one column for its commander's owner.
template <class Add>
void scoreColumn(const Position& pos, Square s, Add&& add) {
    const Piece top = pos.commander(s);
    const Color owner = colorOf(top);
    add(Commanders, owner, isOfficer(top) ? kOfficerCommander : kSoldierCommander);
    bool unbroken = true;
    for (int i = 1; i < pos.height(s); ++i) {
        const bool own = colorOf(pos.pieceAt(s, i)) == owner;
        unbroken = unbroken && own;
        if (own)
            add(Reserves, owner, unbroken ? kReserveBelow : kReserveDeep);
        else
            add(Prisoners, owner, kPrisoner);
    }
    if (!isOfficer(top)) {
        const int rank = owner == Color::White ? rankOf(s) : kRanks - 1 - rankOf(s);
        add(Advancement, owner, kAdvancement[static_cast<std::size_t>(rank)]);
    }
    if (kCentreSquares & bit(s)) add(Centre, owner, kCentre);
}

int stepsOf(const Position& pos, Square s) {
    const Color owner = colorOf(pos.commander(s));
    const bool officer = isOfficer(pos.commander(s));
    int steps = 0;
    for (int d = 0; d < kDirections; ++d) {
        const bool forward = owner == Color::White ? d <= NorthWest : d >= SouthEast;
        if (!forward && !officer) continue;
        const Square to = neighbour(s, d);
        steps += to != kNoSquare && pos.height(to) == 0;
    }
    return steps;
}

template <class Add>
void evaluateTerms(const Position& pos, Add&& add) {
    for (Bitboard b = pos.occupied(); b; b = withoutLowest(b)) {
        const Square s = lowestSquare(b);
        scoreColumn(pos, s, add);
        add(Mobility, colorOf(pos.commander(s)), kMobility * stepsOf(pos, s));
    }
}

}  // namespace

Score evaluate(const Position& pos) {
    std::array<Score, 2> side = {0, 0};
    evaluateTerms(
        pos, [&side](int, Color c, Score v) { side[static_cast<std::size_t>(index(c))] += v; });
    const Score white = side[0] - side[1];
    return pos.sideToMove() == Color::White ? white : -white;
}

EvalBreakdown explainEvaluation(const Position& pos) {
    EvalBreakdown out;
    for (const char* name : kTermNames) out.terms.push_back({name, 0, 0});
    evaluateTerms(pos, [&out](int term, Color c, Score v) {
        EvalTerm& t = out.terms[static_cast<std::size_t>(term)];
        (c == Color::White ? t.white : t.black) += v;
    });
    Score white = 0;
    for (const EvalTerm& t : out.terms) white += t.white - t.black;
    out.total = pos.sideToMove() == Color::White ? white : -white;
    return out;
}

}  // namespace lasca
