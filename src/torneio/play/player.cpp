#include "torneio/play/player.h"

#include <array>

#include "common/random.h"

namespace torneio::play {

namespace {

// RandomPlayer: every reply drawn uniformly among the legal ones (action.h randomAction).
class RandomPlayer final : public Player {
  public:
    void newGame(const Knowledge&, std::uint64_t seed) override { random_.reseed(seed); }
    void observe(const Event&, const Knowledge&) override {}
    Action decide(const Request& request, const Knowledge& knowledge) override {
        return randomAction(request, knowledge.own(), knowledge.geometry(), random_);
    }

  private:
    common::Random random_;
};

const std::array<PlayerKind, 3> kKinds{{
    {"random", "a uniformly random legal reply to every request", makeRandomPlayer},
    {"heuristic",
     "remembers where opponents were seen and how strong they are, hunts them, guards its king",
     makeHeuristicPlayer},
    {"ai",
     "keeps a belief of where every hidden enemy piece may be and searches with ISMCTS (ai.h)",
     [] { return makeAiPlayer(); }},
}};

}  // namespace

std::unique_ptr<Player> makeRandomPlayer() {
    return std::make_unique<RandomPlayer>();
}

std::span<const PlayerKind> playerKinds() {
    return kKinds;
}

std::unique_ptr<Player> makePlayer(std::string_view kind) {
    for (const PlayerKind& k : kKinds)
        if (k.name == kind) return k.make();
    return nullptr;
}

}  // namespace torneio::play
