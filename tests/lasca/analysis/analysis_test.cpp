// Game analysis (docs/analysis.md): the winning-chance curve, the marks and their
// thresholds, the analysis of a game and its annotated PDN and JSON, and `lasca analyse` on
// games through the binary (pinned output, jobs, shards, bad input, bad command lines).
#include "lasca/analysis/analysis.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lasca/analysis/analysis_cli_util.h"

namespace lasca::analysis {
namespace {

using test::lines;
using test::readText;
using test::runLasca;
using test::sourcePath;

test::CliRun analyse(const std::string& args) {
    return runLasca("analyse " + args);
}

// The input of the pinned annotation: a lasca-match record and a game written by a person
// (comments, a variation, a NAG, marks, an escape line, an unknown tag).
const char* const kGames = "tests/lasca/data/analysis_games.pdn";
// Its annotation at 5000 nodes a position. To renew it after a deliberate change of the
// search or of the annotation format (from the source tree):
//   build/lasca analyse tests/lasca/data/analysis_games.pdn --nodes 5000 > <this file>
const char* const kAnnotated = "tests/lasca/data/analysis_games.annotated.pdn";

std::vector<PdnGame> readGames(const std::string& text) {
    std::istringstream in(text);
    auto games = readPdn(in);
    EXPECT_TRUE(games.ok()) << games.error();
    return games.ok() ? games.value() : std::vector<PdnGame>{};
}

std::unique_ptr<Analyser> nodeLimitedAnalyser(std::uint64_t nodes) {
    AnalysisSettings settings;
    settings.limits.nodes = nodes;
    return Analyser::create(settings).value();
}

TEST(WinningChance, IsTheFittedLogistic) {
    EXPECT_DOUBLE_EQ(winningChance(0), 0.5);
    EXPECT_NEAR(winningChance(static_cast<Score>(kWinningChanceScale)), 1 / (1 + std::exp(-1.0)),
                1e-3);
    for (Score s : {35, 120, 400, 1500}) {
        EXPECT_NEAR(winningChance(s) + winningChance(-s), 1.0, 1e-12);
        EXPECT_GT(winningChance(s), winningChance(s - 10));
    }
    EXPECT_EQ(winningChance(kMate - 5), 1.0);
    EXPECT_EQ(winningChance(-kMate + 6), 0.0);
}

// docs/analysis.md: inaccuracy from a drop of 0.10, mistake from 0.20, blunder from 0.30.
TEST(Marks, FollowTheDocumentedThresholds) {
    EXPECT_EQ(classifyDrop(0.0), Mark::None);
    EXPECT_EQ(classifyDrop(0.0999), Mark::None);
    EXPECT_EQ(classifyDrop(0.10), Mark::Inaccuracy);
    EXPECT_EQ(classifyDrop(0.1999), Mark::Inaccuracy);
    EXPECT_EQ(classifyDrop(0.20), Mark::Mistake);
    EXPECT_EQ(classifyDrop(0.2999), Mark::Mistake);
    EXPECT_EQ(classifyDrop(0.30), Mark::Blunder);
    EXPECT_EQ(classifyDrop(1.0), Mark::Blunder);
    EXPECT_STREQ(markGlyph(Mark::None), "");
    EXPECT_STREQ(markGlyph(Mark::Inaccuracy), "?!");
    EXPECT_STREQ(markGlyph(Mark::Mistake), "?");
    EXPECT_STREQ(markGlyph(Mark::Blunder), "??");
    const MarkThresholds strict{0.05, 0.06, 0.07};
    EXPECT_EQ(classifyDrop(0.065, strict), Mark::Mistake);
}

// Evals are shown for White; a mate counts the winner's moves.
TEST(Marks, EvalsAreShownForWhite) {
    EXPECT_EQ(formatEval(35, Color::White), "0.35");
    EXPECT_EQ(formatEval(35, Color::Black), "-0.35");
    EXPECT_EQ(formatEval(-120, Color::White), "-1.20");
    EXPECT_EQ(formatEval(kMate - 1, Color::White), "#1");
    EXPECT_EQ(formatEval(kMate - 1, Color::Black), "#-1");
    EXPECT_EQ(formatEval(-(kMate - 2), Color::White), "#-1");
    EXPECT_EQ(formatEval(-(kMate - 2), Color::Black), "#1");
    EXPECT_EQ(formatEval(kMate - 5, Color::White), "#3");
}

// Each move is judged by the searches of the positions before and after it.
TEST(AnalyseGame, DropsAndMarksComeFromTheTwoSearches) {
    const auto games = readGames(readText(sourcePath(kGames)));
    ASSERT_EQ(games.size(), 2u);
    auto analyser = nodeLimitedAnalyser(3000);
    for (std::size_t g = 0; g < games.size(); ++g) {
        auto result = analyseGame(static_cast<int>(g), games[g], *analyser);
        ASSERT_TRUE(result.ok()) << result.error();
        const GameAnalysis& a = result.value();
        ASSERT_EQ(a.moves.size(), games[g].moves.size());
        ASSERT_EQ(a.whiteScores.size(), a.moves.size() + 1);
        std::array<PlayerSummary, 2> sums;
        for (std::size_t i = 0; i < a.moves.size(); ++i) {
            const MoveAnalysis& m = a.moves[i];
            const Score before = m.before.best().score;
            EXPECT_DOUBLE_EQ(m.chanceBefore, winningChance(before));
            EXPECT_DOUBLE_EQ(m.chanceAfter, winningChance(m.afterScore));
            const double drop =
                m.playedBest() ? 0.0 : std::max(0.0, m.chanceBefore - m.chanceAfter);
            EXPECT_DOUBLE_EQ(m.drop, drop);
            EXPECT_EQ(m.mark, classifyDrop(m.drop));
            const Score forWhite = m.mover == Color::White ? m.afterScore : -m.afterScore;
            EXPECT_EQ(a.whiteScores[i + 1], forWhite);
            sums[static_cast<std::size_t>(index(m.mover))].add(m);
        }
        for (std::size_t c = 0; c < 2; ++c) {
            EXPECT_EQ(a.players[c].moves, sums[c].moves);
            EXPECT_EQ(a.players[c].marks, sums[c].marks);
        }
        // The record ends by R9: the last move wins, with no search after it.
        if (games[g].result == "0-2") {
            EXPECT_TRUE(a.moves.back().gameOverAfter);
            EXPECT_EQ(a.whiteScores.back(), -kMate);
        }
    }
}

TEST(AnalyseGame, IsTheSameOnEveryRunAtAFixedNodeCount) {
    const auto games = readGames(readText(sourcePath(kGames)));
    auto first = nodeLimitedAnalyser(3000);
    auto second = nodeLimitedAnalyser(3000);
    // The second analyser has seen another game first: analyseGame clears it.
    ASSERT_TRUE(analyseGame(0, games[0], *second).ok());
    const auto a = analyseGame(1, games[1], *first);
    const auto b = analyseGame(1, games[1], *second);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(writePdn(annotatedPdn(a.value(), "x")), writePdn(annotatedPdn(b.value(), "x")));
    EXPECT_EQ(jsonLines(a.value()), jsonLines(b.value()));
}

TEST(AnalyseGame, NamesTheIllegalPly) {
    PdnGame game;
    game.moves = {"c3-d4", "e5xc3", "c3-d4"};
    auto analyser = nodeLimitedAnalyser(100);
    const auto result = analyseGame(0, game, *analyser);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().rfind("ply 3: ", 0), 0u) << result.error();
}

TEST(AnalyseGame, RefusesAMoveAfterTheEnd) {
    PdnGame game;
    game.tags = {{"FEN", "-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- b"}};
    game.moves = {"a1-b2"};
    auto analyser = nodeLimitedAnalyser(100);
    const auto result = analyseGame(0, game, *analyser);
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.error().find("after the game ended"), std::string::npos) << result.error();
}

// With endgame tables, a move into a position they hold says their result in words, in the
// annotated PDN and in the JSON; a move into any other position does not.
TEST(AnalyseGame, SaysTheTablesResultAfterAMoveIntoATablePosition) {
    auto table = egtb::generate(4, 1);
    ASSERT_TRUE(table);
    auto tables = std::make_shared<egtb::Tablebase>();
    tables->add(std::move(table).value());
    AnalysisSettings settings;
    settings.limits.depth = 2;
    settings.tablebase = tables;
    auto analyser = Analyser::create(settings).value();
    // A white officer on a1, a black soldier over two white prisoners on b2, Black to move:
    // b2-c1 (the only move) leaves White lost in 2 plies.
    PdnGame game;
    game.tags = {{"FEN", "-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/bww,-,-/W,-,-,- b"}};
    game.moves = {"b2-c1"};
    const auto a = analyseGame(0, game, *analyser);
    ASSERT_TRUE(a.ok()) << a.error();
    EXPECT_EQ(a.value().moves.at(0).tableAfter, "Black wins in 2 plies");
    const std::string text = writePdn(annotatedPdn(a.value(), "lasca test"));
    EXPECT_NE(text.find("[%eval #-1] [%depth 2] table: Black wins in 2 plies"), std::string::npos)
        << text;
    EXPECT_NE(jsonLines(a.value()).at(0).find("\"table\":\"Black wins in 2 plies\""),
              std::string::npos);
    const auto plain = analyseGame(0, game, *nodeLimitedAnalyser(100));
    ASSERT_TRUE(plain.ok());
    EXPECT_EQ(plain.value().moves.at(0).tableAfter, "");
    EXPECT_NE(jsonLines(plain.value()).at(0).find("\"table\":null"), std::string::npos);
}

TEST(AnnotatedPdn, ReadsBackAsTheSameGame) {
    const auto games = readGames(readText(sourcePath(kGames)));
    auto analyser = nodeLimitedAnalyser(2000);
    const auto a = analyseGame(1, games[1], *analyser);
    ASSERT_TRUE(a.ok());
    const std::string text = writePdn(annotatedPdn(a.value(), "lasca test"));
    EXPECT_NE(text.find("[Annotator \"lasca test\"]"), std::string::npos);
    EXPECT_NE(text.find("{White: average loss "), std::string::npos);
    EXPECT_NE(text.find("[%eval "), std::string::npos);
    const auto back = readGames(text);
    ASSERT_EQ(back.size(), 1u);
    EXPECT_EQ(back[0].moves, games[1].moves);
    EXPECT_EQ(back[0].tag("Opening"), games[1].tag("Opening"));
}

// The analysis's marks replace a move's read assessment glyphs ($1..$6, marks); other glyphs
// are written back.
TEST(AnnotatedPdn, ItsMarksReplaceTheReadAssessmentsAndKeepOtherGlyphs) {
    PdnGame game;
    game.moves = {"c3-d4", "e5xc3"};
    game.nags = {{6, 14}, {1}};
    auto analyser = nodeLimitedAnalyser(200);
    const auto a = analyseGame(0, game, *analyser);
    ASSERT_TRUE(a.ok()) << a.error();
    const PdnGame annotated = annotatedPdn(a.value(), "x");
    EXPECT_EQ(annotated.nags, (std::vector<Nags>{{14}, {}}));
    const std::string text = writePdn(annotated);
    const auto glyph = text.find(" $14 ");
    ASSERT_NE(glyph, std::string::npos) << text;
    EXPECT_LT(text.find("1. c3-d4"), glyph) << text;
    EXPECT_GT(text.find("e5xc3"), glyph) << text;
    EXPECT_EQ(text.find("$6"), std::string::npos) << text;
    EXPECT_EQ(text.find("$1 "), std::string::npos) << text;
}

TEST(AnnotatedPdn, ChanceCurveHasAPointPerPosition) {
    const auto games = readGames(readText(sourcePath(kGames)));
    auto analyser = nodeLimitedAnalyser(2000);
    const auto a = analyseGame(0, games[0], *analyser);
    ASSERT_TRUE(a.ok());
    const auto points = chanceCurve(a.value());
    ASSERT_EQ(points.size(), games[0].moves.size() + 1);
    EXPECT_EQ(points.back().whiteChance, 0.0);  // Black won by R9
}

// ---------------------------------------------------------------------------------------------
// lasca analyse GAMES.pdn

// The pinned annotation is the classic evaluation's (--eval classic), so that a new network
// file does not rewrite it; EvalDefaultsToTheNetwork checks the default.
TEST(AnalyseCommand, AnnotationIsPinned) {
    const auto run = analyse(std::string(kGames) + " --nodes 5000 --eval classic");
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(run.out, readText(sourcePath(kAnnotated)));
    EXPECT_NE(run.err.find("lasca analyse: 2 games"), std::string::npos) << run.err;
}

TEST(AnalyseCommand, JobsAndOutFileDoNotChangeTheOutput) {
    const auto out = test::testDirectory() / "annotated.pdn";
    const auto run = analyse(std::string(kGames) + " --nodes 5000 --eval classic --jobs 2 --out '" +
                             out.string() + "'");
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(run.out, "");
    EXPECT_EQ(readText(out), readText(sourcePath(kAnnotated)));
}

TEST(AnalyseCommand, ShardsTogetherHoldEveryGame) {
    const auto first = analyse(std::string(kGames) + " --nodes 5000 --eval classic --shard 1/2");
    const auto second = analyse(std::string(kGames) + " --nodes 5000 --eval classic --shard 2/2");
    EXPECT_EQ(first.exitCode, 0);
    EXPECT_EQ(second.exitCode, 0);
    EXPECT_EQ(first.out + second.out, readText(sourcePath(kAnnotated)));
}

// Like the engine (UseNNUE), analysis searches with the embedded network unless told otherwise;
// a network file that does not load is a usage error.
TEST(AnalyseCommand, EvalDefaultsToTheNetwork) {
    const auto byDefault = analyse(std::string(kGames) + " --nodes 2000");
    const auto network = analyse(std::string(kGames) + " --nodes 2000 --eval nnue");
    const auto file = analyse(std::string(kGames) + " --nodes 2000 --eval " LASCA_SOURCE_DIR
                                                    "/src/lasca/eval/default.nnue");
    const auto classic = analyse(std::string(kGames) + " --nodes 2000 --eval classic");
    EXPECT_EQ(byDefault.exitCode, 0) << byDefault.err;
    EXPECT_EQ(byDefault.out, network.out);
    EXPECT_EQ(byDefault.out, file.out);
    EXPECT_NE(byDefault.out, classic.out);
    const auto missing = analyse(std::string(kGames) + " --nodes 2000 --eval /nonexistent.nnue");
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("--eval"), std::string::npos) << missing.err;
}

TEST(AnalyseCommand, JsonHasOneObjectPerMoveAndOnePerGame) {
    const auto run = analyse(std::string(kGames) + " --nodes 2000 --json --multipv 2");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const auto games = readGames(readText(sourcePath(kGames)));
    const auto objects = lines(run.out);
    ASSERT_EQ(objects.size(), games[0].moves.size() + games[1].moves.size() + 2);
    int moves = 0, summaries = 0;
    for (const std::string& line : objects) {
        const auto j = nlohmann::json::parse(line);  // throws if not JSON
        if (j["type"] == "move") {
            ++moves;
            EXPECT_TRUE(j.contains("eval") && j.contains("mate") && j.contains("drop"));
            EXPECT_LE(j["lines"].size(), 2u);
            EXPECT_EQ(j["mark"], markGlyph(classifyDrop(j["drop"].get<double>())));
        } else {
            ++summaries;
            EXPECT_EQ(j["type"], "game");
            EXPECT_TRUE(j["summary"].contains("white"));
        }
    }
    EXPECT_EQ(summaries, 2);
    EXPECT_EQ(moves, static_cast<int>(objects.size()) - 2);
}

TEST(AnalyseCommand, DrawsAGraphPerGame) {
    const auto dir = test::testDirectory() / "graphs";
    const auto run = analyse(std::string(kGames) + " --nodes 1000 --svg '" + dir.string() + "'");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    for (const char* name : {"game-1.svg", "game-2.svg"}) {
        const std::string svg = readText(dir / name);
        EXPECT_EQ(svg.rfind("<svg ", 0), 0u) << name;
        EXPECT_NE(svg.find("</svg>"), std::string::npos) << name;
    }
}

// A broken game is reported with its number and line and skipped; the rest is analysed.
TEST(AnalyseCommand, SkipsBrokenGamesAndGoesOn) {
    const std::string good = "[Event \"good\"]\n\n1. c3-d4 e5xc3 2. d2xb4 *\n\n";
    const auto file = test::testDirectory() / "mixed.pdn";
    test::writeText(file, good +                                               // game 1, line 1
                              "[Event \"broken tag\n\n1. c3-d4 *\n\n" +        // game 2, line 5
                              "[Event \"illegal\"]\n\n1. c3-d4 e5-f4 *\n\n" +  // game 3, line 9
                              good);                                           // game 4
    const auto run = analyse("'" + file.string() + "' --nodes 500");
    EXPECT_EQ(run.exitCode, 1);
    EXPECT_NE(run.err.find("lasca: game 2 (line 5): malformed tag pair on line 5; skipped"),
              std::string::npos)
        << run.err;
    EXPECT_NE(run.err.find("lasca: game 3 (line 9): ply 2: move 'e5-f4'"), std::string::npos)
        << run.err;
    const auto annotated = readGames(run.out);
    ASSERT_EQ(annotated.size(), 2u);
    EXPECT_EQ(annotated[0].moves, annotated[1].moves);
}

// Bad command-line values: one message on stderr and exit code 2.
TEST(AnalyseCommand, BadValuesGiveOneMessageAndExitCode2) {
    const std::string games = kGames;
    for (const std::string& args : std::vector<std::string>{
             games + " --nodes 0", games + " --depth x", games + " --depth 101",
             games + " --movetime -5", games + " --jobs 0", games + " --threads 300",
             games + " --multipv 65", games + " --hash 0", games + " --shard 3/2",
             games + " --shard x", games + " --depth 5 --nodes 100", games + " --frobnicate",
             games + " " + games, std::string("no-such-file.pdn"), std::string(""),
             "--positions data/wins.epd " + games, "--positions data/wins.epd --svg /tmp/x"}) {
        const auto real = analyse(args);
        EXPECT_EQ(real.exitCode, 2) << args << "\n" << real.err;
        EXPECT_EQ(lines(real.err).size(), 1u) << args << "\n" << real.err;
        EXPECT_EQ(real.err.rfind("lasca: ", 0), 0u) << args << "\n" << real.err;
        EXPECT_EQ(real.out, "") << args;
    }
}

}  // namespace
}  // namespace lasca::analysis
