// The learned evaluation: an efficiently updated neural network (NNUE) over inputs
// that see columns, trained from self-play (scripts/nnue/train.py) and evaluated with integer
// arithmetic. The classic evaluation (eval.h) stays beside it, chosen by the `UseNNUE` option.
//
// Inputs (one perspective; docs/design.md "The learned evaluation"): per square and per column
// on it, four binary features seen from the perspective colour p, its squares turned round for
// Black (square s -> 24 - s) so that both colours see the board from their own first rank:
//   commander   which piece commands the column: ours/theirs x soldier/officer       (4 per sq)
//   second      the piece directly under the commander, same four kinds, if any       (4 per sq)
//   third       the piece under that, if any                                           (4 per sq)
//   make-up     whose column it is x the commander's colour's pieces (1, 2, 3, 4+) x the other
//               colour's pieces (0, 1, 2, 3+)                                          (32 per sq)
// That is 44 x 25 = 1,100 inputs per perspective, at most four active per column. A step
// changes two squares (eight features out, at most eight in), a capture one more square per
// jump: the accumulator is updated from the columns before and after a move (updateAccumulator)
// and never recomputed inside the search.
//
// Network: 1,100 -> 2 x 128 (the accumulator, one half per perspective, shared weights) ->
// clipped ReLU -> 1. The output takes the side to move's half first. Quantisation: first-layer
// weights and biases x kQuantA (int16; the trainer clips weights to +-kWeightClip so that no
// accumulator can overflow), output weights x kQuantB (int16), output bias x kQuantA x kQuantB
// (int32); the float network's output is in soldiers (100 centi-soldiers).
//
// Two kinds of network (docs/nnue.md "Residual networks"): a full one, whose output is the
// evaluation, and a residual one, whose output is added to the classic evaluation (eval.h with
// the tuned weights): the network then learns what the 20 features miss.
//
// File format (little endian), the same for the embedded network and an `EvalFile`:
//   8 bytes "LASCANN3" (full) or "LASCANR3" (residual), u32 inputs (1100), u32 hidden (128),
//   u32 input fingerprint (inputFingerprint(): a network made for other inputs is refused),
//   i16 featureWeights[inputs][hidden], i16 featureBias[hidden],
//   i16 outputWeights[2 * hidden] (side to move's half first), i32 outputBias.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "lasca/core/move.h"
#include "lasca/core/position.h"
#include "lasca/eval/eval.h"

namespace lasca::eval::nnue {

inline constexpr int kFeaturesPerSquare = 44;
inline constexpr int kInputs = kFeaturesPerSquare * kSquares;  // 1100
inline constexpr int kHidden = 128;
inline constexpr int kQuantA = 255;
inline constexpr int kQuantB = 256;          // 256 products of 255 x 32767 < 2^31 (train.py checks)
inline constexpr double kWeightClip = 1.27;  // 89 active inputs x 1.27 x 255 < 32767
inline constexpr int kMaxActivePerColumn = 4;
inline constexpr int kMaxActive = kMaxActivePerColumn * kSquares;
inline constexpr char kMagic[9] = "LASCANN3";
inline constexpr char kResidualMagic[9] = "LASCANR3";

// FeatureList: the active inputs of one perspective, in square order.
// Only index[0..size) is meaningful; the rest is left uninitialised (the search fills these
// lists at every node).
struct FeatureList {
    std::array<std::uint16_t, kMaxActive> index;
    int size = 0;
    void push(int i) { index[static_cast<std::size_t>(size++)] = static_cast<std::uint16_t>(i); }
};

// The active inputs of the column (bits, height) standing on square s, seen by `perspective`
// (nothing for an empty square). Appends to `out`.
void columnFeatures(Square s, ColumnBits bits, int height, Color perspective, FeatureList& out);

// The input `feature` of one perspective as the other perspective sees it (the board turned
// round, ours and theirs swapped): columnFeatures(s, b, h, ~p) is columnFeatures(s, b, h, p)
// mirrored, input by input.
int mirroredFeature(int feature);

// Every active input of a position for one perspective.
FeatureList activeFeatures(const Position& pos, Color perspective);

// A hash (FNV-1a) of what the inputs are: columnFeatures' output for every column of up to six
// pieces on every square from both perspectives, with kInputs and kHidden. Any change to the
// input definition changes it; network and training files carry it, and a network or training
// file made for other inputs is refused instead of silently evaluating nonsense.
std::uint32_t inputFingerprint();

// Network: the integer weights, 64-byte aligned for SIMD loads. Size: about 282 KB.
struct Network {
    alignas(
        64) std::array<std::int16_t, static_cast<std::size_t>(kInputs) * kHidden> featureWeights{};
    alignas(64) std::array<std::int16_t, kHidden> featureBias{};
    alignas(64) std::array<std::int16_t, 2 * kHidden> outputWeights{};
    std::int32_t outputBias = 0;
    bool residual = false;  // the output is added to the classic evaluation (kResidualMagic)
};

// Reads a network file's bytes (format above); an error names what is wrong (magic, sizes,
// length). The embedded network: defaultNetwork() (never null).
common::Result<std::shared_ptr<const Network>> parseNetwork(std::span<const unsigned char> bytes);
common::Result<std::shared_ptr<const Network>> loadNetwork(const std::string& path);
std::shared_ptr<const Network> defaultNetwork();
std::span<const unsigned char> embeddedNetworkBytes();
// The evaluation a tool's `--eval` names: "classic" (null: the classic evaluation), "nnue" (the
// embedded network) or a network file; an error when the file does not load.
common::Result<std::shared_ptr<const Network>> networkForEval(const std::string& choice);
std::vector<unsigned char> serializeNetwork(const Network& network);

// Accumulator: the first layer's output for both perspectives (index(Color)), before the
// activation. 512 bytes.
struct Accumulator {
    alignas(64) std::array<std::array<std::int16_t, kHidden>, 2> values{};
    friend bool operator==(const Accumulator&, const Accumulator&) = default;
};

// From scratch: the bias plus the weights of every active input.
void refreshAccumulator(const Network& net, const Position& pos, Accumulator& acc);

// ColumnChange: one square's column before and after a move.
struct ColumnChange {
    Square square = 0;
    ColumnBits before = 0, after = 0;
    int heightBefore = 0, heightAfter = 0;
};

// ChangedColumns: every square a move touches (origin, landings, jumped squares), recorded by
// recordBefore() before make() and completed by recordAfter() after it.
struct ChangedColumns {
    std::array<ColumnChange, 1 + 2 * kMaxJumps> squares{};
    int size = 0;
    void recordBefore(const Position& pos, const Move& m);
    void recordAfter(const Position& pos);
};

// `next` = `previous` with the inputs of every changed column's old content removed and of its
// new content added (both perspectives).
void updateAccumulator(const Network& net, const Accumulator& previous,
                       const ChangedColumns& changes, Accumulator& next);

// The output for the side to move, in centi-soldiers (the classic evaluation's scale), clamped
// inside the mate bounds.
Score evaluate(const Network& net, const Accumulator& acc, Color sideToMove);
Score evaluate(const Network& net, const Position& pos);  // refresh + evaluate, for tools

// The evaluation the search uses: the network's output, plus the classic evaluation with
// `weights` when the network is residual; clamped inside the mate bounds. `acc` is pos's.
Score staticScore(const Network& net, const Accumulator& acc, const Position& pos,
                  const EvalWeights& weights);
Score staticScore(const Network& net, const Position& pos, const EvalWeights& weights);

// The network's inner loops come in SIMD paths: "avx512" (AVX-512BW row updates, both halves
// in one pass, and output), "avx2" and "plain" (portable C++). Every x86-64 build holds all three;
// the best one this CPU runs is chosen at the first evaluation. simdName(): the path in use.
// supportedSimd(): the paths this CPU runs, the best first ("plain" always, last). useSimd(name):
// use that path from now on, if this CPU runs it (false otherwise, nothing changed); for tests and
// comparisons, never while another thread evaluates. Every path gives the same scores.
const char* simdName();
std::vector<std::string> supportedSimd();
bool useSimd(std::string_view name);

}  // namespace lasca::eval::nnue
