// Terminal play, the pure part (terminal.h): the seat's game rebuilt from its lines, the board
// (own pieces with strengths, the king, what is public of the opponents), the events in words,
// the listed choices (the legal replies, in legalActions' order), and reading typed lines (bad
// input is explained and asked again). No hidden information: the screen is a function of the
// seat's lines only, so two games that differ only in what is hidden from the seat give the
// same screen (D8).
#include <gtest/gtest.h>

#include <algorithm>

#include "common/random.h"
#include "torneio/person/terminal.h"
#include "torneio/rules/view.h"
#include "torneio/torneio_test_util.h"

namespace torneio::person {
namespace {

using test::play;

const std::string kNewGame =
    "newgame seat 1 seed 7 seats=2 board=8 depth=2 trim=0 strength=10 minstrength=0 rounds=200 "
    "pass=stuck";

SetUp setUpOf(const Geometry& g, std::string_view text) {
    auto parsed = parseSetUp(text, g);
    EXPECT_TRUE(parsed.ok()) << text;
    return parsed.value();
}

// The seat's game as the terminal rebuilds it from the lines the referee would send it.
SeatView gameOf(const State& state, int seat) {
    auto game = SeatView::start("newgame seat " + seatText(seat) + " seed 7 " +
                                formatParams(state.params()));
    EXPECT_TRUE(game.ok()) << (game.ok() ? "" : game.error());
    for (const Event& e : visibleEvents(state, seat)) {
        auto taken = game.value().takeEvent(formatEvent(e, state.geometry()));
        EXPECT_TRUE(taken.ok()) << formatEvent(e, state.geometry()) << ": " << taken.error();
    }
    return std::move(game).value();
}

// The row of the drawn board for a rank (1-based), as printed.
std::string rankRow(const std::string& board, int rank) {
    const std::string label = (rank < 10 ? " " : "") + std::to_string(rank) + " ";
    for (std::size_t pos = 0; pos < board.size();) {
        const std::size_t end = board.find('\n', pos);
        const std::string line = board.substr(pos, end - pos);
        if (line.starts_with(label)) return line;
        pos = end + 1;
    }
    return "";
}

// A 2-seat game in which seat 1's warrior 3 beats seat 2's warrior 3 on f5 (G7, G8) and orders
// it to e6 (G9). `hidden` changes only what seat 1 cannot know: seat 2's king square, its other
// warriors' strengths and squares, and the piece it moves when it is not in the combat.
State combatGame(bool hidden) {
    State state = State::create(defaultParams(2)).value();
    const Geometry& g = state.geometry();
    play(state, 0, "setup " + formatSetUp(setUpOf(g, "king a1 warriors c1:3 e1:3 g1:4"), g));
    play(
        state, 1,
        hidden ? "setup king b8 warriors h8:6 d8:1 f8:3" : "setup king h8 warriors b8:5 d8:2 f8:3");
    for (const char* step : {"g2", "g3", "g4"}) {
        play(state, 0, std::string("move 3 ") + step);
        play(state, 1,
             std::string("move 3 ") + (step[1] == '2'   ? "f7"
                                       : step[1] == '3' ? "f6"
                                                        : "f5"));
    }
    play(state, 0, "move 3 f5");
    play(state, 1, hidden ? "move 2 c7" : "move 1 b7");
    play(state, 0, "combat f5");  // seat 2 reveals 3, seat 1 reveals 4: seat 1 wins
    play(state, 0, "order e6");
    return state;
}

TEST(Terminal, StartsFromTheNewGameLineOnly) {
    auto game = SeatView::start(kNewGame);
    ASSERT_TRUE(game.ok()) << game.error();
    EXPECT_EQ(game.value().seat(), 0);
    EXPECT_EQ(game.value().seed(), 7u);
    EXPECT_EQ(game.value().geometry().size(), 8);
    EXPECT_FALSE(SeatView::start("newgame seat 3 seed 7 seats=2").ok());
    EXPECT_FALSE(SeatView::start("newgame seat 1 seed x seats=2").ok());
    EXPECT_FALSE(SeatView::start("hello").ok());
}

TEST(Terminal, TheBoardShowsOwnPiecesWithStrengthsAndTheKing) {
    auto game = SeatView::start(kNewGame).value();
    const std::string before = drawBoard(game);
    EXPECT_NE(rankRow(before, 1).find("o"), std::string::npos);  // the zone before set-up (D2)
    ASSERT_TRUE(game.takeEvent("event setup king c1 warriors a1:3 e1:3 g1:4").ok());
    const std::string board = drawBoard(game);
    const std::string row = rankRow(board, 1);
    const auto at = [&](std::string_view mark) { return row.find(mark); };
    ASSERT_NE(at("W1:3"), std::string::npos) << board;
    ASSERT_NE(at("K"), std::string::npos) << board;
    ASSERT_NE(at("W2:3"), std::string::npos) << board;
    ASSERT_NE(at("W3:4"), std::string::npos) << board;
    EXPECT_LT(at("W1:3"), at("K"));  // a1, c1, e1, g1 from west to east
    EXPECT_LT(at("K"), at("W2:3"));
    EXPECT_LT(at("W2:3"), at("W3:4"));
    EXPECT_NE(board.find("K king c1"), std::string::npos) << board;
    EXPECT_NE(board.find("W3 g1 strength 4"), std::string::npos) << board;
    EXPECT_EQ(rankRow(board, 1).find("o"), std::string::npos);  // set up: no zone marks
}

TEST(Terminal, TheBoardShowsWhatIsPublicOfTheOpponents) {
    const State state = combatGame(false);
    SeatView game = gameOf(state, 0);
    const std::string board = drawBoard(game);
    // seat 2's warrior revealed strength 3 and retreated to e6 as ordered (G9)
    EXPECT_NE(rankRow(board, 6).find("@2:3"), std::string::npos) << board;
    EXPECT_NE(rankRow(board, 5).find("W3:4"), std::string::npos) << board;
    ASSERT_EQ(game.sightings().size(), 1u);
    EXPECT_EQ(game.sightings()[0].square, test::sq(state.geometry(), "e6"));
    EXPECT_EQ(game.sightings()[0].strength, 3);
    const std::string others = drawOpponents(game);
    EXPECT_NE(others.find("e6  strength 3"), std::string::npos) << others;
    EXPECT_NE(others.find("no move since"), std::string::npos) << others;
    // seat 2 moves again: the sighting is one of its moves old
    State later = state;
    play(later, 0, "reward 3");
    play(later, 1, "move 0 h7");
    game = gameOf(later, 0);
    EXPECT_NE(drawOpponents(game).find("1 move ago"), std::string::npos) << drawOpponents(game);
    // nothing hidden: seat 2's king and other warriors were never seen
    const std::string seen = drawBoard(game) + drawOpponents(game) + drawLog(game, 0, 100);
    for (const char* square : {"h8", "h7", "b8", "b7", "d8"})
        EXPECT_EQ(seen.find(square), std::string::npos) << square << "\n" << seen;
}

TEST(Terminal, TheScreenIsAFunctionOfTheSeatsLinesOnly) {
    const State a = combatGame(false);
    const State b = combatGame(true);
    // the games differ in seat 2's hidden facts but not in seat 1's lines
    ASSERT_NE(a.pieces(1), b.pieces(1));
    std::vector<std::string> linesA, linesB;
    for (const Event& e : visibleEvents(a, 0)) linesA.push_back(formatEvent(e, a.geometry()));
    for (const Event& e : visibleEvents(b, 0)) linesB.push_back(formatEvent(e, b.geometry()));
    ASSERT_EQ(linesA, linesB);
    const SeatView gameA = gameOf(a, 0);
    const SeatView gameB = gameOf(b, 0);
    const Prompt promptA = makePrompt(a.request(), gameA);
    const Prompt promptB = makePrompt(b.request(), gameB);
    EXPECT_EQ(drawScreen(gameA, promptA, 0), drawScreen(gameB, promptB, 0));
}

TEST(Terminal, EventsInPlainWords) {
    const Geometry g(defaultParams(3));
    const auto words = [&](std::string_view line, Square combat = kNoSquare) {
        auto e = parseEvent(line, 0, g);
        EXPECT_TRUE(e.ok()) << line;
        return describeEvent(e.value(), 0, combat, g);
    };
    EXPECT_EQ(words("event moved 2"), "Seat 2 moved.");
    EXPECT_EQ(words("event moved 1"), "");  // its private move event says more
    EXPECT_EQ(words("event combat 1 d4"), "You call a combat on d4.");
    EXPECT_EQ(words("event combat 2 d4"), "Seat 2 calls a combat on d4.");
    EXPECT_EQ(words("event reveal 3 4"), "Seat 3 reveals strength 4.");
    EXPECT_EQ(words("event reveal 3 king"), "Seat 3 reveals its KING!");
    EXPECT_EQ(words("event result none").substr(0, 10), "No winner:");
    EXPECT_EQ(words("event eliminated 3", test::sq(g, "d4")),
              "Seat 3 is eliminated: its king stood on d4 (G11).");
    EXPECT_EQ(words("event retreat 2 e5"), "Seat 2's losing warrior retreats to e5.");
    EXPECT_EQ(words("event gained 2 1"), "Seat 2 gains 1 point.");
    EXPECT_EQ(words("event move 1 a1 b2"), "You moved warrior 1 from a1 to b2.");
    EXPECT_EQ(words("event end win 1"), "Game over: you win!");
    EXPECT_EQ(words("event end draw 1 3"),
              "Game over after the last round (D11): a draw between you and seat 3.");
}

// For every request of random games of 2, 3 and 4 seats, the listed choices are exactly
// legalActions (in its order), each shown with its key; a set-up lists legal proposals.
TEST(Terminal, ListedChoicesAreTheLegalActions) {
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        common::Random random(static_cast<std::uint64_t>(seats));
        State state = State::create(defaultParams(seats)).value();
        int checked = 0;
        while (!state.over() && checked < 300) {
            const Request request = state.request();
            const int seat = request.seat;
            const SeatView game = gameOf(state, seat);
            auto read = game.readRequest(formatRequest(request, state.geometry()));
            ASSERT_TRUE(read.ok());
            const Prompt prompt = makePrompt(read.value(), game);
            const OwnPieces& own = game.knowledge().own();
            ASSERT_EQ(own, state.pieces(seat));
            if (request.kind == RequestKind::SetUp) {
                ASSERT_FALSE(prompt.choices.empty());
                for (const Choice& c : prompt.choices)
                    EXPECT_TRUE(isLegal(request, own, state.geometry(), c.action));
            } else {
                const auto legal = legalActions(request, own, state.geometry());
                ASSERT_EQ(prompt.choices.size(), legal.size());
                for (std::size_t i = 0; i < legal.size(); ++i) {
                    EXPECT_EQ(prompt.choices[i].action, legal[i]);
                    EXPECT_NE(prompt.body.find("[" + prompt.choices[i].key + "]"),
                              std::string::npos);
                }
            }
            EXPECT_TRUE(prompt.marker.ends_with(kPromptEnd));
            const Action action = randomAction(request, own, state.geometry(), random);
            ASSERT_TRUE(state.apply(seat, action).ok());
            ++checked;
        }
    }
}

TEST(Terminal, ProposedSetUpsAreLegalForEverySeat) {
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        const Geometry g(defaultParams(seats));
        for (int seat = 0; seat < seats; ++seat) {
            Request request;
            request.kind = RequestKind::SetUp;
            request.seat = seat;
            const auto choices = proposedSetUps(g, seat);
            EXPECT_EQ(choices.size(), 3u) << seats << " seats, seat " << seat + 1;
            for (const Choice& c : choices) EXPECT_TRUE(isLegal(request, OwnPieces{}, g, c.action));
        }
    }
}

// Typed lines: keys, protocol actions, short forms, commands; everything else is explained.
TEST(Terminal, ParsesTypedLinesAndExplainsBadOnes) {
    SeatView game = SeatView::start(kNewGame).value();
    ASSERT_TRUE(game.takeEvent("event setup king c1 warriors a1:3 e1:3 g1:4").ok());
    ASSERT_TRUE(game.takeEvent("event turn 1 1").ok());
    const Request request = game.readRequest("request turn 1").value();
    const Prompt prompt = makePrompt(request, game);
    const play::Knowledge& k = game.knowledge();
    const Geometry& g = game.geometry();
    const auto read = [&](std::string_view line) { return parseInput(line, request, prompt, k); };

    auto first = read("1");
    ASSERT_TRUE(first.ok());
    EXPECT_EQ(first.value().action, legalActions(request, k.own(), g).front());
    for (const char* line : {"move 1 b2", "1 b2", "w1 b2", "MOVE 1 B2", "  move   1 b2 "}) {
        auto input = read(line);
        ASSERT_TRUE(input.ok()) << line << ": " << input.error();
        EXPECT_EQ(input.value().action, moveAction(1, test::sq(g, "b2"))) << line;
    }
    EXPECT_EQ(read("k c3").value().action, moveAction(kKing, test::sq(g, "c3")));
    EXPECT_EQ(read("combat e1").value().action, combatAction(test::sq(g, "e1")));
    EXPECT_EQ(read("help").value().kind, InputKind::Help);
    EXPECT_EQ(read("quit").value().kind, InputKind::Quit);
    EXPECT_EQ(read("random").value().kind, InputKind::Random);
    EXPECT_EQ(read("board").value().kind, InputKind::Board);

    const std::vector<std::pair<std::string, std::string>> bad = {
        {"", "Nothing typed"},      {"fly me to the moon", "Not understood"},
        {"999", "no choice 999"},   {"move 1 b5", "Not legal"},  // two steps (G5)
        {"combat c1", "Not legal"},                              // the king's square (G7)
        {"pass", "Not legal"},                                   // D10
        {"x b2", "No piece"},       {"d4", "A square alone is no move"},
    };
    for (const auto& [line, why] : bad) {
        auto input = read(line);
        ASSERT_FALSE(input.ok()) << line;
        EXPECT_NE(input.error().find(why), std::string::npos) << line << ": " << input.error();
    }
}

TEST(Terminal, TheDialogAsksAgainUntilALineSettlesTheRequest) {
    SeatView game = SeatView::start(kNewGame).value();
    const Request request = game.readRequest("request setup").value();
    const Dialog dialog(game, request, 0);
    EXPECT_TRUE(dialog.screen().ends_with("setup> "));
    EXPECT_NE(dialog.screen().find("[1] king"), std::string::npos) << dialog.screen();
    common::Random random(1);

    const auto bad = dialog.answer("king a1 warriors c1:3 e1:3 g1:5", random);  // adds up to 11
    EXPECT_FALSE(bad.action);
    EXPECT_FALSE(bad.quit);
    EXPECT_NE(bad.text.find("Not legal"), std::string::npos) << bad.text;
    EXPECT_TRUE(bad.text.ends_with("setup> "));

    const auto help = dialog.answer("help", random);
    EXPECT_FALSE(help.action);
    EXPECT_NE(help.text.find("king c1 warriors a1:3 e1:3 g1:4"), std::string::npos);
    EXPECT_TRUE(help.text.ends_with("setup> "));

    const auto own = dialog.answer("king a1 warriors c1:3 e1:3 g1:4", random);
    ASSERT_TRUE(own.action);
    EXPECT_EQ(formatAction(*own.action, game.geometry()), "setup king a1 warriors c1:3 e1:3 g1:4");

    const auto drawn = dialog.answer("random", random);
    ASSERT_TRUE(drawn.action);
    EXPECT_TRUE(isLegal(request, OwnPieces{}, game.geometry(), *drawn.action));

    const auto quit = dialog.answer("quit", random);
    EXPECT_TRUE(quit.quit);
    EXPECT_FALSE(quit.action);
}

TEST(Terminal, RewardKeysAreTheWarriorsNumbers) {
    SeatView game = SeatView::start(kNewGame).value();
    ASSERT_TRUE(game.takeEvent("event setup king c1 warriors a1:3 e1:3 g1:4").ok());
    const Request request = game.readRequest("request reward 1").value();
    const Prompt prompt = makePrompt(request, game);
    ASSERT_EQ(prompt.choices.size(), 3u);
    auto input = parseInput("3", request, prompt, game.knowledge());
    ASSERT_TRUE(input.ok());
    EXPECT_EQ(input.value().action, rewardAction(3));
    EXPECT_NE(prompt.body.find("[3] W3 on g1 (strength 4), then 5"), std::string::npos)
        << prompt.body;
}

}  // namespace
}  // namespace torneio::person
