// The human seat (human_seat.h) in real games against the in-process `torneio` player, with the
// person's typing given as a stream: bad lines are explained and asked again (never sent), the
// game reaches its end, `quit` and the end of the input put the seat out cleanly, and the
// decision time limit does not apply to the person.
#include <gtest/gtest.h>

#include <sstream>
#include <thread>

#include "torneio/referee/game.h"
#include "torneio/referee/human_seat.h"

namespace torneio::referee {
namespace {

// SlowBuffer: a person who thinks a while before typing: the stream's first read waits
// `delay`, then `text` (not empty) comes at once.
class SlowBuffer final : public std::streambuf {
  public:
    SlowBuffer(std::string text, std::chrono::milliseconds delay)
        : text_(std::move(text)), delay_(delay) {}

  protected:
    int_type underflow() override {
        if (served_) return traits_type::eof();
        std::this_thread::sleep_for(delay_);
        served_ = true;
        setg(text_.data(), text_.data(), text_.data() + text_.size());
        return traits_type::to_int_type(text_.front());
    }

  private:
    std::string text_;
    std::chrono::milliseconds delay_;
    bool served_ = false;
};

std::string repeated(const std::string& line, int times) {
    std::string text;
    for (int i = 0; i < times; ++i) text += line + "\n";
    return text;
}

// One game: the human seat at seat 0 reading `in`, a random in-process player at seat 1.
GameResult playAgainstRandom(std::istream& in, std::ostream& out, const Params& params,
                             const Limits& limits) {
    const SeatSpec human{"me", SeatKind::Human, "", {}, {}};
    const SeatSpec random{"r", SeatKind::InProcess, "", {}, {{"Player", "random"}}};
    std::unique_ptr<Seat> person = makeHumanSeat(in, out);
    std::unique_ptr<Seat> program = openSeat(random, "").value();
    EXPECT_TRUE(handshake(*person, human, limits).ok());
    EXPECT_TRUE(handshake(*program, random, limits).ok());
    const std::vector<Seat*> seats = {person.get(), program.get()};
    GameResult result = playGame(seats, GameSetup{params, 5, {"me", "r"}, {}, {}, {}, {}}, limits);
    EXPECT_NE(result.record.outcome.kind, OutcomeKind::Ongoing);
    auto replayed = replayRecord(result.record);
    EXPECT_TRUE(replayed.ok()) << replayed.error();
    return result;
}

TEST(HumanSeat, PlaysAWholeGameAndAsksAgainAfterBadInput) {
    Params params = defaultParams(2);
    params.maxRounds = 40;
    std::istringstream in("fly me to the moon\n1\nmove 3 a8\n" + repeated("random", 2000));
    std::ostringstream out;
    const GameResult result = playAgainstRandom(in, out, params, Limits{});
    EXPECT_TRUE(result.faults.empty());
    const std::string screen = out.str();
    EXPECT_NE(screen.find("Not understood: 'fly me to the moon'"), std::string::npos);
    EXPECT_NE(screen.find("Not legal: that piece cannot move to a8"), std::string::npos);
    EXPECT_NE(screen.find("setup king"), std::string::npos);  // the chosen proposal
    EXPECT_NE(screen.find("Game over"), std::string::npos);
    EXPECT_TRUE(screen.find("You won the game.") != std::string::npos ||
                screen.find("You lost the game.") != std::string::npos ||
                screen.find("A draw") != std::string::npos);
}

TEST(HumanSeat, QuitPutsTheSeatOutAndTheGameEnds) {
    std::istringstream in("1\nquit\n");
    std::ostringstream out;
    const GameResult result = playAgainstRandom(in, out, defaultParams(2), Limits{});
    ASSERT_EQ(result.faults.size(), 1u);
    EXPECT_EQ(result.faults[0].seat, 0);
    EXPECT_EQ(result.record.outcome.kind, OutcomeKind::Win);
    EXPECT_EQ(result.record.outcome.seats, 2u);  // seat 2 is left (G12)
    EXPECT_NE(out.str().find("You quit"), std::string::npos);
}

TEST(HumanSeat, TheEndOfTheInputIsAQuit) {
    std::istringstream in("1\n");
    std::ostringstream out;
    const GameResult result = playAgainstRandom(in, out, defaultParams(2), Limits{});
    ASSERT_EQ(result.faults.size(), 1u);
    EXPECT_EQ(result.faults[0].seat, 0);
    EXPECT_NE(out.str().find("The input ended"), std::string::npos);
}

// A person slower than the decision limit is not disqualified: the limit is for programs.
TEST(HumanSeat, TheDecisionTimeLimitDoesNotApply) {
    Params params = defaultParams(2);
    params.maxRounds = 3;
    SlowBuffer slow(repeated("random", 200), std::chrono::milliseconds(50));
    std::istream in(&slow);
    std::ostringstream out;
    Limits limits;
    limits.decision = std::chrono::milliseconds(1);
    const GameResult result = playAgainstRandom(in, out, params, limits);
    EXPECT_TRUE(result.faults.empty());
}

TEST(HumanSeat, AnswersTheHandshakeItself) {
    std::istringstream in;
    std::ostringstream out;
    std::unique_ptr<Seat> person = makeHumanSeat(in, out);
    const SeatSpec spec{"me", SeatKind::Human, "", {}, {{"Anything", "1"}}};
    EXPECT_TRUE(handshake(*person, spec, Limits{}).ok());
    EXPECT_TRUE(out.str().empty());  // nothing is shown before the game
    auto opened = openSeat(spec, "");
    EXPECT_TRUE(opened.ok());  // the referee's own terminal
}

}  // namespace
}  // namespace torneio::referee
