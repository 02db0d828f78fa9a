// The evaluation tuner: position extraction from PDN, the logistic model, the fit and the
// weights file it writes.
#include "lasca/tune/tuner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>

#include "../test_util.h"
#include "lasca/core/movegen.h"

namespace lasca::tune {
namespace {

// The line of the rules file that reaches the R7 position; its steps (plies 1, 4, 6 and 10)
// are played from quiet positions, its captures from positions with a capture pending.
const char* kR7Line = "1. c3-d4 e5xc3 2. d2xb4 g5-f4 3. e3xg5 d6-e5 4. b4xd6 e7xc5 5. g5xe7 c5-d4";

std::vector<PdnGame> readGames(const std::string& text) {
    std::istringstream in(text);
    auto games = readPdn(in);
    EXPECT_TRUE(games) << games.error();
    return games ? games.value() : std::vector<PdnGame>{};
}

std::string game(const std::string& result, const std::string& moves) {
    return "[Event \"t\"]\n[Result \"" + result + "\"]\n\n" + moves + " " + result + "\n\n";
}

Position afterR7Line() {
    Game g(Position::startPosition());
    for (const char* m :
         {"c3-d4", "e5xc3", "d2xb4", "g5-f4", "e3xg5", "d6-e5", "b4xd6", "e7xc5", "g5xe7", "c5-d4"})
        EXPECT_TRUE(g.playText(m)) << m;
    return g.current();
}

TEST(Tuner, ExtractKeepsTheQuietPositionsOfFinishedGames) {
    const auto games = readGames(game("2-0", kR7Line) + game("*", kR7Line));
    auto positions = extractPositions(games, {});
    ASSERT_TRUE(positions) << positions.error();
    const bool finalQuiet = !hasCapture(afterR7Line());
    // Plies 1, 4, 6, 10 start from quiet positions, and maybe the final one; the unfinished
    // game gives nothing.
    ASSERT_EQ(positions.value().size(), 4u + (finalQuiet ? 1 : 0));
    EXPECT_EQ(positions.value()[0].lfen, std::string(kStartLfen));
    for (const LabelledPosition& p : positions.value()) {
        EXPECT_EQ(p.result, 1.0);
        EXPECT_FALSE(hasCapture(Position::fromLfen(p.lfen).value())) << p.lfen;
    }
    auto later = extractPositions(games, {.skipPlies = 4});
    ASSERT_TRUE(later);
    EXPECT_EQ(later.value().size(), 2u + (finalQuiet ? 1 : 0));
}

TEST(Tuner, ExtractLabelsFromWhitesPointOfView) {
    const auto games =
        readGames(game("0-2", "1. c3-d4 e5xc3") + game("1-1", "1. c3-d4 e5xc3 2. d2xb4") +
                  game("0-2", "1. c3-d4 e5xc3"));  // a repeat: skipped
    auto positions = extractPositions(games, {});
    ASSERT_TRUE(positions);
    // The start position of each, and the second game's last position (Black to move after
    // d2xb4 has no capture); after c3-d4 and e5xc3 a capture is pending.
    ASSERT_EQ(positions.value().size(), 3u);
    EXPECT_EQ(positions.value()[0].result, 0.0);
    EXPECT_EQ(positions.value()[1].result, 0.5);
    EXPECT_EQ(positions.value()[2].result, 0.5);
}

TEST(Tuner, ExtractNamesTheGameThatDoesNotReplay) {
    const auto games = readGames(game("2-0", "1. c3-d4 e5xc3") + game("2-0", "1. c3-d4 e5-f4"));
    auto positions = extractPositions(games, {});
    ASSERT_FALSE(positions);
    EXPECT_NE(positions.error().find("game 2, ply 2"), std::string::npos) << positions.error();
}

TEST(Tuner, PositionLinesRoundTripAndBadLinesAreErrors) {
    for (double result : {0.0, 0.5, 1.0}) {
        const LabelledPosition p{std::string(kStartLfen), result};
        auto back = parsePosition(formatPosition(p));
        ASSERT_TRUE(back) << back.error();
        EXPECT_EQ(back.value().lfen, p.lfen);
        EXPECT_EQ(back.value().result, result);
    }
    EXPECT_FALSE(parsePosition("0.7 " + std::string(kStartLfen)));
    EXPECT_FALSE(parsePosition("1"));
    auto bad = parsePosition("1 b,b,b/x w 0 1");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().find("LFEN"), std::string::npos);
}

TEST(Tuner, SampleHoldsTheFeatureDifferences) {
    test::playRandomGame(Position::startPosition(), 5, 80, [](const Position& pos, const Move&) {
        const Sample s = toSample(pos, 1.0);
        const eval::EvalFeatures f = eval::extractFeatures(pos);
        for (std::size_t i = 0; i < eval::kFeatureCount; ++i)
            ASSERT_EQ(s.diff[i], f.count[0][i] - f.count[1][i]);
        EXPECT_EQ(s.diff[eval::Tempo], pos.sideToMove() == Color::White ? 1 : -1);
        EXPECT_EQ(s.phase, f.phase);
    });
}

// With mg == eg the blended weight needs no rounding, so the tuner's model is the engine's
// evaluation exactly (seen from White).
TEST(Tuner, ModelIsTheEnginesEvaluation) {
    eval::EvalWeights w{};
    for (std::size_t i = 0; i < eval::kFeatureCount; ++i) {
        const Score v = static_cast<Score>(7 * i + 3) * (i % 2 ? -1 : 1);
        w[i] = {v, v};
    }
    for (unsigned seed = 1; seed <= 20; ++seed)
        test::playRandomGame(
            Position::startPosition(), seed, 120, [&](const Position& pos, const Move&) {
                const double white = whiteScore(toSample(pos, 0.5), toReal(w));
                const Score mover = eval::evaluate(pos, w);
                ASSERT_EQ(white, pos.sideToMove() == Color::White ? mover : -mover) << pos.toLfen();
            });
}

// Samples from random games labelled with the model's own prediction under `truth`.
std::vector<Sample> syntheticSamples(const RealWeights& truth, double k) {
    std::vector<Sample> samples;
    for (unsigned seed = 1; seed <= 200; ++seed)
        test::playRandomGame(
            Position::startPosition(), seed, 100, [&](const Position& pos, const Move&) {
                if (hasCapture(pos)) return;
                Sample s = toSample(pos, 0.5);
                const double score = whiteScore(s, truth);
                s.result = static_cast<float>(1.0 / (1.0 + std::pow(10.0, -k * score / 400.0)));
                samples.push_back(s);
            });
    return samples;
}

TEST(Tuner, ScaleFitFindsTheScaleOfTheLabels) {
    const RealWeights truth = toReal(eval::tunedWeights());
    const auto samples = syntheticSamples(truth, 1.3);
    ASSERT_GT(samples.size(), 1000u);
    EXPECT_NEAR(fitScale(samples, truth), 1.3, 0.01);
    EXPECT_LT(meanError(samples, truth, 1.3), 1e-9);
    EXPECT_GT(meanError(samples, truth, 0.5), 1e-4);
}

// From material-only weights, the fit must get close to labels made by other weights, and
// frozen features must not move.
TEST(Tuner, FitRecoversTheLabellingWeights) {
    RealWeights truth = toReal(eval::materialWeights());
    truth[eval::Reserves] = {40, 60};
    truth[eval::Prisoners] = {25, 15};
    truth[eval::Mobility] = {6, 2};
    const auto samples = syntheticSamples(truth, 1.0);
    FitOptions options;
    options.epochs = 1000;
    options.learningRate = 1.0;
    options.frozen = {eval::Centre};
    RealWeights start = toReal(eval::materialWeights());
    start[eval::Centre] = {11, 11};
    FitReport report;
    const RealWeights fitted = fitWeights(samples, start, 1.0, options, report);
    EXPECT_LT(report.endError, report.startError / 20) << report.startError;
    EXPECT_EQ(fitted[eval::Centre][0], 11);
    EXPECT_EQ(fitted[eval::Centre][1], 11);
    EXPECT_NEAR(fitted[eval::SoldierCommanders][0], 100, 15);
    EXPECT_NEAR(fitted[eval::Prisoners][0], 25, 10);
    EXPECT_NEAR(fitted[eval::Mobility][0], 6, 3);
}

TEST(Tuner, WeightsSourceListsEveryFeatureInOrder) {
    eval::EvalWeights w{};
    for (std::size_t i = 0; i < eval::kFeatureCount; ++i)
        w[i] = {static_cast<Score>(i), -static_cast<Score>(2 * i)};
    const std::string text = weightsSource(w, {"first line", "second line"});
    std::istringstream in(text);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "// first line");
    std::getline(in, line);
    EXPECT_EQ(line, "// second line");
    std::getline(in, line);
    EXPECT_TRUE(line.starts_with("// "));
    for (std::size_t i = 0; i < eval::kFeatureCount; ++i) {
        ASSERT_TRUE(std::getline(in, line));
        const std::string pair =
            "{" + std::to_string(i) + ", " + std::to_string(-2 * static_cast<int>(i)) + "},";
        EXPECT_TRUE(line.starts_with(pair)) << line;
        EXPECT_TRUE(line.ends_with(std::string("// ") +
                                   eval::featureName(static_cast<eval::EvalFeature>(i))))
            << line;
    }
    EXPECT_FALSE(std::getline(in, line));
}

TEST(Tuner, RoundingGivesTheNearestIntegers) {
    RealWeights r{};
    r[0] = {99.6, -12.4};
    r[1] = {0.5, -0.5};
    const eval::EvalWeights w = rounded(r);
    EXPECT_EQ(w[0].mg, 100);
    EXPECT_EQ(w[0].eg, -12);
    EXPECT_EQ(w[1].mg, 1);
    EXPECT_EQ(w[1].eg, -1);
}

}  // namespace
}  // namespace lasca::tune
