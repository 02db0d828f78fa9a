// Sightings: a seat's record of opponents' pieces, fed the event lines the seat receives, agrees
// with the rules core's true state in random games of 2, 3 and 4 seats, under the rules of the
// heuristic player and of the person's view: a sighting not disproved, of a seat that has not
// moved since, is where that seat's piece stands, with at least the revealed strength and at
// most that plus the points gained since.
#include "torneio/play/sightings.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "torneio/play/heuristic.h"
#include "torneio/rules/random_play.h"
#include "torneio/rules/view.h"

namespace torneio::play {
namespace {

void checkAgainstTheState(const Sightings& sightings, const Knowledge& k, const State& state,
                          const SightingRules& rules) {
    const auto& all = sightings.all();
    for (int seat = 0; seat < state.seats(); ++seat) {
        const auto count = std::count_if(all.begin(), all.end(),
                                          [seat](const Sighting& s) { return s.seat == seat; });
        EXPECT_LE(static_cast<std::size_t>(count), rules.perSeat);
    }
    for (const Sighting& s : all) {
        EXPECT_NE(s.seat, k.seat()) << "only opponents are recorded";
        EXPECT_FALSE(state.eliminated(s.seat)) << "a seat that is out is forgotten (G11)";
        EXPECT_GE(sightings.movesSince(s), 0);
        if (s.withdrew || sightings.movesSince(s) > 0) continue;
        const OwnPieces& pieces = state.pieces(s.seat);
        const int piece = pieces.pieceOn(s.square);
        ASSERT_GE(piece, 0) << "seat " << s.seat + 1 << " seen on " << s.square;
        if (s.strength == kKingReveal) {
            EXPECT_EQ(piece, kKing);
        }
        if (s.strength >= 0) {
            EXPECT_GE(pieces[piece].strength, s.strength);
            EXPECT_LE(pieces[piece].strength, s.strength + k.pointsGained(s.seat) - s.gainedAt);
        }
    }
}

TEST(Sightings, AgreeWithTheStateThroughRandomGames) {
    const SightingRules person{6, true, true};
    for (const SightingRules& rules : {kHeuristicSightings, person}) {
        for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
            const Params params = defaultParams(seats);
            for (std::uint64_t seed = 1; seed <= 8; ++seed) {
                State state = State::create(params).value();
                std::vector<Knowledge> known;
                std::vector<Sightings> seen;
                for (int s = 0; s < seats; ++s) {
                    known.emplace_back(params, s);
                    seen.emplace_back(rules);
                }
                common::Random random(seed);
                std::size_t fed = 0;
                while (!state.over()) {
                    ASSERT_TRUE(state.apply(state.toDecide(), randomAction(state, random)).ok());
                    for (; fed < state.events().size(); ++fed) {
                        const Event& e = state.events()[fed];
                        for (int s = 0; s < seats; ++s) {
                            if (!visibleTo(e, s)) continue;
                            const auto i = static_cast<std::size_t>(s);
                            ASSERT_TRUE(known[i].update(e).ok());
                            seen[i].observe(e, known[i]);
                        }
                    }
                    for (std::size_t i = 0; i < known.size(); ++i)
                        checkAgainstTheState(seen[i], known[i], state, rules);
                }
            }
        }
    }
}

}  // namespace
}  // namespace torneio::play
