// The resampler (resample.h, OpenSpiel's ResampleFromInfostate): a sampled state is a legal
// state the seat cannot tell from the game (the same view lines, request and observation, its
// own pieces and decisions), hides what the seat could not see (no other seat's private event
// but its sampled position), is the same for a seed and for two games the seat cannot tell
// apart, and is refused (an error value) when there is nothing to sample.
#include "torneio/play/resample.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <set>
#include <string>

#include "torneio/rules/observation.h"
#include "torneio/rules/random_play.h"
#include "torneio/rules/serialize.h"
#include "torneio/rules/view.h"
#include "torneio/torneio_test_util.h"

namespace torneio::play {
namespace {

using test::army;
using test::play;
using test::position;

constexpr int kParticles = 32;

// The seat cannot tell `sample` from `truth`, and the sample holds nothing else of the truth.
void expectConsistent(const State& sample, const State& truth, int seat) {
    ASSERT_TRUE(checkInvariants(sample).ok()) << checkInvariants(sample).error();
    const Geometry& g = truth.geometry();
    EXPECT_EQ(sample.sampledFor(), seat);
    EXPECT_EQ(sample.pieces(seat), truth.pieces(seat));
    EXPECT_EQ(sample.toDecide(), truth.toDecide());
    EXPECT_EQ(viewLines(viewOf(sample, seat), g), viewLines(viewOf(truth, seat), g));
    EXPECT_EQ(observationTensor(sample, seat), observationTensor(truth, seat));
    for (int s = 0; s < truth.seats(); ++s) EXPECT_EQ(sample.eliminated(s), truth.eliminated(s));
    for (const Event& e : sample.events())
        EXPECT_TRUE(visibleTo(e, seat) || e.kind == EventKind::Position) << formatEvent(e, g);
    for (const Decision& d : sample.history()) EXPECT_EQ(d.seat, seat);
}

// Every seat's pieces, as text: what a sample draws.
std::string hiddenPieces(const State& state) {
    std::string text;
    for (int s = 0; s < state.seats(); ++s)
        for (const Piece& p : state.pieces(s).pieces)
            text += (p.alive ? state.geometry().name(p.square) : std::string("-")) + ":" +
                    std::to_string(p.strength) + " ";
    return text;
}

// At every decision of random games (set-ups, turns, orders, withdrawals, rewards), for every
// seat in the game.
TEST(Resample, SamplesAreConsistentWithTheSeatsInformation) {
    int kinds = 0;
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        State state = State::create(defaultParams(seats)).value();
        common::Random random(static_cast<std::uint64_t>(10 + seats));
        int checked = 0;
        for (int step = 0; !state.over() && step < 300; ++step) {
            if (step % 3 == 0 || state.phase() != Phase::Turn) {
                kinds |= 1 << static_cast<int>(state.request().kind);
                for (int seat = 0; seat < seats; ++seat) {
                    if (state.eliminated(seat)) continue;
                    const auto sample = resampleFromInfostate(state, seat, 5, kParticles);
                    ASSERT_TRUE(sample.ok()) << sample.error();
                    expectConsistent(sample.value(), state, seat);
                    ++checked;
                }
            }
            ASSERT_TRUE(state.apply(state.toDecide(), randomAction(state, random)).ok());
        }
        EXPECT_GT(checked, 50);
    }
    // Set-ups, turns and at least one decision inside a combat.
    EXPECT_TRUE(kinds & (1 << static_cast<int>(RequestKind::SetUp)));
    EXPECT_TRUE(kinds & (1 << static_cast<int>(RequestKind::Turn)));
    EXPECT_GT(std::popcount(static_cast<unsigned>(kinds)), 2);
}

TEST(Resample, DeterministicForASeedAndDrawnForAnother) {
    State state = State::create(defaultParams(2)).value();
    common::Random random(3);
    for (int step = 0; step < 30; ++step)
        ASSERT_TRUE(state.apply(state.toDecide(), randomAction(state, random)).ok());
    const auto text = [&](std::uint64_t seed) {
        return hiddenPieces(resampleFromInfostate(state, 0, seed, kParticles).value());
    };
    EXPECT_EQ(text(1), text(1));
    std::set<std::string> drawn;
    for (std::uint64_t seed = 0; seed < 6; ++seed) drawn.insert(text(seed));
    EXPECT_GT(drawn.size(), 1u);  // the other seat's pieces are drawn
}

// D8: two games that differ only in facts hidden from seat 1 give it the same samples (its
// own start pieces are the same; seat 2's start pieces, unseen, are not read).
TEST(Resample, DependsOnlyOnTheSeatsInformation) {
    const auto [a, b] = test::gamesDifferingInHiddenFacts();
    const Geometry& g = a.geometry();
    ASSERT_EQ(viewLines(viewOf(a, 0), g), viewLines(viewOf(b, 0), g));
    for (std::uint64_t seed = 0; seed < 4; ++seed) {
        const auto sa = resampleFromInfostate(a, 0, seed, kParticles);
        const auto sb = resampleFromInfostate(b, 0, seed, kParticles);
        ASSERT_TRUE(sa.ok() && sb.ok());
        EXPECT_EQ(hiddenPieces(sa.value()), hiddenPieces(sb.value()));
        EXPECT_EQ(viewLines(viewOf(sa.value(), 0), g), viewLines(viewOf(sb.value(), 0), g));
        expectConsistent(sa.value(), a, 0);
    }
}

// A sample before any set-up is the game itself; nothing to sample after the end; particles out
// of range.
TEST(Resample, RefusedAsAnErrorValue) {
    const State fresh = State::create(defaultParams(2)).value();
    const auto before = resampleFromInfostate(fresh, 0, 1);
    ASSERT_TRUE(before.ok()) << before.error();
    expectConsistent(before.value(), fresh, 0);
    const State over = playRandomGame(defaultParams(2), 4);
    const auto after = resampleFromInfostate(over, 0, 1);
    ASSERT_FALSE(after.ok());
    EXPECT_NE(after.error().find("over"), std::string::npos) << after.error();
    State started = State::create(defaultParams(2)).value();
    common::Random random(1);
    for (int step = 0; step < 4; ++step)
        ASSERT_TRUE(started.apply(started.toDecide(), randomAction(started, random)).ok());
    EXPECT_FALSE(resampleFromInfostate(started, 0, 1, 0).ok());
    EXPECT_FALSE(resampleFromInfostate(started, 0, 1, kMaxSampleParticles + 1).ok());
    EXPECT_TRUE(resampleFromInfostate(started, 0, 1, 1).ok());
}

// sampleState with a Belief kept up to date event by event (a player program's Knowledge.sample)
// draws the same pieces as resampleFromInfostate with that Belief's seed (at a turn, where the
// first draw always agrees with the game).
TEST(Resample, ReplayedBeliefGivesTheSameSample) {
    State state = State::create(defaultParams(3)).value();
    common::Random random(8);
    for (int step = 0; step < 60 || state.phase() != Phase::Turn; ++step)
        ASSERT_TRUE(state.apply(state.toDecide(), randomAction(state, random)).ok());
    const std::uint64_t seed = 21;
    const std::vector<Event> events = visibleEvents(state, 1);
    Knowledge knowledge(state.params(), 1);
    Belief belief(state.params(), 1, kParticles, common::mixSeed(seed, 1));
    for (const Event& e : events) {
        ASSERT_TRUE(knowledge.update(e).ok());
        belief.observe(e, knowledge);
    }
    const auto kept = sampleState(knowledge, belief, seed);
    const auto replayed =
        replayBelief(Knowledge(state.params(), 1), events, kParticles, common::mixSeed(seed, 1));
    ASSERT_TRUE(kept.ok() && replayed.ok());
    EXPECT_EQ(hiddenPieces(kept.value()),
              hiddenPieces(resampleFromInfostate(state, 1, seed, kParticles).value()));
    EXPECT_EQ(serializeState(kept.value()).value(),
              serializeState(
                  sampleState(replayed.value().knowledge, replayed.value().belief, seed).value())
                  .value());
}

// A resampled state names no decision of another seat: it cannot be numbered or serialized.
TEST(Resample, ASampleHasNoHistoryToWrite) {
    State state = State::create(defaultParams(2)).value();
    common::Random random(4);
    for (int step = 0; step < 20; ++step)
        ASSERT_TRUE(state.apply(state.toDecide(), randomAction(state, random)).ok());
    const auto sample = resampleFromInfostate(state, 1, 3, kParticles);
    ASSERT_TRUE(sample.ok());
    EXPECT_FALSE(serializeState(sample.value()).ok());
    EXPECT_FALSE(historyNumbers(sample.value()).ok());
}

}  // namespace
}  // namespace torneio::play
