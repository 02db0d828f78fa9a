// Tests of the learned evaluation (nnue.h): the inputs, the network file, the
// incremental accumulator against a full recomputation, colour symmetry, and the C++ integer
// inference against the training script's float forward pass (tests/lasca/data/nnue_reference.txt).
#include "lasca/eval/nnue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <vector>

#include "lasca/core/movegen.h"
#include "lasca/test_util.h"

namespace lasca::eval::nnue {
namespace {

using test::lfen;
using test::mirrored;

std::vector<int> sortedFeatures(const Position& pos, Color perspective) {
    const FeatureList list = activeFeatures(pos, perspective);
    std::vector<int> out(list.index.begin(), list.index.begin() + list.size);
    std::sort(out.begin(), out.end());
    return out;
}

// ---- Inputs
// --------------------------------------------------------------------------------------

// The start: 22 single-piece columns, each a commander and a make-up input (1 own, 0 other).
TEST(Nnue, StartPositionHasTwoInputsPerColumn) {
    const Position start = Position::startPosition();
    EXPECT_EQ(activeFeatures(start, Color::White).size, 44);
    EXPECT_EQ(activeFeatures(start, Color::Black).size, 44);
    // Symmetric start: both colours see the same board from their side.
    EXPECT_EQ(sortedFeatures(start, Color::White), sortedFeatures(start, Color::Black));
}

// One column "Wbb" (a white officer over two black soldiers) on a1 (square 0): White sees
// our officer, their soldier second and third, make-up (ours, 1 own, 2 other); Black sees the
// same column on its square 24 as theirs.
TEST(Nnue, ColumnInputsFollowTheHeader) {
    const Position pos = lfen("-,-,-,b/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/Wbb,-,-,- w 0 1");
    FeatureList white;
    columnFeatures(0, pos.column(0), pos.height(0), Color::White, white);
    ASSERT_EQ(white.size, 4);
    EXPECT_EQ(white.index[0], 1);                        // commander: our officer
    EXPECT_EQ(white.index[1], 4 + 2);                    // second: their soldier
    EXPECT_EQ(white.index[2], 8 + 2);                    // third: their soldier
    EXPECT_EQ(white.index[3], 12 + 0 * 16 + 0 * 4 + 2);  // ours, 1 own, 2 other
    FeatureList black;
    columnFeatures(0, pos.column(0), pos.height(0), Color::Black, black);
    ASSERT_EQ(black.size, 4);
    const int base = 24 * kFeaturesPerSquare;
    EXPECT_EQ(black.index[0], base + 3);                    // their officer
    EXPECT_EQ(black.index[1], base + 4 + 0);                // our soldier
    EXPECT_EQ(black.index[3], base + 12 + 16 + 0 * 4 + 2);  // theirs, 1 own, 2 other
}

// ---- The file
// ------------------------------------------------------------------------------------

TEST(Nnue, EmbeddedNetworkParsesAndRoundTrips) {
    auto parsed = parseNetwork(embeddedNetworkBytes());
    ASSERT_TRUE(parsed) << parsed.error();
    const std::vector<unsigned char> bytes = serializeNetwork(*parsed.value());
    EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), embeddedNetworkBytes().begin(),
                           embeddedNetworkBytes().end()));
    EXPECT_EQ(serializeNetwork(*defaultNetwork()), bytes);
}

TEST(Nnue, BadNetworkFilesAreErrors) {
    std::vector<unsigned char> good = serializeNetwork(*defaultNetwork());
    std::vector<unsigned char> bad = good;
    bad[0] = 'X';
    EXPECT_FALSE(parseNetwork(bad));
    bad = good;
    bad[8] = 7;  // inputs
    EXPECT_FALSE(parseNetwork(bad));
    bad = good;
    bad.pop_back();
    EXPECT_FALSE(parseNetwork(bad));
    bad = good;
    bad.push_back(0);
    EXPECT_FALSE(parseNetwork(bad));
    EXPECT_FALSE(parseNetwork(std::vector<unsigned char>{}));
    EXPECT_FALSE(loadNetwork("/nonexistent/net.nnue"));
}

// A network made for other inputs is refused (net1, made before the inputs changed, loaded and
// evaluated nonsense): the header's input fingerprint must be this engine's. The older format
// without one is refused with a word on how to write it again.
TEST(Nnue, ANetworkForOtherInputsIsRefused) {
    const std::vector<unsigned char> good = serializeNetwork(*defaultNetwork());
    std::vector<unsigned char> other = good;
    other[16] ^= 1;  // the fingerprint's low byte
    const auto refused = parseNetwork(other);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().find("other inputs"), std::string::npos) << refused.error();
    std::vector<unsigned char> old(good.begin(), good.begin() + 8);
    old[7] = '2';  // LASCANR2 / LASCANN2, 16-byte header
    old.insert(old.end(), good.begin() + 8, good.begin() + 16);
    old.insert(old.end(), good.begin() + 20, good.end());
    const auto older = parseNetwork(old);
    ASSERT_FALSE(older);
    EXPECT_NE(older.error().find("older format"), std::string::npos) << older.error();
}

// The fingerprint is a function of the input definition alone. Pinned: a new value means the
// inputs changed, and every network, the embedded one included, must be trained again.
TEST(Nnue, TheInputFingerprintIsPinned) {
    EXPECT_EQ(inputFingerprint(), inputFingerprint());
    EXPECT_EQ(inputFingerprint(), 1839514265u);
}

// The incremental update finds Black's changed inputs by mirroring White's: for every column of
// up to five pieces on every square, White's inputs mirrored are exactly Black's (as sets), and
// mirroring twice gives the input back.
TEST(Nnue, MirroredInputsAreTheOtherPerspectivesInputs) {
    for (int f = 0; f < kInputs; ++f) {
        ASSERT_GE(mirroredFeature(f), 0);
        ASSERT_LT(mirroredFeature(f), kInputs);
        ASSERT_EQ(mirroredFeature(mirroredFeature(f)), f);
    }
    int columns = 0;
    for (int height = 1; height <= 5; ++height)
        for (ColumnBits bits = 0; bits < (ColumnBits{1} << (2 * height)); ++bits)
            for (Square s = 0; s < kSquares; ++s) {
                FeatureList white, black;
                columnFeatures(s, bits, height, Color::White, white);
                columnFeatures(s, bits, height, Color::Black, black);
                std::vector<int> mirrored, expected;
                for (int k = 0; k < white.size; ++k)
                    mirrored.push_back(mirroredFeature(white.index[static_cast<std::size_t>(k)]));
                for (int k = 0; k < black.size; ++k)
                    expected.push_back(black.index[static_cast<std::size_t>(k)]);
                std::sort(mirrored.begin(), mirrored.end());
                std::sort(expected.begin(), expected.end());
                ASSERT_EQ(mirrored, expected) << "square " << s << " height " << height;
                ++columns;
            }
    EXPECT_GT(columns, 25 * 1000);
}

// A residual network ("LASCANR3") reads back as residual, and the search's score is then the
// classic evaluation plus the network's output; a full network's score is its output alone.
TEST(Nnue, ResidualNetworksAddTheClassicEvaluation) {
    Network residual = *defaultNetwork();
    residual.residual = true;
    Network full = residual;
    full.residual = false;
    const std::vector<unsigned char> fullBytes = serializeNetwork(full);
    EXPECT_EQ(std::string(fullBytes.begin(), fullBytes.begin() + 8), "LASCANN3");
    const std::vector<unsigned char> bytes = serializeNetwork(residual);
    EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 8), "LASCANR3");
    auto parsed = parseNetwork(bytes);
    ASSERT_TRUE(parsed) << parsed.error();
    EXPECT_TRUE(parsed.value()->residual);
    int checked = 0;
    for (unsigned seed = 1; seed <= 20; ++seed) {
        test::playRandomGame(
            Position::startPosition(), seed, 80, [&](const Position& pos, const Move&) {
                const Score own = evaluate(residual, pos);
                const Score classic = lasca::eval::evaluate(pos, tunedWeights());
                ASSERT_EQ(staticScore(residual, pos, tunedWeights()),
                          std::clamp(own + classic, -(kMateBound - 1), kMateBound - 1));
                ASSERT_EQ(staticScore(full, pos, tunedWeights()), evaluate(full, pos));
                ++checked;
            });
    }
    EXPECT_GT(checked, 500);
}

// ---- The accumulator -------------------------------------------------------------------------

// Random games from the start and from crowded middlegames: after every move the updated
// accumulator equals a full recomputation, and after unmake the one kept for the ply below
// still does. Captures of several jumps and promotions must occur (counted).
TEST(Nnue, IncrementalAccumulatorEqualsRecomputation) {
    const Network& net = *defaultNetwork();
    int longestCapture = 0, promotions = 0, moves = 0;
    for (unsigned seed = 1; seed <= 300; ++seed) {
        Position pos = Position::startPosition();
        std::vector<Accumulator> stack(1);
        refreshAccumulator(net, pos, stack[0]);
        std::vector<std::pair<Move, Undo>> made;
        std::mt19937 rng(seed);
        for (int ply = 0; ply < 200; ++ply) {
            MoveList list;
            generateMoves(pos, list);
            if (list.empty()) break;
            const Move m = list[rng() % list.size()];
            const int officersBefore = std::popcount(pos.officers());
            ChangedColumns changes;
            changes.recordBefore(pos, m);
            Undo undo{};
            pos.make(m, undo);
            changes.recordAfter(pos);
            Accumulator next;
            updateAccumulator(net, stack.back(), changes, next);
            Accumulator fresh;
            refreshAccumulator(net, pos, fresh);
            ASSERT_EQ(next, fresh) << "seed " << seed << " ply " << ply << " " << pos.toLfen();
            stack.push_back(next);
            made.emplace_back(m, undo);
            ++moves;
            if (m.capture) longestCapture = std::max(longestCapture, int{m.length});
            if (!m.capture && std::popcount(pos.officers()) > officersBefore) ++promotions;
            // Every tenth ply, take back a few moves and check the kept accumulators.
            if (ply % 10 == 9) {
                for (int back = 0; back < 3 && !made.empty(); ++back) {
                    pos.unmake(made.back().first, made.back().second);
                    made.pop_back();
                    stack.pop_back();
                    refreshAccumulator(net, pos, fresh);
                    ASSERT_EQ(stack.back(), fresh) << "after unmake, seed " << seed;
                }
            }
        }
    }
    EXPECT_GT(moves, 10000);
    EXPECT_GE(longestCapture, 3);
    EXPECT_GT(promotions, 0);
}

// ---- SIMD paths
// ----------------------------------------------------------------------------------

// What a path computes over random games: per ply the incrementally updated accumulator (with
// captures and promotions), the refreshed one, and both scores.
struct PathTrace {
    std::vector<Accumulator> updated, refreshed;
    std::vector<Score> scores;
    friend bool operator==(const PathTrace&, const PathTrace&) = default;
};

PathTrace tracePath(const Network& net) {
    PathTrace trace;
    for (unsigned seed = 1; seed <= 40; ++seed) {
        Accumulator acc;
        refreshAccumulator(net, Position::startPosition(), acc);
        test::playRandomGame(Position::startPosition(), seed, 150,
                             [&](const Position& pos, const Move& m) {
                                 Accumulator fresh;
                                 refreshAccumulator(net, pos, fresh);
                                 trace.refreshed.push_back(fresh);
                                 trace.updated.push_back(acc);
                                 trace.scores.push_back(evaluate(net, acc, pos.sideToMove()));
                                 trace.scores.push_back(evaluate(net, pos));
                                 if (m == Move{}) return;
                                 ChangedColumns changes;
                                 changes.recordBefore(pos, m);
                                 Position next = pos;
                                 Undo undo{};
                                 next.make(m, undo);
                                 changes.recordAfter(next);
                                 updateAccumulator(net, acc, changes, acc);
                             });
    }
    return trace;
}

// A network with large random weights: accumulators far below 0 and above kQuantA, so that the
// output's clipping is taken at both ends.
std::shared_ptr<const Network> wideNetwork() {
    auto net = std::make_shared<Network>();
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> weight(-360, 360), output(-32767, 32767);
    for (auto& w : net->featureWeights) w = static_cast<std::int16_t>(weight(rng));
    for (auto& b : net->featureBias) b = static_cast<std::int16_t>(weight(rng));
    for (auto& w : net->outputWeights) w = static_cast<std::int16_t>(output(rng));
    net->outputBias = 12345;
    return net;
}

// Restores the path chosen at start when a test ends.
struct SimdRestorer {
    ~SimdRestorer() { useSimd(supportedSimd().front()); }
};

// The path chosen at start is the best this CPU runs; every path it runs gives the plain path's
// accumulators and scores, bit for bit, with the embedded network and with a wide one.
TEST(Nnue, EverySimdPathScoresAsThePlainPath) {
    const SimdRestorer restore;
    const std::vector<std::string> paths = supportedSimd();
    ASSERT_FALSE(paths.empty());
    EXPECT_EQ(paths.back(), "plain");
    EXPECT_EQ(std::string(simdName()), paths.front());
    for (const auto& net : {defaultNetwork(), wideNetwork()}) {
        ASSERT_TRUE(useSimd("plain"));
        const PathTrace plain = tracePath(*net);
        ASSERT_GT(plain.scores.size(), 4000u);
        const auto clipped = std::count_if(
            plain.refreshed.begin(), plain.refreshed.end(), [](const Accumulator& acc) {
                const auto& v = acc.values[0];
                return std::any_of(v.begin(), v.end(), [](auto x) { return x < 0; }) &&
                       std::any_of(v.begin(), v.end(), [](auto x) { return x > kQuantA; });
            });
        EXPECT_GT(clipped, 0);
        for (const std::string& path : paths) {
            ASSERT_TRUE(useSimd(path)) << path;
            EXPECT_EQ(std::string(simdName()), path);
            const PathTrace got = tracePath(*net);
            EXPECT_TRUE(got.updated == got.refreshed) << path;
            EXPECT_TRUE(got == plain) << path << " differs from plain";
        }
    }
    std::printf("SIMD paths this CPU runs, each checked against plain:");
    for (const std::string& path : paths) std::printf(" %s", path.c_str());
    std::printf("\n");
}

TEST(Nnue, AnUnknownSimdPathIsRefused) {
    const SimdRestorer restore;
    const std::string before = simdName();
    EXPECT_FALSE(useSimd("sse9"));
    EXPECT_FALSE(useSimd(""));
    EXPECT_EQ(std::string(simdName()), before);
}

// ---- Symmetry
// ------------------------------------------------------------------------------------

// A position and its colour-mirrored twin: the same score for the side to move, so opposite
// scores from White's point of view.
TEST(Nnue, MirroredPositionsScoreTheSameForTheMover) {
    const Network& net = *defaultNetwork();
    int checked = 0;
    for (unsigned seed = 1; seed <= 100; ++seed) {
        test::playRandomGame(Position::startPosition(), seed, 120,
                             [&](const Position& pos, const Move&) {
                                 const Position m = mirrored(pos);
                                 ASSERT_EQ(evaluate(net, m), evaluate(net, pos)) << pos.toLfen();
                                 ++checked;
                             });
    }
    EXPECT_GT(checked, 5000);
}

// ---- Against the trainer
// -------------------------------------------------------------------------

// tests/lasca/data/nnue_reference.txt: "<centi-soldiers> <LFEN>" lines written by
// scripts/nnue/train.py's float forward pass of the network embedded in the engine. The integer
// inference may differ by the quantisation's error: kReferenceTolerance (docs/nnue.md).
constexpr double kReferenceTolerance = 3.0;

TEST(Nnue, IntegerInferenceMatchesTheTrainer) {
    std::ifstream file(LASCA_TEST_DATA_DIR "/nnue_reference.txt");
    ASSERT_TRUE(file) << "missing nnue_reference.txt";
    const Network& net = *defaultNetwork();
    std::string line;
    int positions = 0;
    double worst = 0;
    while (std::getline(file, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream in(line);
        double expected = 0;
        in >> expected;
        std::string text;
        std::getline(in >> std::ws, text);
        const Position pos = lfen(text);
        const double got = evaluate(net, pos);
        worst = std::max(worst, std::abs(got - expected));
        EXPECT_NEAR(got, expected, kReferenceTolerance) << text;
        ++positions;
    }
    EXPECT_GE(positions, 100);
    RecordProperty("worst", std::to_string(worst));
    std::printf("worst difference %.3f centi-soldiers over %d positions (simd %s)\n", worst,
                positions, simdName());
}

// Fuzz finding (2026-12-06, tests/lasca/fuzz/datafile_fuzz.cpp): a network file whose output
// bias is near the int32 limit made the output sum plus the bias overflow (undefined behaviour,
// reported by UBSan). The file reads; every path scores within the mate bounds, clamped.
TEST(NnueFuzzFindings, AnExtremeOutputBiasDoesNotOverflow) {
    for (const std::int32_t bias :
         {std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min()}) {
        auto made = std::make_unique<Network>();
        made->featureBias.fill(kQuantA);  // every hidden unit at its clip: the largest sum
        made->outputWeights.fill(bias > 0 ? std::numeric_limits<std::int16_t>::max()
                                          : std::numeric_limits<std::int16_t>::min());
        made->outputBias = bias;
        const auto net = parseNetwork(serializeNetwork(*made));
        ASSERT_TRUE(net) << net.error();
        const std::string before = simdName();
        for (const std::string& path : supportedSimd()) {
            ASSERT_TRUE(useSimd(path));
            const Score score = evaluate(*net.value(), Position::startPosition());
            EXPECT_EQ(score, bias > 0 ? kMateBound - 1 : -(kMateBound - 1)) << path;
        }
        ASSERT_TRUE(useSimd(before));
    }
    // The fuzzer's input itself: the embedded network's header, then the bytes 00 7f 7f 7f 7f 7f
    // over and over as the weights, biases and output bias.
    const auto embedded = embeddedNetworkBytes();
    std::vector<unsigned char> bytes(embedded.begin(), embedded.begin() + 20);
    constexpr unsigned char kPattern[] = {0x00, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f};
    for (std::size_t i = 0; bytes.size() < embedded.size(); ++i) bytes.push_back(kPattern[i % 6]);
    const auto net = parseNetwork(bytes);
    ASSERT_TRUE(net) << net.error();
    const std::string before = simdName();
    std::vector<Score> scores;
    for (const std::string& path : supportedSimd()) {
        ASSERT_TRUE(useSimd(path));
        scores.push_back(evaluate(*net.value(), Position::startPosition()));
        EXPECT_LT(std::abs(scores.back()), kMateBound) << path;
        EXPECT_EQ(scores.back(), scores.front()) << path;
    }
    ASSERT_TRUE(useSimd(before));
}

}  // namespace
}  // namespace lasca::eval::nnue
