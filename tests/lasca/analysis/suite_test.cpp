// Position test suites (docs/analysis.md): reading LFEN lines with EPD-style
// operations, judging a search's choice, and `lasca analyse --positions` and `lasca find-wins`
// through the binary. The shipped suite data/wins.epd must be solved at its budget.
#include "lasca/analysis/suite.h"

#include <gtest/gtest.h>

#include "lasca/analysis/analysis_cli_util.h"
#include "lasca/core/notation.h"
#include "lasca/egtb/egtb.h"

namespace lasca::analysis {
namespace {

using test::lines;
using test::runLasca;

// The R7 position of lasca-rules.md: White's only move is e7xc5xe3.
const std::string kR7 = "b,b,Wbb,b/b,bb,-/b,-,b,-/-,bw,-/w,w,-,w/w,-,w/w,w,w,w w 0 6";

std::vector<std::string> texts(const std::vector<Move>& moves) {
    std::vector<std::string> out;
    for (const Move& m : moves) out.push_back(formatMove(m));
    return out;
}

TEST(SuiteLine, ReadsTheLfenAndTheOperations) {
    const auto entry = parseSuiteLine(std::string(kStartLfen) +
                                          " bm c3-d4 e3-f4; am a3-b4; id \"start; a \\\"name\";"
                                          " c0 \"ignored\";",
                                      7);
    ASSERT_TRUE(entry.ok()) << entry.error();
    EXPECT_EQ(entry.value().line, 7);
    EXPECT_EQ(entry.value().position, Position::startPosition());
    EXPECT_EQ(texts(entry.value().best), (std::vector<std::string>{"c3-d4", "e3-f4"}));
    EXPECT_EQ(texts(entry.value().avoid), (std::vector<std::string>{"a3-b4"}));
    EXPECT_EQ(entry.value().id, "start; a \\");
}

TEST(SuiteLine, CountersAndTheLastSemicolonAreOptional) {
    const auto entry =
        parseSuiteLine("b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w bm c3d4", 1);
    ASSERT_TRUE(entry.ok()) << entry.error();
    EXPECT_EQ(texts(entry.value().best), (std::vector<std::string>{"c3-d4"}));
    EXPECT_TRUE(parseSuiteLine(std::string(kStartLfen), 1).ok());
    EXPECT_FALSE(parseSuiteLine(std::string(kStartLfen), 1).value().judged());
}

TEST(SuiteLine, ErrorsSayWhatIsWrong) {
    const auto badLfen = parseSuiteLine("b,b,b/b w bm c3-d4;", 1);
    ASSERT_FALSE(badLfen.ok());
    EXPECT_EQ(badLfen.error().rfind("LFEN: ", 0), 0u) << badLfen.error();
    const auto illegal = parseSuiteLine(std::string(kStartLfen) + " bm c3-e5;", 1);
    ASSERT_FALSE(illegal.ok());
    EXPECT_EQ(illegal.error().rfind("bm: ", 0), 0u) << illegal.error();
    EXPECT_FALSE(parseSuiteLine(std::string(kStartLfen) + " bm;", 1).ok());
    EXPECT_FALSE(parseSuiteLine(std::string(kStartLfen) + " id \"open;", 1).ok());
    EXPECT_TRUE(isSuiteComment("  # a comment"));
    EXPECT_TRUE(isSuiteComment("\t\r"));
    EXPECT_FALSE(isSuiteComment(kStartLfen));
}

TEST(SuiteLine, WrittenLinesReadBack) {
    const Position start = Position::startPosition();
    const std::vector<Move> best = {parseMove(start, "c3-d4").value()};
    const std::string line = formatSuiteLine(start, best, "wins.001", "mate 3");
    EXPECT_EQ(line, std::string(kStartLfen) + " bm c3-d4; id \"wins.001\"; c0 \"mate 3\";");
    const auto entry = parseSuiteLine(line, 1);
    ASSERT_TRUE(entry.ok());
    EXPECT_EQ(entry.value().best, best);
    EXPECT_EQ(entry.value().id, "wins.001");
}

TEST(Verdicts, BestAndAvoidMoves) {
    const auto entry = parseSuiteLine(std::string(kStartLfen) + " bm c3-d4 e3-f4; am e3-d4;", 1);
    ASSERT_TRUE(entry.ok());
    const Position start = Position::startPosition();
    EXPECT_EQ(judge(entry.value(), parseMove(start, "e3-f4").value()), Verdict::Solved);
    EXPECT_EQ(judge(entry.value(), parseMove(start, "a3-b4").value()), Verdict::Failed);
    const auto avoidOnly = parseSuiteLine(std::string(kStartLfen) + " am e3-d4;", 1);
    EXPECT_EQ(judge(avoidOnly.value(), parseMove(start, "a3-b4").value()), Verdict::Solved);
    EXPECT_EQ(judge(avoidOnly.value(), parseMove(start, "e3-d4").value()), Verdict::Failed);
    const auto none = parseSuiteLine(std::string(kStartLfen), 1);
    EXPECT_EQ(judge(none.value(), parseMove(start, "e3-d4").value()), Verdict::Unjudged);
}

TEST(Verdicts, ResultLinesCarryTheSearch) {
    AnalysisSettings settings;
    settings.limits.depth = 3;
    settings.multiPV = 2;
    auto analyser = Analyser::create(settings).value();
    const auto entry = parseSuiteLine(std::string(kStartLfen) + " id \"start\";", 4);
    const auto text = resultLines(3, entry.value(), analyser->analyse(Position::startPosition()));
    ASSERT_EQ(text.size(), 2u);
    EXPECT_EQ(text[0].rfind("3 start bestmove ", 0), 0u) << text[0];
    EXPECT_NE(text[0].find(" depth 3 nodes "), std::string::npos) << text[0];
    EXPECT_NE(text[0].find(" - pv "), std::string::npos) << text[0];
    EXPECT_EQ(text[1].rfind("3 multipv 2 ", 0), 0u) << text[1];
}

// ---------------------------------------------------------------------------------------------
// lasca analyse --positions, lasca find-wins

// The shipped suite is solved at the budget and with the evaluation it was made with (the
// classic one; docs/analysis.md gives the embedded network's figure).
TEST(PositionsCommand, ShippedSuiteIsSolved) {
    const auto run = runLasca("analyse --positions data/wins.epd --nodes 200000 --eval classic");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const auto out = lines(run.out);
    ASSERT_FALSE(out.empty());
    int positions = 0;
    for (const std::string& line : out)
        if (line.find(" bestmove ") != std::string::npos) {
            ++positions;
            EXPECT_NE(line.find(" solved pv "), std::string::npos) << line;
        }
    EXPECT_GE(positions, 20);
    EXPECT_EQ(out.back(), "solved " + std::to_string(positions) + "/" + std::to_string(positions));
}

TEST(PositionsCommand, SkipsBadLinesAndGoesOn) {
    const auto file = test::testDirectory() / "suite.epd";
    test::writeText(file, "# a comment\n" + std::string(kStartLfen) + " id \"start\";\n" +
                              "b,b,b/b w bm c3-d4;\n" +                   // position 2, line 3
                              kR7 + " bm e7xc5xe3; id \"R7\";\n" +        // position 3
                              std::string(kStartLfen) + " bm c3-e5;\n");  // position 4, line 5
    const auto run = runLasca("analyse --positions '" + file.string() + "' --depth 2 --jobs 2");
    EXPECT_EQ(run.exitCode, 1);
    EXPECT_NE(run.err.find("lasca: position 2 (line 3): LFEN: "), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("lasca: position 4 (line 5): bm: "), std::string::npos) << run.err;
    const auto out = lines(run.out);
    ASSERT_EQ(out.size(), 3u) << run.out;
    EXPECT_EQ(out[0].rfind("1 start bestmove ", 0), 0u) << out[0];
    EXPECT_NE(out[0].find(" - pv "), std::string::npos) << out[0];  // not judged
    EXPECT_EQ(out[1].rfind("3 R7 bestmove e7xc5xe3 ", 0), 0u) << out[1];
    EXPECT_NE(out[1].find(" solved pv e7xc5xe3"), std::string::npos) << out[1];
    EXPECT_EQ(out[2], "solved 1/1");
}

// With --egtb, a position of the tables is scored as they say, as a proven win: Black to move
// wins in 3 plies (2 moves) from a position a depth-1 search alone cannot see to the end. A
// folder that is not a tables folder is a usage error.
TEST(PositionsCommand, EgtbScoresATablePositionAsTheTableSays) {
    const auto dir = test::testDirectory();
    auto table = egtb::generate(4, 1);
    ASSERT_TRUE(table);
    ASSERT_TRUE(egtb::writeTable(dir / egtb::tableFileName(4), table.value()));
    const auto file = dir / "table.epd";
    test::writeText(file, "-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/bww,-,-/W,-,-,- b id \"t\";\n");
    const std::string command = "analyse --positions '" + file.string() + "' --depth 1";
    const auto without = runLasca(command);
    ASSERT_EQ(without.exitCode, 0) << without.err;
    EXPECT_EQ(without.out.find(" score mate "), std::string::npos) << without.out;
    EXPECT_EQ(without.out.find(" table "), std::string::npos) << without.out;
    const auto with = runLasca(command + " --egtb '" + dir.string() + "'");
    ASSERT_EQ(with.exitCode, 0) << with.err;
    EXPECT_EQ(lines(with.out).at(0).rfind("1 t bestmove b2-c1 score mate 2 ", 0), 0u) << with.out;
    EXPECT_EQ(lines(with.out).at(1), "1 table Black wins in 3 plies") << with.out;
    const auto json = runLasca(command + " --json --egtb '" + dir.string() + "'");
    ASSERT_EQ(json.exitCode, 0) << json.err;
    EXPECT_NE(json.out.find("\"table\":\"Black wins in 3 plies\""), std::string::npos) << json.out;
    const auto bad = runLasca(command + " --egtb '" + (dir / "missing").string() + "'");
    EXPECT_EQ(bad.exitCode, 2) << bad.err;
    EXPECT_NE(bad.err.find("--egtb: "), std::string::npos) << bad.err;
}

TEST(PositionsCommand, JsonEndsWithTheCount) {
    const auto file = test::testDirectory() / "suite.epd";
    test::writeText(file, kR7 + " bm e7xc5xe3;\n");
    const auto run = runLasca("analyse --positions '" + file.string() + "' --depth 2 --json");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const auto out = lines(run.out);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_NE(out[0].find("\"verdict\":\"solved\""), std::string::npos) << out[0];
    EXPECT_EQ(out[1], "{\"type\":\"suite\",\"positions\":1,\"judged\":1,\"solved\":1}");
}

// find-wins writes a suite whose positions are proven wins the plain search solves.
TEST(FindWinsCommand, WritesASolvableSuite) {
    const auto file = test::testDirectory() / "wins.epd";
    const auto made = runLasca("find-wins --openings data/openings.txt --count 1 --nodes 20000");
    ASSERT_EQ(made.exitCode, 0) << made.err;
    test::writeText(file, made.out);
    int positions = 0;
    for (const std::string& line : lines(made.out)) {
        if (isSuiteComment(line)) continue;
        ++positions;
        const auto entry = parseSuiteLine(line, 1);
        ASSERT_TRUE(entry.ok()) << entry.error();
        EXPECT_FALSE(entry.value().best.empty());
        EXPECT_EQ(entry.value().id, "wins.001");
    }
    EXPECT_EQ(positions, 1);
    const auto solved = runLasca("analyse --positions '" + file.string() + "' --nodes 20000");
    EXPECT_EQ(lines(solved.out).back(), "solved 1/1") << solved.out;
}

TEST(FindWinsCommand, BadValuesGiveOneMessageAndExitCode2) {
    for (const std::string args :
         {"--count 0", "--mate 0", "--nodes x", "--openings nothing.txt", "--jobs 1000", "extra"}) {
        const auto run = runLasca("find-wins " + args);
        EXPECT_EQ(run.exitCode, 2) << args << "\n" << run.err;
        EXPECT_EQ(lines(run.err).size(), 1u) << args << "\n" << run.err;
    }
}

}  // namespace
}  // namespace lasca::analysis
