// Protocol tests: quit and end of input; UGI queries and the end of a game; moves and LFEN.
//
// Every test runs under ProtocolFixture, which checks after the test that every line any engine
// wrote matches the reply grammar of protocol.md ("Replies"). Timing is measured and printed,
// but only generous bounds are asserted.
#include "lasca/engine/protocol_checks.h"

namespace lasca::test {
namespace {

// ---------------------------------------------------------------------------------------------
// quit and end of input

TEST_F(ProtocolTest, QuitMidSearchSendsBestmoveAndExits0) {
    auto e = startEngine();
    startSearch(*e, kStart);
    const auto start = Clock::now();
    ASSERT_TRUE(e->send("quit"));
    const auto code = e->exitCode(5s);
    std::cout << "[ info     ] quit -> exit after " << msSince(start) << " ms\n";
    ASSERT_TRUE(code.has_value()) << "still running 5 s after quit";
    EXPECT_EQ(*code, 0);
    bool ended = false;
    const Lines lines = e->readToEnd(kReplyTimeout, &ended);
    EXPECT_TRUE(ended);
    EXPECT_EQ(withoutSearchInfo(lines).size(), 1u) << joined(lines);
    EXPECT_EQ(countPrefix(lines, "bestmove "), 1u) << joined(lines);
}

TEST_F(ProtocolTest, EndOfInputMidSearchSendsBestmoveAndExits0) {
    auto e = startEngine();
    startSearch(*e, kBlackToMove);
    const auto start = Clock::now();
    e->closeStdin();
    const auto code = e->exitCode(5s);
    std::cout << "[ info     ] end of input -> exit after " << msSince(start) << " ms\n";
    ASSERT_TRUE(code.has_value()) << "still running 5 s after the end of input";
    EXPECT_EQ(*code, 0);
    const Lines lines = e->readToEnd(kReplyTimeout);
    EXPECT_EQ(withoutSearchInfo(lines).size(), 1u) << joined(lines);
    EXPECT_EQ(countPrefix(lines, "bestmove "), 1u) << joined(lines);
}

TEST_F(ProtocolTest, QuitWithoutSearchExits0Silently) {
    auto e = startEngine();
    ASSERT_TRUE(e->send("quit"));
    EXPECT_EQ(e->exitCode(5s), 0);
    EXPECT_EQ(e->readToEnd(kReplyTimeout), Lines{});
}

TEST_F(ProtocolTest, EmptyInputExits0Silently) {
    auto e = startEngine();
    e->closeStdin();
    EXPECT_EQ(e->exitCode(5s), 0);
    EXPECT_EQ(e->readToEnd(kReplyTimeout), Lines{});
}

TEST_F(ProtocolTest, NothingIsReadAfterQuit) {
    auto e = startEngine();
    ASSERT_TRUE(e->sendRaw("isready\nquit\r\nisready\nuci\n"));
    EXPECT_EQ(e->exitCode(5s), 0);
    EXPECT_EQ(e->readToEnd(kReplyTimeout), Lines{"readyok"});
}

TEST_F(ProtocolTest, PonderingSearchEndsOnQuit) {
    auto e = startEngine();
    startSearch(*e, kStart, "go ponder");
    ASSERT_TRUE(e->send("quit"));
    EXPECT_EQ(e->exitCode(5s), 0);
    EXPECT_EQ(countPrefix(e->readToEnd(kReplyTimeout), "bestmove "), 1u);
}

// ---------------------------------------------------------------------------------------------
// UGI: bestmove form, queries, game end

TEST_F(ProtocolTest, UgiQueriesAtTheStart) {
    auto e = startEngine();
    handshake(*e, "ugi");
    sendQuiet(*e, "uginewgame");
    sendQuiet(*e, "position startpos");
    EXPECT_EQ(query(*e, "p1turn"), "response true");
    EXPECT_EQ(query(*e, "gameover"), "response false");
    EXPECT_EQ(query(*e, "result"), "response none");
    sendQuiet(*e, "position startpos moves c3-d4");
    EXPECT_EQ(query(*e, "p1turn"), "response false");
    EXPECT_EQ(query(*e, "gameover"), "response false");
    EXPECT_EQ(query(*e, "result"), "response none");
}

TEST_F(ProtocolTest, UgiNoLegalMoveLosesForEitherColour) {
    auto e = startEngine();
    handshake(*e, "ugi");
    // Black to move without pieces: White (p1) has won.
    sendQuiet(*e, "position fen " + kBlackHasNothing);
    EXPECT_EQ(query(*e, "p1turn"), "response false");
    EXPECT_EQ(query(*e, "gameover"), "response true");
    EXPECT_EQ(query(*e, "result"), "response p1win");
    // White to move but blocked: Black (p2) has won.
    sendQuiet(*e, "position fen " + kWhiteBlocked);
    EXPECT_EQ(query(*e, "p1turn"), "response true");
    EXPECT_EQ(query(*e, "gameover"), "response true");
    EXPECT_EQ(query(*e, "result"), "response p2win");
    // Reached through a move: White takes Black's last column.
    sendQuiet(*e, "position fen -,-,-,-/-,-,-/-,-,-,-/b,-,-/-,w,-,-/-,-,-/-,-,-,- w moves c3xa5");
    EXPECT_EQ(query(*e, "gameover"), "response true");
    EXPECT_EQ(query(*e, "result"), "response p1win");
    // R9 comes before T2: no legal move with 150 quiet plies is a loss, not a draw.
    sendQuiet(*e, "position fen -,-,-,-/-,-,-/-,-,-,-/-,-,-/-,b,-,-/b,-,-/w,-,-,- w 150 80");
    EXPECT_EQ(query(*e, "result"), "response p2win");
}

TEST_F(ProtocolTest, UgiThreefoldRepetition) {
    auto e = startEngine();
    handshake(*e, "ugi");
    const std::string shuffle = "a1-b2 g7-f6 b2-a1 f6-g7";
    sendQuiet(*e, "position fen " + kOfficers + " moves " + shuffle);
    EXPECT_EQ(query(*e, "gameover"), "response false");  // twice so far
    EXPECT_EQ(query(*e, "result"), "response none");
    sendQuiet(*e, "position fen " + kOfficers + " moves " + shuffle + " " + shuffle);
    EXPECT_EQ(query(*e, "p1turn"), "response true");
    EXPECT_EQ(query(*e, "gameover"), "response true");
    EXPECT_EQ(query(*e, "result"), "response draw");
    sendQuiet(*e, "setoption name RepetitionDraw value false");
    EXPECT_EQ(query(*e, "gameover"), "response false");
    EXPECT_EQ(query(*e, "result"), "response none");
    sendQuiet(*e, "setoption name repetitiondraw value TRUE");
    EXPECT_EQ(query(*e, "result"), "response draw");
    // A drawn position still has legal moves: go searches and plays one of them.
    checkSearch(*e, PositionSetup{kOfficers, tokens(shuffle + " " + shuffle)}, "go depth 3",
                Dialect::Ugi);
}

TEST_F(ProtocolTest, UgiNoProgressDraw) {
    auto e = startEngine();
    handshake(*e, "ugi");
    const std::string at99 = "-,-,-,B/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- w 99 50";
    sendQuiet(*e, "position fen " + at99);
    EXPECT_EQ(query(*e, "gameover"), "response false");
    sendQuiet(*e, "position fen " + at99 + " moves a1-b2");  // the 100th quiet ply
    EXPECT_EQ(query(*e, "p1turn"), "response false");
    EXPECT_EQ(query(*e, "gameover"), "response true");
    EXPECT_EQ(query(*e, "result"), "response draw");
    sendQuiet(*e, "setoption name NoProgressDraw value false");
    EXPECT_EQ(query(*e, "gameover"), "response false");
    EXPECT_EQ(query(*e, "result"), "response none");
    sendQuiet(*e, "setoption name NoProgressDraw value true");
    EXPECT_EQ(query(*e, "result"), "response draw");
    // A soldier move resets the counter.
    sendQuiet(*e,
              "position fen -,-,-,B/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/w,-,-,- w 99 50 moves a1-b2");
    EXPECT_EQ(query(*e, "result"), "response none");
    checkSearch(*e, PositionSetup{at99, {"a1-b2"}}, "go depth 3", Dialect::Ugi);
}

TEST_F(ProtocolTest, UgiIllegalMoveInPositionLosesTheGame) {
    auto e = startEngine();
    handshake(*e, "ugi");
    // Black's second ply is illegal: White wins; the position stays after c3-d4.
    ASSERT_TRUE(e->send("position startpos moves c3-d4 e5-f4"));
    EXPECT_EQ(sync(*e), Lines{"info string error: illegal move e5-f4 at ply 2"});
    EXPECT_EQ(lfenOf(*e), "b,b,b,b/b,b,b/b,b,b,b/-,w,-/w,-,w,w/w,w,w/w,w,w,w b 0 1");
    EXPECT_EQ(query(*e, "p1turn"), "response false");
    EXPECT_EQ(query(*e, "gameover"), "response true");
    EXPECT_EQ(query(*e, "result"), "response p1win");
    // White's first ply is illegal: Black wins; the start position stays.
    ASSERT_TRUE(e->send("position startpos moves c3-e5 d6-c5"));
    EXPECT_EQ(sync(*e), Lines{"info string error: illegal move c3-e5 at ply 1"});
    EXPECT_EQ(lfenOf(*e), kStartLfen);
    EXPECT_EQ(query(*e, "gameover"), "response true");
    EXPECT_EQ(query(*e, "result"), "response p2win");
    // Unreadable moves and wrong separators are illegal moves too.
    for (const auto& [moves, error] : std::vector<std::pair<std::string, std::string>>{
             {"c3-d4 zz", "illegal move zz at ply 2"},
             {"c3-d4 e5-c3", "illegal move e5-c3 at ply 2"},  // a capture written as a step
             {"c3xd4", "illegal move c3xd4 at ply 1"},        // a step written as a capture
             {"c3-d4 e5xc3 d2-b4xd6", "illegal move d2-b4xd6 at ply 3"},
             {"c3-d4 e5xc3 d2xb4 g5-f4 e3xg5 d6-e5 b4xd6 e7xc5 g5xe7 c5-d4 e7xc5",
              "illegal move e7xc5 at ply 11"}}) {  // a capture must list every landing square
        ASSERT_TRUE(e->send("position startpos moves " + moves));
        EXPECT_EQ(sync(*e), Lines{"info string error: " + error}) << moves;
        EXPECT_EQ(query(*e, "gameover"), "response true") << moves;
    }
    // A new legal position clears the forfeit.
    sendQuiet(*e, "position startpos moves c3-d4");
    EXPECT_EQ(query(*e, "gameover"), "response false");
    EXPECT_EQ(query(*e, "result"), "response none");
}

TEST_F(ProtocolTest, MovesAreReadInEveryDocumentedForm) {
    auto e = startEngine();
    sendQuiet(*e, "position startpos moves c3-d4 e5xc3 d2xb4");
    const std::string written = lfenOf(*e);
    sendQuiet(*e, "position startpos moves c3d4 e5c3 d2b4");
    EXPECT_EQ(lfenOf(*e), written);
    sendQuiet(*e, "position startpos moves c3-d4* e5xc3* d2xb4");
    EXPECT_EQ(lfenOf(*e), written);
}

TEST_F(ProtocolTest, LfenIsReadInEveryDocumentedFormAndWrittenInFull) {
    auto e = startEngine();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {",,,/,,/,,,/,,/,,,/,,/W,,, b", "-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- b 0 1"},
        {"-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- b 5",
         "-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- b 5 1"},
        {"-,-,-,-/-,-,-/-,-,-,-/-,Wbb,-/-,-,-,-/-,-,-/-,-,-,B b 1000000 1000000",
         "-,-,-,-/-,-,-/-,-,-,-/-,Wbb,-/-,-,-,-/-,-,-/-,-,-,B b 1000000 1000000"},
        {std::string(kStartLfen), std::string(kStartLfen)},
    };
    for (const auto& [input, written] : cases) {
        sendQuiet(*e, "position fen " + input);
        EXPECT_EQ(lfenOf(*e), written) << input;
    }
}

TEST_F(ProtocolTest, GoWithoutLegalMoveAnswersGameover) {
    const Lines expected = {"info string gameover", "bestmove 0000"};
    for (const char* dialect : {"uci", "ugi"}) {
        auto e = startEngine();
        handshake(*e, dialect);
        for (const std::string& lfen : {kBlackHasNothing, kWhiteBlocked}) {
            sendQuiet(*e, "position fen " + lfen);
            for (const char* go : {"go depth 5", "go infinite", "go ponder",
                                   "go p1time 1000 p2time 1000 p1inc 10 p2inc 10",
                                   "go wtime 1000 btime 1000", "go"}) {
                ASSERT_TRUE(e->send(go));
                EXPECT_EQ(sync(*e), expected) << dialect << " " << go << " at " << lfen;
                sendQuiet(*e, "stop");
            }
        }
    }
}

}  // namespace
}  // namespace lasca::test
