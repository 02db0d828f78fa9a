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

#include <array>
#include <cstdint>
#include <vector>

#include "common/random.h"
#include "torneio/play/player.h"

namespace torneio {

inline constexpr int kUnknownStrength = -2;  // a warrior whose strength was not revealed
inline constexpr int kKingSighting = kKingReveal;

// Sighting: where an opponent's piece was last seen.
//   seat      the opponent (0-based)
//   square    where it stood
//   strength  revealed strength, kUnknownStrength (a combat call or a refusal shows a piece,
//             not its strength; a refusal may even be the king), or kKingSighting
//   round     the round it was seen in
//   movesAt   the opponent's count of "moved" (and withdrawals) at that moment
//   gainedAt  the points the opponent had gained at that moment (G10: the totals are public)
// Size: 24 bytes.
struct Sighting {
    int seat = -1;
    Square square = kNoSquare;
    int strength = kUnknownStrength;
    int round = 0;
    int movesAt = 0;
    int gainedAt = 0;
};

// HeuristicPlayer
//   random_       tie-breaking noise and the set-up's square choice
//   sightings_    at most one sighting per (opponent, square); dropped when disproved (a
//                 combat there without its reveal), when the piece was removed, or when the
//                 opponent left the game
//   moves_[s]     how many "moved" / "withdrew" events of seat s were seen
//   searched_[q]  the round a combat on square q last showed no king there (0: never)
//   reveals_      the (seat, value) reveals of the combat being resolved
class HeuristicPlayer final : public Player {
  public:
    void newGame(const Knowledge& knowledge, std::uint64_t seed) override;
    void observe(const Event& event, const Knowledge& knowledge) override;
    Action decide(const Request& request, const Knowledge& knowledge) override;

    const std::vector<Sighting>& sightings() const { return sightings_; }
    // Moves of the sighting's seat since it was seen: how far the piece may have gone.
    int staleness(const Sighting& s) const;
    // The most the piece of a sighting may be worth now (kKingSighting for a king).
    int estimatedStrength(const Sighting& s, const Knowledge& knowledge) const;

  private:
    struct Reveal {
        int seat = -1;
        int value = 0;
    };

    void see(int seat, Square square, int strength, const Knowledge& knowledge);
    void forget(int seat, Square square);
    void moveSighting(int seat, Square from, Square to);
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
    std::vector<Sighting> sightings_;
    std::array<int, kMaxSeats> moves_{};
    std::vector<int> searched_;
    std::vector<Reveal> reveals_;
};

}  // namespace torneio
