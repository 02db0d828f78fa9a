// The heuristic player: a fair opponent that plays from what its seat may know (D8) and a
// memory of what it has seen. No search; every decision scores the legal replies and takes the
// best (a little seeded noise breaks ties).
//   Memory   every public sighting of an opponent's piece: where (a combat call, a reveal, an
//            ordered retreat, a refusal), its revealed strength or "king", the round, and the
//            opponent's move count and points gained at that moment. Each later "moved" of that
//            seat may have taken the piece one step further (the staleness); points gained
//            since may have made it stronger. A reveal that does not come proves the seat has
//            no piece on that square any more.
//   Set-up   king on the back line of the zone, the strongest warrior (about half the
//            points) in front.
//   Turn     1. call a combat where a king was just seen on a warrior's square, or where the
//               known defenders are weaker than that warrior (ties go to the attacker, G8);
//            2. otherwise step warriors toward the nearest opponent seen that they can beat,
//               or into the opponents' home zones to look for kings there (a combat call on
//               each zone square not searched lately), the strong ones first;
//            3. move the king away from squares where opponents were seen near it.
//   Retreat  order the loser onto a square where one of its own warriors can beat it next
//            turn, else away from its king.
//   Withdraw away from the opponents seen nearby.
//   Reward   every point to its strongest living warrior (G10).
#pragma once

#include <cstdint>
#include <vector>

#include "common/random.h"
#include "torneio/play/player.h"
#include "torneio/play/sightings.h"

namespace torneio::play {

// The heuristic player's memory: up to 8 sightings per opponent, each keeping its place in the
// list when seen again; a withdrawal counts as one more move of its seat and a retreat carries
// the sighting along.
inline constexpr SightingRules kHeuristicSightings{8, false, false};

// HeuristicPlayer
//   random_       tie-breaking noise and the set-up's square choice
//   sightings_    every public sighting of an opponent's piece (sightings.h), kept by
//                 kHeuristicSightings
//   searched_[q]  the round a combat on square q last showed no king there (0: never)
//   reveals_      the (seat, value) reveals of the combat being resolved
class HeuristicPlayer final : public Player {
  public:
    void newGame(const Knowledge& knowledge, std::uint64_t seed) override;
    void observe(const Event& event, const Knowledge& knowledge) override;
    Action decide(const Request& request, const Knowledge& knowledge) override;

    const std::vector<Sighting>& sightings() const { return sightings_.all(); }
    // Moves of the sighting's seat since it was seen: how far the piece may have gone.
    int staleness(const Sighting& s) const { return sightings_.movesSince(s); }
    // The most the piece of a sighting may be worth now (kKingReveal for a king).
    int estimatedStrength(const Sighting& s, const Knowledge& knowledge) const;

  private:
    struct Reveal {
        int seat = -1;
        int value = 0;
    };

    void endOfReveals(const Knowledge& knowledge);
    double scoreTurn(const Action& action, const Knowledge& knowledge) const;
    double scoreCombat(Square square, int strength, const Knowledge& knowledge) const;
    double scoreWarriorStep(Square from, Square to, int strength, const Knowledge& k) const;
    double scoreKingStep(Square from, Square to, const Knowledge& knowledge) const;
    double scoreOrder(const Request& request, Square to, const Knowledge& knowledge) const;
    double danger(Square square, const Knowledge& knowledge) const;
    int targetDistance(Square from, int strength, const Knowledge& knowledge) const;
    Action chooseSetUp(const Request& request, const Knowledge& knowledge);
    Action chooseReward(const Knowledge& knowledge) const;

    common::Random random_;
    Sightings sightings_{kHeuristicSightings};
    std::vector<int> searched_;
    std::vector<Reveal> reveals_;
};

}  // namespace torneio::play
