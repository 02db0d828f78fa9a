// The `ai` player: a Belief about the opponents (belief.h) kept from the events its seat
// receives, and an ISMCTS search over determinizations drawn from it (ismcts.h) for every turn,
// retreat order, withdrawal and reward point. The set-up is a policy (SetUpPolicy), chosen by
// measuring the policies against each other (docs/torneio-strength.md).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "common/options.h"
#include "common/random.h"
#include "torneio/belief.h"
#include "torneio/ismcts.h"
#include "torneio/player.h"

namespace torneio {

// SetUpPolicy: where the king hides and how the 10 points are split (G3, G4, D2, D3).
//   Back     king on a back-line square at random, warriors in front, split 5/3/2 (about
//            half, then half of the rest: the heuristic player's split)
//   Corner   king on the zone square nearest a board corner (back line), warriors as far from
//            it as the zone allows, split 4/3/3
//   Spread   king and warriors at random zone squares, split 4/3/3
//   Random   a uniformly random legal set-up
enum class SetUpPolicy : std::uint8_t { Back, Corner, Spread, Random };
inline constexpr std::string_view kSetUpPolicyNames[] = {"back", "corner", "spread", "random"};
inline constexpr SetUpPolicy kDefaultSetUpPolicy = SetUpPolicy::Corner;
std::optional<SetUpPolicy> parseSetUpPolicy(std::string_view name);

// The set-up a policy gives this seat (always legal).
SetUp chooseSetUp(SetUpPolicy policy, const Knowledge& knowledge, common::Random& random);

// AiConfig: the player's settings, from the `torneio` program's options.
//   limits     the search budget (Simulations, MoveTime)
//   particles  particles per opponent in the belief (Particles)
//   setUp      the set-up policy (SetUpPolicy)
struct AiConfig {
    SearchLimits limits;
    int particles = kDefaultParticles;
    SetUpPolicy setUp = kDefaultSetUpPolicy;
};

// AiPlayer
//   config_     settings (configure() reads them from the program's options)
//   seed_       the game's seed; decision i searches with mixSeed(seed_, i)
//   decisions_  decisions taken this game
//   belief_     the belief of the current game (made at newGame)
//   lastStats_  what the last search did
class AiPlayer final : public Player {
  public:
    explicit AiPlayer(const AiConfig& config = {}) : config_(config) {}
    void configure(const common::Options& options) override;
    void newGame(const Knowledge& knowledge, std::uint64_t seed) override;
    void observe(const Event& event, const Knowledge& knowledge) override;
    Action decide(const Request& request, const Knowledge& knowledge) override;

    const AiConfig& config() const { return config_; }
    const Belief& belief() const { return *belief_; }
    const SearchStats& lastStats() const { return lastStats_; }

  private:
    AiConfig config_;
    std::uint64_t seed_ = 0;
    std::uint64_t decisions_ = 0;
    std::unique_ptr<Belief> belief_;
    SearchStats lastStats_;
};

std::unique_ptr<Player> makeAiPlayer();
std::unique_ptr<Player> makeAiPlayer(const AiConfig& config);

}  // namespace torneio
