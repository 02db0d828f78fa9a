// Training data of the learned evaluation: self-play games (datagen) and the binary training
// file (docs/nnue.md).
#include "lasca/tune/datagen.h"

#include <gtest/gtest.h>

#include <sstream>

#include "lasca/core/movegen.h"
#include "lasca/eval/eval.h"
#include "lasca/tune/training_data.h"

namespace lasca::tune {
namespace {

// A run small enough for a test: 4 games at 200 nodes.
DatagenOptions tinyRun() {
    DatagenOptions o;
    o.games = 4;
    o.nodes = 200;
    o.seed = 11;
    o.maxPlies = 120;
    o.hashMb = 1;
    return o;
}

// Every game delivered, in the order delivered.
std::vector<DataGame> collect(const DatagenOptions& options) {
    std::vector<DataGame> games;
    auto played = generateData(options, [&](const DataGame& g) {
        games.push_back(g);
        return true;
    });
    EXPECT_TRUE(played) << played.error();
    EXPECT_EQ(played ? played.value() : -1, static_cast<int>(games.size()));
    return games;
}

std::string text(const std::vector<DataGame>& games) {
    std::string out;
    for (const DataGame& g : games) out += formatDataGame(g);
    return out;
}

TEST(Datagen, TheOutputDoesNotDependOnTheNumberOfThreads) {
    DatagenOptions one = tinyRun();
    DatagenOptions two = tinyRun();
    two.jobs = 2;
    const auto a = collect(one);
    const auto b = collect(two);
    ASSERT_EQ(a.size(), 4u);
    ASSERT_EQ(b.size(), 4u);
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].index, static_cast<int>(i));
    EXPECT_FALSE(text(a).empty());
    EXPECT_EQ(text(a), text(b));
}

TEST(Datagen, ShardsTogetherAreTheWholeRun) {
    const auto whole = collect(tinyRun());
    DatagenOptions first = tinyRun(), second = tinyRun();
    first.shard = common::Shard{0, 2};
    second.shard = common::Shard{1, 2};
    second.jobs = 2;
    const auto a = collect(first);
    const auto b = collect(second);
    ASSERT_EQ(a.size(), 2u);
    ASSERT_EQ(b.size(), 2u);
    EXPECT_EQ(a[0].index, 0);
    EXPECT_EQ(b[0].index, 1);
    // Games 0 and 2 in the first shard, 1 and 3 in the second.
    EXPECT_EQ(text(whole), text({a[0], b[0], a[1], b[1]}));
}

TEST(Datagen, EveryLineIsAQuietLegalPositionWithAScoreAndAResult) {
    const auto games = collect(tinyRun());
    std::istringstream in(text(games));
    std::string line;
    int lines = 0;
    while (std::getline(in, line)) {
        ++lines;
        auto parsed = parseDataLine(line);
        ASSERT_TRUE(parsed) << parsed.error() << ": " << line;
        const Position pos = Position::fromLfen(parsed.value().lfen).value();
        EXPECT_EQ(pos.validate(), "") << line;
        EXPECT_FALSE(hasCapture(pos)) << line;
        EXPECT_TRUE(hasLegalMove(pos)) << line;
        EXPECT_FALSE(search::isMateScore(parsed.value().score)) << line;
        EXPECT_EQ(formatDataLine(parsed.value()), line + "\n");
    }
    EXPECT_GT(lines, 20);
    for (const DataGame& g : games) {
        EXPECT_GE(g.plies, tinyRun().randomPlies);
        EXPECT_LE(g.plies, tinyRun().maxPlies);
        EXPECT_GT(g.nodes, 0u);
        // An adjudicated game is a draw at exactly maxPlies.
        if (g.termination == Termination::None) {
            EXPECT_EQ(g.plies, tinyRun().maxPlies);
            EXPECT_EQ(g.result, 0.5);
        }
    }
}

TEST(Datagen, TheSeedChoosesTheOpenings) {
    DatagenOptions other = tinyRun();
    other.seed = 12;
    other.games = 1;
    DatagenOptions same = tinyRun();
    same.games = 1;
    EXPECT_NE(text(collect(same)), text(collect(other)));
}

// --random-moves: the same seed gives the same wandering games on any number of threads, and
// they are other games than the searched ones (the positions still carry a search score).
TEST(Datagen, RandomMovesAreReproducibleAndChangeTheGames) {
    DatagenOptions wander = tinyRun();
    wander.randomMovePercent = 30;
    DatagenOptions wanderTwo = wander;
    wanderTwo.jobs = 2;
    const std::string a = text(collect(wander));
    EXPECT_FALSE(a.empty());
    EXPECT_EQ(a, text(collect(wanderTwo)));
    EXPECT_NE(a, text(collect(tinyRun())));
}

// --eval nnue: a round of data made by the network's own engine, as reproducible as the classic
// one on any number of threads, and other games.
TEST(Datagen, TheNetworksEngineMakesItsOwnReproducibleGames) {
    DatagenOptions network = tinyRun();
    network.games = 2;
    network.network = eval::nnue::defaultNetwork();
    DatagenOptions networkTwo = network;
    networkTwo.jobs = 2;
    DatagenOptions classic = tinyRun();
    classic.games = 2;
    const std::string a = text(collect(network));
    EXPECT_FALSE(a.empty());
    EXPECT_EQ(a, text(collect(networkTwo)));
    EXPECT_NE(a, text(collect(classic)));
}

TEST(Datagen, DeliveryStopsWhenAsked) {
    DatagenOptions o = tinyRun();
    o.jobs = 2;
    int seen = 0;
    auto played = generateData(o, [&](const DataGame&) { return ++seen < 2; });
    ASSERT_TRUE(played);
    EXPECT_EQ(played.value(), 2);
    EXPECT_EQ(seen, 2);
}

TEST(Datagen, BadLinesAreErrors) {
    const std::string lfen(kStartLfen);
    EXPECT_TRUE(parseDataLine("0.5 -12 " + lfen));
    EXPECT_EQ(parseDataLine("0.5 -12 " + lfen).value().score, -12);
    EXPECT_FALSE(parseDataLine("0.5 " + lfen));      // no score
    EXPECT_FALSE(parseDataLine("2 0 " + lfen));      // result
    EXPECT_FALSE(parseDataLine("1 x " + lfen));      // score
    EXPECT_FALSE(parseDataLine("1 12a " + lfen));    // score
    EXPECT_FALSE(parseDataLine("1 29999 " + lfen));  // a mate score
    EXPECT_FALSE(parseDataLine("1 0 w,w/ w 0 1"));   // LFEN
    EXPECT_FALSE(parseDataLine(""));
}

TEST(TrainingData, RecordsHoldBothPerspectivesAndTheMoversResult) {
    // Black to move after one step: the result is turned round for Black.
    Game game;
    ASSERT_TRUE(game.playText("c3-d4"));
    const Position pos = game.current();
    const DataLine line{1.0, -35, pos.toLfen()};
    auto record = trainingRecord(line);
    ASSERT_TRUE(record) << record.error();
    EXPECT_EQ(record.value().score, -35.0f);
    EXPECT_EQ(record.value().result, 0.0f);
    const eval::nnue::FeatureList mover = eval::nnue::activeFeatures(pos, Color::Black);
    const eval::nnue::FeatureList other = eval::nnue::activeFeatures(pos, Color::White);
    ASSERT_EQ(mover.size, 22 * 2);  // 22 single pieces: commander and make-up each
    for (int i = 0; i < kTrainingSlots; ++i) {
        const auto at = static_cast<std::size_t>(i);
        EXPECT_EQ(record.value().mover[at], i < mover.size ? mover.index[at] : kNoFeature);
        EXPECT_EQ(record.value().other[at], i < other.size ? other.index[at] : kNoFeature);
    }
    // White to move keeps White's result.
    auto start = trainingRecord(DataLine{0.5, 0, std::string(kStartLfen)});
    ASSERT_TRUE(start);
    EXPECT_EQ(start.value().result, 0.5f);
    EXPECT_EQ(trainingRecord(DataLine{1.0, 0, std::string(kStartLfen)}).value().result, 1.0f);
    // The classic evaluation a residual network adds to, from the side to move's view.
    const std::string blackToMove = "b,b,b,-/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w b 0 1";
    const auto black = trainingRecord(DataLine{0.5, 0, blackToMove});
    ASSERT_TRUE(black);
    EXPECT_EQ(black.value().classic,
              static_cast<float>(
                  eval::evaluate(Position::fromLfen(blackToMove).value(), eval::tunedWeights())));
    EXPECT_LT(black.value().classic, -200.0f);  // Black is a soldier down
    EXPECT_EQ(start.value().classic,
              static_cast<float>(eval::evaluate(Position::fromLfen(std::string(kStartLfen)).value(),
                                                eval::tunedWeights())));
}

TEST(TrainingData, TheFileRoundTrips) {
    std::vector<unsigned char> bytes;
    appendTrainingHeader(bytes, 2);
    const auto a = trainingRecord(DataLine{1.0, 17, std::string(kStartLfen)}).value();
    const auto b = trainingRecord(DataLine{0.0, -250, std::string(kStartLfen)}).value();
    appendTrainingRecord(bytes, a);
    appendTrainingRecord(bytes, b);
    ASSERT_EQ(bytes.size(), kTrainingHeaderBytes + 2 * kTrainingRecordBytes);
    EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 8), "LASCADS3");
    auto read = parseTrainingData(bytes);
    ASSERT_TRUE(read) << read.error();
    ASSERT_EQ(read.value().size(), 2u);
    EXPECT_EQ(read.value()[0].score, 17.0f);
    EXPECT_EQ(read.value()[1].score, -250.0f);
    EXPECT_EQ(read.value()[1].result, 0.0f);
    EXPECT_EQ(read.value()[1].classic, b.classic);
    EXPECT_EQ(read.value()[0].mover, a.mover);
    EXPECT_EQ(read.value()[1].other, b.other);

    std::vector<unsigned char> other = bytes;
    other[16] ^= 1;  // the input fingerprint
    EXPECT_FALSE(parseTrainingData(other));
    bytes.pop_back();
    EXPECT_FALSE(parseTrainingData(bytes));  // length
    bytes[0] = 'X';
    EXPECT_FALSE(parseTrainingData(bytes));  // magic
}

}  // namespace
}  // namespace lasca::tune
