// The games of `lasca-tune spsa` (docs/tuning.md "SPSA"): each iteration's two engines (spsa.h)
// play a game pair with the match runner's referee (include/lasca/match/), the same opening
// with colours swapped, and the pair's result moves theta. No printing: the run reports each
// iteration through a callback.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lasca/match/engine.h"
#include "lasca/match/referee.h"
#include "lasca/tune/spsa.h"

namespace lasca::tune {

// SpsaRunConfig: how the games are played.
//   engine       the engine program (path, arguments, the options it always gets, e.g. Hash);
//                each iteration adds the tuned options after those, theta+ to one copy and
//                theta- to the other
//   game         the limit of every move (Nodes or MoveTime) and the draw rules
//   timeouts     the handshake and isready watchdogs
//   openings     start LFENs (empty: the start position); iteration k plays the opening at
//                position (k - 1) % size of a shuffle drawn from seed
//   concurrency  game pairs played at once, each by its own two engine processes
//   seed         the openings' shuffle (the run's Delta draws are Spsa's own)
// With a node limit and one pair at a time the whole run is repeatable; with several pairs at
// once it still is: each batch of `concurrency` iterations is proposed from the same theta and
// their results are taken in iteration order, whatever order the games end in.
struct SpsaRunConfig {
    match::EngineSpec engine;
    match::GameSettings game;
    match::Timeouts timeouts;
    std::vector<std::string> openings;
    int concurrency = 1;
    std::uint64_t seed = 1;
};

// SpsaIteration: one played iteration.
//   proposal  the two engines (Spsa::propose)
//   opening   the LFEN both games started from
//   games     the pair: games[0] with theta+ as White, games[1] with theta- as White
//   result    points of theta+ minus points of theta- over the pair (-2..2)
struct SpsaIteration {
    SpsaProposal proposal;
    std::string opening;
    std::vector<match::GameRecord> games;
    double result = 0;
};

// The order in which a run plays its openings: a shuffle of 0..count-1 drawn from the seed.
std::vector<std::size_t> openingOrder(std::size_t count, std::uint64_t seed);

// The engine of one side of an iteration: `base` with the parameters set to `values`
// (appended to its options) and `name` as its name.
match::EngineSpec tunedEngine(const match::EngineSpec& base, const std::vector<SpsaParam>& params,
                              const std::vector<int>& values, const std::string& name);

// Plays one iteration's game pair from `lfen`. An engine that fails loses its game (the
// referee's rules), so every pair has a result.
SpsaIteration playIteration(const SpsaRunConfig& config, const std::vector<SpsaParam>& params,
                            const SpsaProposal& proposal, const std::string& lfen);

// Called after each iteration's result was taken, with the tuner as it is then; return false
// to stop (iterations already being played are finished first).
using SpsaCallback = std::function<bool(const SpsaIteration&, const Spsa&)>;

// Plays iterations until spsa.finished() or the callback stops it.
void runSpsa(Spsa& spsa, const SpsaRunConfig& config, const SpsaCallback& onIteration);

// Asks the engine for its options (the `uci`/`ugi` listing) and checks that each parameter is
// one of its spin options, with min..max inside the option's range; so that a misspelt name
// or a range the engine would refuse is an error before any game. Errors also when the engine
// does not start or does not finish its listing in time.
common::Result<bool> checkEngineOptions(const SpsaRunConfig& config,
                                        const std::vector<SpsaParam>& params);

}  // namespace lasca::tune
