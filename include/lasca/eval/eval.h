// Static evaluation: how good a quiet position is for the side to move, in centi-soldiers.
//
// The evaluation is linear in a set of features (EvalFeature), counted per colour: the score is
// the sum over features of weight x (White's count - Black's count), seen from the side to move.
// Each weight is tapered: a middlegame and an endgame value, blended by the phase (the number of
// columns on the board). The weights come from the Texel tuner (src/lasca/tune, `lasca-tune fit`),
// which writes src/lasca/eval/eval_weights.inc; the engine compiles that file in.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "lasca/core/position.h"

namespace lasca::eval {

// EvalFeature: what the evaluation counts for each colour. "Own" means the colour of the
// column's commander; "relative rank" counts from that colour's own first rank (0) to the far
// rank (6).
enum EvalFeature : int {
    SoldierCommanders,  // columns commanded by a soldier
    OfficerCommanders,  // columns commanded by an officer
    Reserves,           // own pieces in the unbroken run directly under the commander: a jump
                        // takes the commander and the column stays ours
    ReserveOfficers,    // officers among those reserves
    Prisoners,          // enemy pieces under an own commander (they go free if it is taken)
    PrisonerOfficers,   // officers among those prisoners
                        // (Own pieces below a prisoner never occur: a column is always one run
                        // of its commander's colour over one run of the other, since a capture
                        // adds the taken commander, of the other colour, at the bottom and
                        // being captured removes the top.)
    EnemyBelow,         // columns whose second piece is an enemy: one jump turns the column over
    Stacks,             // columns of two or more pieces (a column's height is 1 + reserves +
                        // prisoners, so height enters through those two terms and this one)
    AdvanceRank2,       // soldier commanders on relative rank 1 (the second rank) ...
    AdvanceRank3,
    AdvanceRank4,
    AdvanceRank5,
    AdvanceRank6,      // ... and on relative rank 5, one step from promotion
    PromotionThreats,  // soldier commanders that could step onto the far rank now (R8)
    Mobility,          // steps the colour could make (R4), as if it were to move
    Threatened,        // own columns the opponent could jump, as if it were to move
    Attackers,         // own commanders that have a jump, as if it were the colour to move
    BackRank,          // own commanders on the colour's first rank (they stop promotions)
    Centre,            // own commanders on the seven central squares c3 e3 b4 d4 f4 c5 e5
    Tempo,             // 1 for the side to move
    kFeatureCount
};

const char* featureName(EvalFeature f);

// Phase: kPhaseMax with 22 columns on the board (the start), falling by one per column to 0
// with two columns or fewer.
inline constexpr int kPhaseMax = 20;

// EvalFeatures: the features of one position, before weighting.
//   count[c][f]  colour c's count of feature f (c = index(Color))
//   phase        0..kPhaseMax
//   sideToMove   whose point of view the score takes
struct EvalFeatures {
    std::array<std::array<int, kFeatureCount>, 2> count{};
    int phase = kPhaseMax;
    Color sideToMove = Color::White;
};

EvalFeatures extractFeatures(const Position& pos);

// EvalWeight: a feature's value per unit in the middlegame (phase kPhaseMax) and in the
// endgame (phase 0); in between it is blended linearly, rounded towards zero.
struct EvalWeight {
    Score mg = 0;
    Score eg = 0;
};
using EvalWeights = std::array<EvalWeight, kFeatureCount>;

constexpr Score weightAt(EvalWeight w, int phase) {
    return (w.mg * phase + w.eg * (kPhaseMax - phase)) / kPhaseMax;
}

const EvalWeights& tunedWeights();     // the weights of src/lasca/eval/eval_weights.inc
const EvalWeights& materialWeights();  // commanders only (soldier 100, officer 300)

// The score of a position for the side to move.
Score evaluate(const Position& pos);  // with tunedWeights()
Score evaluate(const Position& pos, const EvalWeights& weights);
Score evaluate(const EvalFeatures& features, const EvalWeights& weights);

// EvalTerm: one feature's weighted value, per colour, before the side to move is applied.
//   count        each side's count of the feature
//   white, black each side's weighted total (higher is better for that side)
struct EvalTerm {
    std::string name;
    std::array<int, 2> count{};
    Score white = 0;
    Score black = 0;
};

// The evaluation split into its terms, for the `eval` command; total is from the side to
// move's point of view and equals evaluate(pos, weights): the sum of white - black over the
// terms, negated when Black is to move.
struct EvalBreakdown {
    std::vector<EvalTerm> terms;
    int phase = kPhaseMax;
    Score total = 0;
};

EvalBreakdown explainEvaluation(const Position& pos);
EvalBreakdown explainEvaluation(const Position& pos, const EvalWeights& weights);

}  // namespace lasca::eval
