// The `ai` player's options of the `torneio` program (protocol.md, "The Torneio player
// protocol", "Options of the `ai` player"), declared once in one table (aiOptions(): name,
// type, default, range or choices, help, and what the option sets in AiConfig): the program's
// `option name ...` listing and `setoption` (addAiOptions), AiPlayer::configure
// (readAiOptions) and protocol.md's list (checked against the table by
// tests/torneio/play/ai/ai_options_test.cpp) all come from it. The constants below are the
// defaults and ranges the table and the player's settings (ai.h) share.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/options.h"

namespace torneio::play {

struct AiConfig;  // ai.h

inline constexpr int kDefaultSimulations = 300;
inline constexpr int kMaxSimulations = 10'000'000;
inline constexpr int kMaxMoveTimeMs = 3'600'000;
inline constexpr int kMinParticles = 8;
// The opponent model's set-up prior (docs/torneio-strength.md, seventh pass): percent.
inline constexpr int kDefaultKingPriorBackPercent = 40;
inline constexpr int kDefaultKingPriorCornersPercent = 30;
// The hunt's HuntWeights::hideWeight (docs/torneio-strength.md, eighth pass) and its option's
// range.
inline constexpr int kDefaultHideWeight = 3;
inline constexpr int kMaxHideWeight = 100;
// The hunt's planned sweep (HuntWeights::planHorizon, option HuntPlan): turns looked ahead.
inline constexpr int kDefaultHuntPlan = 0;
inline constexpr int kMaxHuntPlan = 64;
inline constexpr int kMaxParticles = 100'000;

// AiLevel: a strength offered to people (the web table's `ai` seats, `scripts/run.sh
// torneio-play --level`): the full player with `randomMoves` percent of its decisions after the
// set-up taken at random. `about` says what it costs and how strong it measured
// (docs/torneio-strength.md, eleventh pass: score against the heuristic player through
// torneio-referee, 2 seats, 1000 games).
struct AiLevel {
    const char* name;
    int randomMoves;
    const char* about;
};
inline constexpr AiLevel kAiLevels[] = {
    {"easy", 90,
     "9 decisions in 10 at random: about the heuristic player (0.47 against it); instant"},
    {"normal", 50, "half its decisions at random (0.85 against the heuristic player); instant"},
    {"strong", 0,
     "the full ai, belief hunt with an opponent model and a hiding king (0.98 against the "
     "heuristic player); under 1 ms a decision"},
};

// AiOption: one option of the `ai` player.
//   name, type, defaultValue, min, max, choices   its declaration (common::Option's; min and
//                max for a spin, choices for a combo)
//   help         what it does, in a line (protocol.md says more)
//   read         sets the option's current value into an AiConfig
struct AiOption {
    std::string name;
    common::OptionType type = common::OptionType::Spin;
    std::string defaultValue;
    std::int64_t min = 0;
    std::int64_t max = 0;
    std::vector<std::string> choices;
    std::string_view help;
    void (*read)(const common::Option& option, AiConfig& config) = nullptr;
};

// Every option of the `ai` player, in the order the program lists them. Read in this order:
// Level after RandomMoves, which it overrides.
const std::vector<AiOption>& aiOptions();
// Declares every option of aiOptions() (with no on-change action: newgame reads them).
void addAiOptions(common::Options& options);
// Sets `config` from the options of aiOptions() that `options` declares; others are left as
// they are.
void readAiOptions(const common::Options& options, AiConfig& config);

}  // namespace torneio::play
