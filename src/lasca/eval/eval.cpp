#include "lasca/eval/eval.h"

#include <algorithm>
#include <bit>

#include "lasca/core/movegen.h"

namespace lasca::eval {

namespace {

// The tuned weights, in EvalFeature order, written by `lasca-tune fit`.
constexpr EvalWeights kTunedWeights = {{
#include "eval_weights.inc"
}};

constexpr EvalWeights kMaterialWeights = [] {
    EvalWeights w{};
    w[SoldierCommanders] = {100, 100};
    w[OfficerCommanders] = {300, 300};
    return w;
}();

// One token each, so that the `eval` lines split on spaces.
constexpr std::array<const char*, kFeatureCount> kFeatureNames = {
    "soldier-commanders", "officer-commanders", "reserves",       "reserve-officers",
    "prisoners",          "prisoner-officers",  "enemy-below",    "stacks",
    "advance-rank-2",     "advance-rank-3",     "advance-rank-4", "advance-rank-5",
    "advance-rank-6",     "promotion-threats",  "mobility",       "threatened",
    "attackers",          "back-rank",          "centre",         "tempo"};

constexpr Bitboard kCentreSquares =
    bit(8) | bit(9) | bit(11) | bit(12) | bit(13) | bit(15) | bit(16);  // c3 e3 b4 d4 f4 c5 e5

constexpr Bitboard rankMask(int rank) {
    Bitboard b = 0;
    for (Square s = 0; s < kSquares; ++s)
        if (rankOf(s) == rank) b |= bit(s);
    return b;
}

// The squares of each rank counted from a colour's own first rank: [colour][relative rank].
constexpr std::array<std::array<Bitboard, kRanks>, 2> kRelativeRanks = [] {
    std::array<std::array<Bitboard, kRanks>, 2> r{};
    for (int rank = 0; rank < kRanks; ++rank) {
        r[0][static_cast<std::size_t>(rank)] = rankMask(rank);
        r[1][static_cast<std::size_t>(rank)] = rankMask(kRanks - 1 - rank);
    }
    return r;
}();

// Colour bit of every piece slot of a column (bit 0 of each 2-bit piece: set for black).
constexpr ColumnBits kColourBits = 0x5555555555555555ULL;

// Counts the column on s for its commander's owner: reserves, prisoners (and the officers
// among them), enemy below, stacks. The pieces under the commander are read all at once from
// the colour bits.
void countColumn(const Position& pos, Square s, std::array<int, kFeatureCount>& own) {
    const int height = pos.height(s);
    if (height < 2) return;
    ++own[Stacks];
    const ColumnBits below = pos.column(s) >> 2;
    const ColumnBits slots = kColourBits & ((ColumnBits{1} << (2 * (height - 1))) - 1);
    const bool ownerBlack = (pos.column(s) & 1) != 0;
    const ColumnBits enemy = (ownerBlack ? ~below : below) & slots;
    const int run = enemy ? std::countr_zero(enemy) / 2 : height - 1;
    const ColumnBits officers = (below >> 1) & slots;  // at the colour bit of each officer
    const ColumnBits runSlots = slots & ((ColumnBits{1} << (2 * run)) - 1);
    own[Prisoners] += std::popcount(enemy);
    own[PrisonerOfficers] += std::popcount(officers & enemy);
    own[Reserves] += run;
    own[ReserveOfficers] += std::popcount(officers & runSlots);
    own[EnemyBelow] += run == 0;
}

// Steps onto the far rank open to soldiers of colour c: a soldier one rank short with an empty
// square diagonally ahead. With squares numbered as in types.h, the square ahead is +4/+3
// (White) or -3/-4 (Black) off the g- or a-file; shifting the empty squares back by the same
// offset marks the soldiers that have one.
int promotionThreats(const Position& pos, Color c) {
    const std::size_t ci = static_cast<std::size_t>(index(c));
    const Bitboard soldiers = pos.commandedBy(c) & pos.soldiers() & kRelativeRanks[ci][5];
    const Bitboard empty = pos.empty();
    const Bitboard open = c == Color::White
                              ? (kNotFileG & (empty >> 4)) | (kNotFileA & (empty >> 3))
                              : (kNotFileG & (empty << 3)) | (kNotFileA & (empty << 4));
    return popcount(soldiers & open);
}

void countColour(const Position& pos, Color c, const std::array<JumpThreats, 2>& threats,
                 std::array<int, kFeatureCount>& own) {
    const std::size_t ci = static_cast<std::size_t>(index(c));
    const Bitboard mine = pos.commandedBy(c);
    const Bitboard soldiers = mine & pos.soldiers();
    own[SoldierCommanders] = popcount(soldiers);
    own[OfficerCommanders] = popcount(mine & pos.officers());
    for (int rank = 1; rank <= 5; ++rank)
        own[static_cast<std::size_t>(AdvanceRank2 + rank - 1)] =
            popcount(soldiers & kRelativeRanks[ci][static_cast<std::size_t>(rank)]);
    own[PromotionThreats] = promotionThreats(pos, c);
    own[Mobility] = stepCount(pos, c);
    own[Attackers] = popcount(threats[ci].jumpers);
    own[Threatened] = popcount(threats[1 - ci].targets);
    own[BackRank] = popcount(mine & kRelativeRanks[ci][0]);
    own[Centre] = popcount(mine & kCentreSquares);
    for (Bitboard b = mine; b; b = withoutLowest(b)) countColumn(pos, lowestSquare(b), own);
}

}  // namespace

const char* featureName(EvalFeature f) {
    return kFeatureNames[static_cast<std::size_t>(f)];
}

const EvalWeights& tunedWeights() {
    return kTunedWeights;
}

const EvalWeights& materialWeights() {
    return kMaterialWeights;
}

EvalFeatures extractFeatures(const Position& pos) {
    EvalFeatures f;
    const std::array<JumpThreats, 2> threats = {jumpThreats(pos, Color::White),
                                                jumpThreats(pos, Color::Black)};
    for (Color c : {Color::White, Color::Black})
        countColour(pos, c, threats, f.count[static_cast<std::size_t>(index(c))]);
    f.count[static_cast<std::size_t>(index(pos.sideToMove()))][Tempo] = 1;
    const int columns = popcount(pos.occupied());
    f.phase = std::clamp(columns - 2, 0, kPhaseMax);
    f.sideToMove = pos.sideToMove();
    return f;
}

Score evaluate(const EvalFeatures& features, const EvalWeights& weights) {
    Score white = 0;
    for (std::size_t i = 0; i < kFeatureCount; ++i)
        white +=
            weightAt(weights[i], features.phase) * (features.count[0][i] - features.count[1][i]);
    return features.sideToMove == Color::White ? white : -white;
}

Score evaluate(const Position& pos, const EvalWeights& weights) {
    return evaluate(extractFeatures(pos), weights);
}

Score evaluate(const Position& pos) {
    return evaluate(pos, kTunedWeights);
}

EvalBreakdown explainEvaluation(const Position& pos, const EvalWeights& weights) {
    const EvalFeatures f = extractFeatures(pos);
    EvalBreakdown out;
    out.phase = f.phase;
    Score white = 0;
    for (std::size_t i = 0; i < kFeatureCount; ++i) {
        const Score w = weightAt(weights[i], f.phase);
        EvalTerm t{
            kFeatureNames[i], {f.count[0][i], f.count[1][i]}, w * f.count[0][i], w * f.count[1][i]};
        white += t.white - t.black;
        out.terms.push_back(std::move(t));
    }
    out.total = pos.sideToMove() == Color::White ? white : -white;
    return out;
}

EvalBreakdown explainEvaluation(const Position& pos) {
    return explainEvaluation(pos, kTunedWeights);
}

}  // namespace lasca::eval
