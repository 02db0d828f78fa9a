// Players: the decision makers behind a seat, without any I/O. A player sees a game only
// through its seat's Knowledge (own pieces, public facts: knowledge.h) and the events of that
// seat, and answers requests with actions. The kinds are pluggable: each is one entry of
// playerKinds(), listed by the `Player` option of the `torneio` program (protocol.md): `random`,
// `heuristic` (heuristic.h) and `ai` (ai/ai.h), the default; another kind is one more entry.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string_view>

#include "common/options.h"
#include "torneio/rules/action.h"
#include "torneio/rules/event.h"
#include "torneio/play/knowledge.h"

namespace torneio::play {

// Player: the interface every kind implements. The session (player_session.h) calls, per game:
// newGame once, then observe for every event line the seat receives (after updating the
// knowledge with it) and decide for every request. decide is only called when the request has
// at least one legal reply for knowledge.own(), and must return one of them.
class Player {
  public:
    virtual ~Player() = default;
    // Reads the settings of this kind from the program's options (the `ai` kind's Simulations,
    // MoveTime, ...); called after the player is made, before newGame. Most kinds have none.
    virtual void configure(const common::Options& options) { (void)options; }
    // `seed` mixes the Seed option with the game's seed for this seat: every random choice of
    // the game draws from it, so the same lines give the same replies.
    virtual void newGame(const Knowledge& knowledge, std::uint64_t seed) = 0;
    virtual void observe(const Event& event, const Knowledge& knowledge) = 0;
    virtual Action decide(const Request& request, const Knowledge& knowledge) = 0;
};

// PlayerKind: one kind of player, as the `Player` option names it.
//   name         the option value ("random", "heuristic")
//   description  one line for documentation and `help`
//   make         a fresh player of this kind
struct PlayerKind {
    std::string_view name;
    std::string_view description;
    std::function<std::unique_ptr<Player>()> make;
};

// Every kind, in the order the option lists them. The default kind is kDefaultPlayerKind.
std::span<const PlayerKind> playerKinds();
inline constexpr std::string_view kDefaultPlayerKind = "ai";

// A player of the named kind (exact name, as playerKinds lists it), nullptr if there is none.
std::unique_ptr<Player> makePlayer(std::string_view kind);

// The random player: a uniformly random legal reply to every request (randomAction).
std::unique_ptr<Player> makeRandomPlayer();
// The heuristic player of heuristic.h.
std::unique_ptr<Player> makeHeuristicPlayer();
// The ISMCTS player of ai.h with its default settings.
std::unique_ptr<Player> makeAiPlayer();

}  // namespace torneio::play
