// Protocol tests: the developer commands (perft, d, eval, help, bench, debug).
//
// Every test runs under ProtocolFixture, which checks after the test that every line any engine
// wrote matches the reply grammar of protocol.md ("Replies"). Timing is measured and printed,
// but only generous bounds are asserted.
#include "lasca/engine/protocol_checks.h"
#include "test_directory.h"

namespace lasca::test {
namespace {

// ---------------------------------------------------------------------------------------------
// Developer commands

TEST_F(ProtocolTest, PerftDividesInGenerationOrder) {
    auto e = startEngine();
    for (const PositionSetup& setup : {kStart, kBlackToMove, kSingleMove}) {
        sendQuiet(*e, setup.command());
        for (int depth : {1, 3}) {
            ASSERT_TRUE(e->send("go perft " + std::to_string(depth)));
            bool found = false;
            const Lines lines = e->readUntil("Nodes searched: ", kReplyTimeout, &found);
            ASSERT_TRUE(found) << joined(lines);
            MoveList legal;
            generateMoves(setup.game().current(), legal);
            ASSERT_EQ(lines.size(), legal.size() + 1) << joined(lines);
            std::uint64_t sum = 0;
            for (std::size_t i = 0; i < legal.size(); ++i) {
                const std::string prefix = formatMove(legal[i]) + ": ";
                ASSERT_TRUE(startsWith(lines[i], prefix)) << lines[i] << " vs " << prefix;
                sum += std::stoull(lines[i].substr(prefix.size()));
            }
            EXPECT_EQ(lines.back(), "Nodes searched: " + std::to_string(sum));
            EXPECT_EQ(sync(*e), Lines{});
        }
    }
}

TEST_F(ProtocolTest, DisplayEvalHelpBenchAndDebug) {
    auto e = startEngine();
    e->send("d");
    const Lines board = sync(*e);
    EXPECT_EQ(countPrefix(board, "info string "), board.size());
    EXPECT_EQ(countPrefix(board, "info string lfen: " + std::string(kStartLfen)), 1u);

    // The classic evaluation's terms (the network's own line: NnueOptions).
    sendQuiet(*e, "setoption name UseNNUE value false");
    e->send("eval");
    const Lines eval = sync(*e);
    ASSERT_FALSE(eval.empty());
    for (std::size_t i = 0; i + 1 < eval.size(); ++i)
        EXPECT_TRUE(startsWith(eval[i], "info string eval ") &&
                    eval[i].find(" white ") != std::string::npos &&
                    eval[i].find(" black ") != std::string::npos)
            << eval[i];
    EXPECT_TRUE(startsWith(eval.back(), "info string eval total ")) << eval.back();
    EXPECT_NE(eval.back().find(" for white phase 20"), std::string::npos) << eval.back();
    sendQuiet(*e, "position startpos moves c3-d4");  // Black must capture
    e->send("eval");
    const Lines pending = sync(*e);
    ASSERT_FALSE(pending.empty());
    EXPECT_TRUE(pending.back().ends_with(" for black phase 20 (not quiet: a capture is pending)"))
        << pending.back();
    // The terms add up to the total (negated for Black); material only leaves two terms.
    auto sumOfTerms = [](const Lines& lines, int* nonZeroTerms) {
        long sum = 0;
        *nonZeroTerms = 0;
        for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
            std::istringstream in(lines[i]);
            std::string info, str, evalWord, name, countWord, whiteWord, blackWord;
            long whiteCount = 0, blackCount = 0, white = 0, black = 0;
            in >> info >> str >> evalWord >> name >> countWord >> whiteCount >> blackCount >>
                whiteWord >> white >> blackWord >> black;
            EXPECT_TRUE(in && countWord == "count" && whiteWord == "white" && blackWord == "black")
                << lines[i];
            sum += white - black;
            *nonZeroTerms += white != 0 || black != 0;
        }
        return sum;
    };
    int nonZero = 0;
    const long black = -sumOfTerms(pending, &nonZero);
    EXPECT_TRUE(startsWith(pending.back(),
                           "info string eval total " + std::to_string(black) + " for black"))
        << pending.back();
    sendQuiet(*e, "setoption name EvalMaterialOnly value true");
    e->send("eval");
    const Lines material = sync(*e);
    EXPECT_EQ(sumOfTerms(material, &nonZero), 0);  // 11 soldiers each
    EXPECT_EQ(nonZero, 1) << "only the soldier commanders count";
    sendQuiet(*e, "setoption name EvalMaterialOnly value false");

    e->send("help");
    const Lines help = sync(*e);
    EXPECT_FALSE(help.empty());
    EXPECT_EQ(countPrefix(help, "info string "), help.size());

    e->send("bench 1");
    const Lines bench = sync(*e);
    ASSERT_EQ(bench.size(), 3u) << joined(bench);
    EXPECT_TRUE(startsWith(bench[0], "Total time (ms): "));
    EXPECT_TRUE(startsWith(bench[1], "Nodes searched: "));
    EXPECT_TRUE(startsWith(bench[2], "Nodes/second: "));

    // Logs never go to standard output.
    sendQuiet(*e, "debug on");
    checkSearch(*e, kStart, "go depth 3", Dialect::Uci);
    sendQuiet(*e, "debug off");
}

TEST_F(ProtocolTest, DebugLogFileRecordsTheDialogue) {
    const auto path = common::test::testDirectory() / "debug.log";
    {
        auto e = startEngine();
        sendQuiet(*e, "setoption name Debug Log File value " + path.string());
        sendQuiet(*e, "position startpos moves c3-d4");
        ASSERT_TRUE(e->send("quit"));
        EXPECT_EQ(e->exitCode(5s), 0);
    }
    const std::string text = common::test::readText(path);
    EXPECT_NE(text.find("<< position startpos moves c3-d4"), std::string::npos) << text;
    EXPECT_NE(text.find(">> readyok"), std::string::npos) << text;
}

}  // namespace
}  // namespace lasca::test
