// The `torneio` program through its protocol (protocol.md, "The Torneio player protocol"): the
// real binary as a child process. The handshake, every request kind answered legally in whole
// games, bad input answered by exactly one error line with the state kept, and the worked
// sessions of protocol.md replayed line for line.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "common/process.h"
#include "common/text.h"
#include "torneio/play/player.h"
#include "torneio/play/player_session.h"
#include "torneio/referee/game.h"
#include "torneio/rules/random_play.h"
#include "torneio/rules/view.h"

namespace torneio::play {
namespace {

constexpr auto kHangGuard = std::chrono::seconds(20);  // a hang guard, not a speed limit

// PlayerProcess: the `torneio` binary on pipes.
class PlayerProcess {
  public:
    PlayerProcess() {
        auto started = common::ChildProcess::start(TORNEIO_PLAYER, {}, "");
        EXPECT_TRUE(started.ok());
        process_ = std::move(started).value();
    }

    void send(std::string_view line) {
        const auto deadline = common::SteadyClock::now() + std::chrono::seconds(10);  // a guard
        ASSERT_EQ(process_->writeLine(line, deadline), common::WriteStatus::Written);
    }

    std::string readLine() {
        std::string line;
        const auto status = process_->readLine(line, common::SteadyClock::now() + kHangGuard);
        EXPECT_EQ(status, common::ReadStatus::Line);
        return line;
    }

    // Sends the line, then `isready`: every line before `readyok` is the line's output.
    std::vector<std::string> exchange(std::string_view line) {
        send(line);
        send("isready");
        std::vector<std::string> out;
        for (std::string reply = readLine(); reply != "readyok"; reply = readLine()) {
            out.push_back(reply);
            if (out.size() > 100) break;
        }
        return out;
    }

    std::optional<int> quit() {
        send("quit");
        return process_->wait(std::chrono::seconds(10));
    }

  private:
    std::unique_ptr<common::ChildProcess> process_;
};

// The identification, then one option line per declared option (the Player combo lists every
// kind of playerKinds(), the default first among the values given), then torneiook.
TEST(PlayerProtocol, Handshake) {
    PlayerProcess player;
    const auto lines = player.exchange("torneio");
    ASSERT_GE(lines.size(), 5u);
    EXPECT_EQ(lines[0], "id name Torneio 0.1.0");
    EXPECT_EQ(lines[1], "id author the lasca developers");
    std::string kinds;
    for (const PlayerKind& kind : playerKinds()) kinds += " var " + std::string(kind.name);
    EXPECT_EQ(lines[2],
              "option name Player type combo default " + std::string(kDefaultPlayerKind) + kinds);
    EXPECT_EQ(lines[3], "option name Seed type spin default 0 min 0 max 2147483647");
    for (std::size_t i = 2; i + 1 < lines.size(); ++i)
        EXPECT_TRUE(lines[i].starts_with("option name "));
    EXPECT_EQ(lines.back(), "torneiook");
    EXPECT_TRUE(player.exchange("setoption name player value RANDOM").empty());
    EXPECT_EQ(player.quit(), 0);
}

// Plays whole games with the binary at `seat` and random players elsewhere: every request the
// binary gets is answered with exactly one legal reply. Counts the request kinds answered.
void playThroughTheBinary(const std::string& kind, int seats, int seat, std::uint64_t seed,
                          std::array<int, 5>& answered) {
    PlayerProcess player;
    player.exchange("torneio");
    ASSERT_TRUE(player.exchange("setoption name Player value " + kind).empty());
    const Params params = defaultParams(seats);
    State state = State::create(params).value();
    ASSERT_TRUE(player.exchange(referee::newGameLine(seat, seed, params)).empty());
    common::Random others(seed);
    std::size_t sent = 0;
    while (!state.over()) {
        for (const Event& e : visibleEvents(state, seat, sent))
            ASSERT_TRUE(player.exchange(formatEvent(e, state.geometry())).empty());
        sent = state.events().size();
        if (state.toDecide() != seat) {
            ASSERT_TRUE(state.apply(state.toDecide(), randomAction(state, others)).ok());
            continue;
        }
        const std::string request = formatRequest(state.request(), state.geometry());
        const auto reply = player.exchange(request);
        ASSERT_EQ(reply.size(), 1u) << request;
        auto action = parseAction(reply[0], state.geometry());
        ASSERT_TRUE(action.ok()) << request << " -> " << reply[0];
        ++answered[static_cast<std::size_t>(state.request().kind)];
        auto applied = state.apply(seat, action.value());
        ASSERT_TRUE(applied.ok()) << request << " -> " << reply[0] << ": " << applied.error();
    }
    for (const Event& e : visibleEvents(state, seat, sent))
        ASSERT_TRUE(player.exchange(formatEvent(e, state.geometry())).empty());
    EXPECT_EQ(player.quit(), 0);
}

// Whole games ask for set-ups, turns, retreat orders and rewards. Withdrawals come only after a
// combat without a winner (G8: two strongest defenders tie above the attacker), which needs 3
// or 4 seats and is rare: WithdrawIsAnsweredLegally below builds one.
TEST(PlayerProtocol, EveryRequestKindIsAnsweredLegally) {
    for (const std::string kind : {"random", "heuristic"}) {
        std::array<int, 5> answered{};
        for (std::uint64_t game = 0; game < 9; ++game) {
            const int seats = kMinSeats + static_cast<int>(game % 3);
            playThroughTheBinary(kind, seats, static_cast<int>(game / 3) % seats, game, answered);
        }
        for (RequestKind k : {RequestKind::SetUp, RequestKind::Turn, RequestKind::RetreatOrder,
                              RequestKind::Reward})
            EXPECT_GT(answered[static_cast<std::size_t>(k)], 0)
                << kind << ": no request of kind " << static_cast<int>(k) << " was answered";
    }
}

// A game from a position (3 seats): seat 3 attacks with a 1 the square where seats 1 and 2
// both have a 5: no winner (G8), and seat 1, the binary, withdraws first (D12.4). Its set-up
// is asked for and comes as a legal "setup" event; its pieces then reach the position's squares
// by "move" events of its own (the player checks which square a piece leaves, not how far it goes).
TEST(PlayerProtocol, WithdrawIsAnsweredLegally) {
    for (const std::string kind : {"random", "heuristic"}) {
        const Params params = defaultParams(3);
        const Geometry g(params);
        const auto army = [&g](const char* king, std::array<const char*, 3> warriors,
                               std::array<int, 3> strengths) {
            torneio::SetUp setUp;
            setUp.king = g.parse(king).value();
            for (std::size_t w = 0; w < 3; ++w) setUp.warriors[w] = g.parse(warriors[w]).value();
            setUp.strengths = strengths;
            return setUp;
        };
        const std::array<torneio::SetUp, 3> setUps = {army("c1", {"e5", "f2", "h2"}, {5, 3, 2}),
                                                      army("a3", {"e5", "a5", "b6"}, {5, 3, 2}),
                                                      army("d10", {"e5", "e9", "g9"}, {1, 5, 4})};
        StartPosition start;
        for (std::size_t s = 0; s < 3; ++s) start.pieces[s] = piecesOf(setUps[s]);
        start.turnSeat = 2;
        State state = State::fromPosition(params, start).value();
        ASSERT_TRUE(state.apply(2, combatAction(g.parse("e5").value())).ok());
        ASSERT_EQ(state.request().kind, RequestKind::Withdraw);
        ASSERT_EQ(state.toDecide(), 0);

        PlayerProcess player;
        player.exchange("torneio");
        ASSERT_TRUE(player.exchange("setoption name Player value " + kind).empty());
        ASSERT_TRUE(player.exchange(referee::newGameLine(0, 1, params)).empty());
        Request ask;
        ask.kind = RequestKind::SetUp;
        ask.seat = 0;
        ASSERT_EQ(player.exchange(formatRequest(ask, g)).size(), 1u);
        const OwnPieces target = start.pieces[0];
        common::Random pick(3);
        const OwnPieces home = piecesOf(randomAction(ask, OwnPieces{}, g, pick).setUp);
        Action homeSetUp = setUpAction(torneio::SetUp{});
        homeSetUp.setUp.king = home[0].square;
        for (int w = 1; w <= 3; ++w) {
            homeSetUp.setUp.warriors[static_cast<std::size_t>(w - 1)] = home[w].square;
            homeSetUp.setUp.strengths[static_cast<std::size_t>(w - 1)] = target[w].strength;
        }
        ASSERT_TRUE(isLegal(ask, OwnPieces{}, g, homeSetUp));
        ASSERT_TRUE(player.exchange("event setup " + formatSetUp(homeSetUp.setUp, g)).empty());
        for (int p = 0; p < 4; ++p)
            if (home[p].square != target[p].square) {
                ASSERT_TRUE(player
                                .exchange("event move " + std::to_string(p) + " " +
                                          g.name(home[p].square) + " " + g.name(target[p].square))
                                .empty());
            }
        for (const Event& e : visibleEvents(state, 0))
            ASSERT_TRUE(player.exchange(formatEvent(e, g)).empty());
        const auto reply = player.exchange(formatRequest(state.request(), g));
        ASSERT_EQ(reply.size(), 1u);
        auto action = parseAction(reply[0], g);
        ASSERT_TRUE(action.ok()) << reply[0];
        EXPECT_EQ(action.value().kind, ActionKind::Withdraw);
        EXPECT_TRUE(state.apply(0, action.value()).ok()) << reply[0];
        EXPECT_EQ(player.quit(), 0);
    }
}

// One `info string error: ...` line for a line that must be refused.
void expectOneError(PlayerProcess& player, const std::string& line) {
    const auto out = player.exchange(line);
    ASSERT_EQ(out.size(), 1u) << line;
    EXPECT_TRUE(out[0].starts_with("info string error: ")) << line << " -> " << out[0];
}

// Events that cannot happen (the seat was not asked for a set-up, it has one already, the
// set-up is not its own, the game is over): one error line each, and nothing changes.
TEST(PlayerProtocol, ImpossibleEventsGetOneErrorLineAndChangeNothing) {
    const Params params = defaultParams(2);
    const Geometry g(params);
    common::Random pick(11);
    const auto legalSetUp = [&](int seat) {
        Request ask;
        ask.kind = RequestKind::SetUp;
        ask.seat = seat;
        return randomAction(ask, OwnPieces{}, g, pick).setUp;
    };
    PlayerProcess player;
    player.exchange("torneio");
    ASSERT_TRUE(player.exchange("setoption name Player value random").empty());

    // A set-up event before any set-up request, even one of another seat's zone: refused, and
    // the seat holds no pieces afterwards.
    ASSERT_TRUE(player.exchange("newgame seat 2 seed 6 seats=2").empty());
    expectOneError(player, "event setup king a1 warriors c1:3 e1:3 g1:4");
    expectOneError(player, "event setup " + formatSetUp(legalSetUp(1), g));
    for (const char* line : {"event turn 1 1", "event moved 1", "event turn 2 1"})
        ASSERT_TRUE(player.exchange(line).empty()) << line;
    expectOneError(player, "request turn 1");  // it has not set up

    // After its set-up: another seat's set-up and a second one of its own are refused; its
    // pieces stay those of the first.
    ASSERT_TRUE(player.exchange("newgame seat 1 seed 6 seats=2").empty());
    const auto answer = player.exchange("request setup");
    ASSERT_EQ(answer.size(), 1u);
    auto mine = parseAction(answer[0], g);
    ASSERT_TRUE(mine.ok()) << answer[0];
    expectOneError(player, "event setup " + formatSetUp(legalSetUp(1), g));  // seat 2's zone
    ASSERT_TRUE(player.exchange("event " + answer[0]).empty());
    torneio::SetUp other = legalSetUp(0);
    while (other == mine.value().setUp) other = legalSetUp(0);
    expectOneError(player, "event setup " + formatSetUp(other, g));
    ASSERT_TRUE(player.exchange("event turn 1 1").empty());
    Request turn;
    turn.kind = RequestKind::Turn;
    turn.seat = 0;
    turn.round = 1;
    for (int i = 0; i < 10; ++i) {  // every reply is legal for the first set-up's pieces
        const auto reply = player.exchange("request turn 1");
        ASSERT_EQ(reply.size(), 1u);
        auto action = parseAction(reply[0], g);
        ASSERT_TRUE(action.ok()) << reply[0];
        EXPECT_TRUE(isLegal(turn, piecesOf(mine.value().setUp), g, action.value())) << reply[0];
    }

    // After the end: nothing more is taken.
    ASSERT_TRUE(player.exchange("event moved 1").empty());
    ASSERT_TRUE(player.exchange("event end win 1").empty());
    expectOneError(player, "event turn 2 1");
    expectOneError(player, "event combat 2 c1");
    expectOneError(player, "request turn 2");
    EXPECT_EQ(player.quit(), 0);
}

// Bad input: exactly one `info string error: ...` line, and the state is kept: the game goes
// on as if the line had not come.
TEST(PlayerProtocol, BadInputGetsOneErrorLineAndChangesNothing) {
    PlayerProcess player;
    player.exchange("torneio");
    ASSERT_TRUE(player.exchange("setoption name Player value heuristic").empty());
    const std::vector<std::string> beforeGame = {"request turn 1",
                                                 "event turn 1 1",
                                                 "newgame seat 3 seed 1 seats=2",
                                                 "newgame seat 1 seed x seats=2",
                                                 "newgame seat 1 seed 1 seats=2 board=99",
                                                 "newgame seat 1 seats=2"};
    const std::vector<std::string> inGame = {"",
                                             "   ",
                                             "foo bar",
                                             "\x01\x02garbage\xff",
                                             "setoption name Hash value 3",
                                             "setoption name Seed value -1",
                                             "setoption name Player value clever",
                                             "setoption",
                                             "event",
                                             "event turn 9 1",
                                             "event withdraw 0 a1 a2",
                                             "event setup king z9 warriors a1:1 b2:2 c1:7",
                                             "event frobnicate 1",
                                             "request",
                                             "request setup",
                                             "request order 2 z9",
                                             "request dance",
                                             std::string(5000, 'x')};
    for (const auto& line : beforeGame) {
        const auto out = player.exchange(line);
        ASSERT_EQ(out.size(), 1u) << line;
        EXPECT_TRUE(out[0].starts_with("info string error: ")) << out[0];
    }
    const Params params = defaultParams(2);
    State state = State::create(params).value();
    ASSERT_TRUE(player.exchange(referee::newGameLine(0, 5, params)).empty());
    common::Random others(5);
    std::size_t sent = 0;
    for (int decisions = 0; decisions < 60 && !state.over();) {
        for (const Event& e : visibleEvents(state, 0, sent))
            ASSERT_TRUE(player.exchange(formatEvent(e, state.geometry())).empty());
        sent = state.events().size();
        if (state.toDecide() != 0) {
            ASSERT_TRUE(state.apply(state.toDecide(), randomAction(state, others)).ok());
            continue;
        }
        const auto& bad = inGame[static_cast<std::size_t>(decisions) % inGame.size()];
        const auto out = player.exchange(bad);
        ASSERT_EQ(out.size(), 1u) << common::printable(bad);
        EXPECT_TRUE(out[0].starts_with("info string error: ")) << out[0];
        const auto reply = player.exchange(formatRequest(state.request(), state.geometry()));
        ASSERT_EQ(reply.size(), 1u);
        auto action = parseAction(reply[0], state.geometry());
        ASSERT_TRUE(action.ok()) << reply[0];
        ASSERT_TRUE(state.apply(0, action.value()).ok()) << reply[0];
        ++decisions;
    }
    EXPECT_EQ(player.quit(), 0);
}

// Lines of real games, shuffled and sent to a session with requests among them: every line gets
// at most one reply line (exactly one for a request), and nothing breaks.
TEST(PlayerProtocol, ShuffledLinesNeverBreakTheSession) {
    for (const std::string kind : {"random", "heuristic"}) {
        for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
            const State game = playRandomGame(defaultParams(seats), 7);
            std::vector<std::string> lines;
            for (const std::string& line : viewLines(viewOf(game, 0), game.geometry()))
                lines.push_back(line);
            for (const Decision& d : game.history())
                if (d.seat == 0 && d.firstEvent > 0) lines.push_back("request turn 3");
            lines.push_back("request reward 1");
            lines.push_back("request order 2 e4 refused e5");
            common::Random random(static_cast<std::uint64_t>(seats));
            for (int round = 0; round < 3; ++round) {
                PlayerSession session;
                ASSERT_TRUE(session.handle("setoption name Player value " + kind).empty());
                ASSERT_TRUE(session.handle(referee::newGameLine(0, 1, game.params())).empty());
                random.shuffle(std::span<std::string>(lines));
                for (const std::string& line : lines) {
                    const auto replies = session.handle(line);
                    EXPECT_LE(replies.size(), 1u) << line;
                    if (line.starts_with("request")) {
                        EXPECT_EQ(replies.size(), 1u) << line;
                    }
                }
            }
        }
    }
}

TEST(PlayerProtocol, EndOfInputEndsTheProgram) {
    auto shell = common::ChildProcess::start(
        "/bin/sh", {"-c", std::string("printf 'isready\\n' | ") + TORNEIO_PLAYER}, "");
    ASSERT_TRUE(shell.ok());
    std::string line;
    EXPECT_EQ(shell.value()->readLine(line, common::SteadyClock::now() + kHangGuard),
              common::ReadStatus::Line);
    EXPECT_EQ(line, "readyok");
    EXPECT_EQ(shell.value()->wait(std::chrono::seconds(10)), 0);
}

// The worked sessions of protocol.md (blocks after `<!-- session: torneio... -->`): lines with
// `> ` are sent, every other line is the exact reply, in order.
std::vector<std::pair<std::string, std::vector<std::string>>> documentedSessions() {
    std::ifstream in(TORNEIO_PROTOCOL_MD);
    std::vector<std::pair<std::string, std::vector<std::string>>> sessions;
    std::string line;
    bool inBlock = false, armed = false;
    while (std::getline(in, line)) {
        if (line.starts_with("<!-- session: torneio")) {
            sessions.emplace_back(line, std::vector<std::string>{});
            armed = true;
        } else if (armed && line == "```") {
            inBlock = true;
            armed = false;
        } else if (inBlock && line == "```") {
            inBlock = false;
        } else if (inBlock) {
            sessions.back().second.push_back(line);
        }
    }
    return sessions;
}

TEST(PlayerProtocol, DocumentedSessionsReplayExactly) {
    const auto sessions = documentedSessions();
    ASSERT_GE(sessions.size(), 2u);
    for (const auto& [name, lines] : sessions) {
        PlayerProcess player;
        std::string last;
        for (const std::string& line : lines) {
            if (line.starts_with("> ")) {
                last = line.substr(2);
                player.send(last);
                continue;
            }
            EXPECT_EQ(player.readLine(), line) << name;
        }
        if (last != "quit") {
            EXPECT_EQ(player.exchange("isready").size(), 0u) << name;
        }
    }
}

}  // namespace
}  // namespace torneio::play
