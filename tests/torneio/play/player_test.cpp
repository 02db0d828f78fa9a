// The players behind the `torneio` program: the registry of kinds, the random player, and the
// heuristic player's memory and choices, each checked on a position built with the rules core.
#include "torneio/play/player.h"

#include <gtest/gtest.h>

#include "torneio/play/heuristic.h"
#include "torneio/rules/random_play.h"
#include "torneio/torneio_test_util.h"

namespace torneio::play {
namespace {

using test::army;
using test::position;
using test::sq;

TEST(Players, KindsAreListedAndMade) {
    ASSERT_GE(playerKinds().size(), 2u);
    EXPECT_EQ(playerKinds()[0].name, "random");
    EXPECT_EQ(playerKinds()[1].name, "heuristic");
    bool defaultListed = false;
    for (const PlayerKind& kind : playerKinds()) {
        EXPECT_NE(makePlayer(kind.name), nullptr);
        defaultListed = defaultListed || kind.name == kDefaultPlayerKind;
    }
    EXPECT_TRUE(defaultListed);
    EXPECT_EQ(makePlayer("clever"), nullptr);
    EXPECT_EQ(makePlayer("Random"), nullptr);  // exact names; the option matches any case
}

// Drives one seat's player through a game held by a State: every event the seat may see goes
// to its Knowledge and its player; it is asked when it is to decide; the other seats' decisions
// come from `others` (scripted texts, else random).
class SeatHarness {
  public:
    SeatHarness(State& state, int seat, std::unique_ptr<Player> player, std::uint64_t seed)
        : state_(state),
          seat_(seat),
          player_(std::move(player)),
          knowledge_(state.start() ? Knowledge(state.params(), seat, state.pieces(seat))
                                   : Knowledge(state.params(), seat)) {
        player_->newGame(knowledge_, seed);
        feed();
    }

    void feed() {
        for (; fed_ < state_.events().size(); ++fed_) {
            const Event& e = state_.events()[fed_];
            if (!visibleTo(e, seat_)) continue;
            ASSERT_TRUE(knowledge_.update(e).ok());
            player_->observe(e, knowledge_);
        }
    }

    // The player's reply to the pending request (which must be its own); checked legal.
    Action ask() {
        EXPECT_EQ(state_.toDecide(), seat_);
        const Action action = player_->decide(state_.request(), knowledge_);
        EXPECT_TRUE(isLegal(state_.request(), knowledge_.own(), state_.geometry(), action))
            << formatAction(action, state_.geometry());
        return action;
    }

    std::string askAndPlay() {
        const Action action = ask();
        const std::string text = formatAction(action, state_.geometry());
        EXPECT_TRUE(state_.apply(seat_, action).ok()) << text;
        feed();
        return text;
    }

    void other(int seat, std::string_view text) {
        test::play(state_, seat, text);
        feed();
    }

    const Knowledge& knowledge() const { return knowledge_; }

  private:
    State& state_;
    int seat_;
    std::unique_ptr<Player> player_;
    Knowledge knowledge_;
    std::size_t fed_ = 0;
};

TEST(RandomPlayer, LegalAndSeeded) {
    for (std::uint64_t seed : {1u, 2u}) {
        std::vector<std::string> replies[2];
        for (auto& run : replies) {
            State state = State::create(defaultParams(2)).value();
            SeatHarness me(state, 0, makeRandomPlayer(), seed);
            common::Random others(99);
            for (int step = 0; step < 300 && !state.over(); ++step) {
                if (state.toDecide() == 0) {
                    run.push_back(me.askAndPlay());
                } else {
                    ASSERT_TRUE(state.apply(state.toDecide(), randomAction(state, others)).ok());
                    me.feed();
                }
            }
        }
        EXPECT_EQ(replies[0], replies[1]);
    }
}

// Set-up: the king on the back line, the strongest warrior (half the points) in front (G4, D2).
TEST(HeuristicPlayer, SetUpPutsTheKingBehind) {
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        State state = State::create(defaultParams(seats)).value();
        common::Random random(4);
        for (int seat = 0; seat < seats; ++seat) {
            SeatHarness me(state, seat, makeHeuristicPlayer(), 7);
            const Action setUp = me.ask();
            ASSERT_EQ(setUp.kind, ActionKind::SetUp);
            const Geometry& g = state.geometry();
            const Side side = g.side(seat);
            const Square king = setUp.setUp.king;
            const int back = side == Side::South   ? g.rankOf(king)
                             : side == Side::North ? g.size() - 1 - g.rankOf(king)
                             : side == Side::West  ? g.fileOf(king)
                                                   : g.size() - 1 - g.fileOf(king);
            EXPECT_EQ(back, 0);
            EXPECT_EQ(setUp.setUp.strengths, (std::array<int, kWarriors>{5, 3, 2}));
            ASSERT_TRUE(state.apply(seat, setUp).ok());
        }
    }
}

// A game from a position: seat 1 (south) with a strong warrior on d4, seat 2 attacks it there
// with a weak one and loses (G8): its strength (2) is public, and so is where seat 1 orders it.
struct AttackedPosition {
    Params params = defaultParams(2);
    Geometry geometry{params};
    State state = position(params,
                           {army(geometry, "a1", {"d4:5", "h1:3", "g2:2"}),
                            army(geometry, "h8", {"d4:2", "a7:4", "c7:4"})},
                           1);
};

TEST(HeuristicPlayer, RewardGoesToTheStrongestWarriorG10) {
    AttackedPosition p;
    SeatHarness me(p.state, 0, makeHeuristicPlayer(), 1);
    me.other(1, "combat d4");  // seat 2 attacks seat 1's 5 with its 2: seat 1 wins
    ASSERT_EQ(p.state.request().kind, RequestKind::RetreatOrder);
    me.askAndPlay();
    ASSERT_EQ(p.state.request().kind, RequestKind::Reward);
    EXPECT_EQ(me.askAndPlay(), "reward 1");
    EXPECT_EQ(me.knowledge().own()[1].strength, 6);
}

// It remembers where the beaten warrior was sent and how strong it is, steps onto it and calls
// the combat it wins (G7, G8).
TEST(HeuristicPlayer, HuntsAWeakerWarriorItHasSeen) {
    AttackedPosition p;
    auto owned = std::make_unique<HeuristicPlayer>();
    HeuristicPlayer* heuristic = owned.get();
    SeatHarness me(p.state, 0, std::move(owned), 1);
    me.other(1, "combat d4");
    const std::string order = me.askAndPlay();  // where seat 2's warrior goes: known to us
    const Square sent = sq(p.geometry, order.substr(6));
    me.askAndPlay();  // the reward
    ASSERT_FALSE(heuristic->sightings().empty());
    const Sighting& seen = heuristic->sightings().back();
    EXPECT_EQ(seen.seat, 1);
    EXPECT_EQ(seen.square, sent);
    EXPECT_EQ(seen.strength, 2);
    // Seat 1 steps its warrior onto the square it sent the loser to; seat 2 moves a piece
    // (maybe that one: the sighting is one move old); seat 1 calls the combat there.
    EXPECT_EQ(me.askAndPlay(), "move 1 " + p.geometry.name(sent));
    me.other(1, "move 2 a6");
    EXPECT_EQ(me.askAndPlay(), "combat " + p.geometry.name(sent));
}

// An opponent's warrior shows up next to the king (a combat call on d2): the king moves away.
TEST(HeuristicPlayer, KingStepsAwayFromAnOpponentSeenNearby) {
    const Params params = defaultParams(2);
    const Geometry g(params);
    State state = position(
        params, {army(g, "d1", {"a3:5", "h1:3", "g2:2"}), army(g, "h8", {"d2:2", "a7:4", "c7:4"})},
        1);
    SeatHarness me(state, 0, makeHeuristicPlayer(), 1);
    me.other(1, "combat d2");  // unopposed: seat 2 has a warrior on d2
    const Action reply = me.ask();
    ASSERT_EQ(reply.kind, ActionKind::Move);
    EXPECT_EQ(reply.piece, kKing);
    const int fromD2 = std::max(std::abs(g.fileOf(reply.square) - g.fileOf(sq(g, "d2"))),
                                std::abs(g.rankOf(reply.square) - g.rankOf(sq(g, "d2"))));
    EXPECT_GE(fromD2, 2);
}

// Whatever happens, every reply is legal: whole games against random players, 2-4 seats.
TEST(HeuristicPlayer, AlwaysLegalInRandomGames) {
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        for (std::uint64_t seed = 1; seed <= 5; ++seed) {
            State state = State::create(defaultParams(seats)).value();
            SeatHarness me(state, static_cast<int>(seed) % seats, makeHeuristicPlayer(), seed);
            common::Random others(seed);
            while (!state.over()) {
                if (state.toDecide() == static_cast<int>(seed) % seats) {
                    me.askAndPlay();
                } else {
                    ASSERT_TRUE(state.apply(state.toDecide(), randomAction(state, others)).ok());
                    me.feed();
                }
            }
        }
    }
}

}  // namespace
}  // namespace torneio::play
