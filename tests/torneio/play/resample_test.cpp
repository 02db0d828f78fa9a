// The resampler (resample.h, OpenSpiel's ResampleFromInfostate): a sampled state is a legal
// state consistent with what the seat knows (its own pieces exactly, who is out, the round and
// whose turn, the seat's own planes of its observation), the same for a seed, the same for two
// games the seat cannot tell apart, and refused (an error value) when there is nothing to sample.
#include "torneio/play/resample.h"

#include <gtest/gtest.h>

#include <algorithm>
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

// What the seat knows of `truth` holds in `sample`, and the sample is a legal state.
void expectConsistent(const State& sample, const State& truth, int seat) {
    ASSERT_TRUE(checkInvariants(sample).ok()) << checkInvariants(sample).error();
    EXPECT_EQ(sample.pieces(seat), truth.pieces(seat));
    EXPECT_EQ(sample.round(), truth.round());
    EXPECT_EQ(sample.turnSeat(), truth.turnSeat());
    EXPECT_EQ(sample.toDecide(), truth.turnSeat());  // it starts at that seat's turn
    for (int s = 0; s < truth.seats(); ++s) EXPECT_EQ(sample.eliminated(s), truth.eliminated(s));
    // The seat's own planes (its pieces, strengths and zone) are the same in its observation.
    const std::vector<double> a = observationTensor(sample, seat);
    const std::vector<double> b = observationTensor(truth, seat);
    const auto own = static_cast<std::ptrdiff_t>(6 * truth.geometry().squareCount());
    EXPECT_TRUE(std::equal(a.begin(), a.begin() + own, b.begin()));
}

TEST(Resample, SamplesAreConsistentWithTheSeatsInformation) {
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        State state = State::create(defaultParams(seats)).value();
        common::Random random(static_cast<std::uint64_t>(10 + seats));
        int checked = 0;
        for (int step = 0; !state.over() && step < 400; ++step) {
            if (step % 40 == 39 && state.phase() == Phase::Turn) {
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
        EXPECT_GT(checked, 0);
    }
}

TEST(Resample, DeterministicForASeedAndDrawnForAnother) {
    State state = State::create(defaultParams(2)).value();
    common::Random random(3);
    for (int step = 0; step < 30; ++step)
        ASSERT_TRUE(state.apply(state.toDecide(), randomAction(state, random)).ok());
    const auto text = [&](std::uint64_t seed) {
        return serializeState(resampleFromInfostate(state, 0, seed, kParticles).value()).value();
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
        EXPECT_EQ(serializeState(sa.value()).value(), serializeState(sb.value()).value());
        expectConsistent(sa.value(), a, 0);
    }
}

// Nothing to sample before the seat's set-up and after the end; particles out of range.
TEST(Resample, RefusedAsAnErrorValue) {
    const State fresh = State::create(defaultParams(2)).value();
    const auto before = resampleFromInfostate(fresh, 0, 1);
    ASSERT_FALSE(before.ok());
    EXPECT_NE(before.error().find("not set up"), std::string::npos) << before.error();
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
// draws the same state as resampleFromInfostate with that Belief's seed.
TEST(Resample, ReplayedBeliefGivesTheSameSample) {
    State state = State::create(defaultParams(3)).value();
    common::Random random(8);
    for (int step = 0; step < 60; ++step)
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
    EXPECT_EQ(serializeState(kept.value()).value(),
              serializeState(resampleFromInfostate(state, 1, seed, kParticles).value()).value());
    EXPECT_EQ(serializeState(kept.value()).value(),
              serializeState(
                  sampleState(replayed.value().knowledge, replayed.value().belief, seed).value())
                  .value());
}

}  // namespace
}  // namespace torneio::play
