// The `ai` player's options are declared once (ai_options.h aiOptions()): the declarations the
// program lists, the settings the player reads and protocol.md's list all come from the table.
#include "torneio/play/ai/ai_options.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "torneio/play/ai/ai.h"

namespace torneio::play {
namespace {

// The `option name ...` declarations quoted in protocol.md's "### Options of the `ai` player",
// in order.
std::vector<std::string> documentedDeclarations() {
    std::ifstream in(TORNEIO_PROTOCOL_MD);
    std::vector<std::string> found;
    std::string line;
    bool inSection = false;
    while (std::getline(in, line)) {
        if (line.starts_with("#")) inSection = line == "### Options of the `ai` player";
        if (!inSection) continue;
        for (std::size_t at = line.find("`option name "); at != std::string::npos;
             at = line.find("`option name ", at)) {
            const std::size_t end = line.find('`', at + 1);
            if (end == std::string::npos) break;
            found.push_back(line.substr(at + 1, end - at - 1));
            at = end + 1;
        }
    }
    return found;
}

TEST(AiOptions, ProtocolMdListsTheTable) {
    std::vector<std::string> declared;
    for (const AiOption& o : aiOptions())
        declared.push_back(common::Options::describe(
            {o.name, o.type, o.defaultValue, o.min, o.max, {}, o.defaultValue, o.choices}));
    EXPECT_EQ(documentedDeclarations(), declared);
}

TEST(AiOptions, DeclaredAsTheTableSays) {
    common::Options options;
    addAiOptions(options);
    ASSERT_EQ(options.all().size(), aiOptions().size());
    for (std::size_t i = 0; i < aiOptions().size(); ++i) {
        const AiOption& o = aiOptions()[i];
        const common::Option& declared = options.all()[i];
        EXPECT_EQ(declared.name, o.name);
        EXPECT_EQ(declared.value, o.defaultValue) << o.name;
        EXPECT_FALSE(o.help.empty()) << o.name;
        EXPECT_NE(o.read, nullptr) << o.name;
    }
}

// The defaults of the table are the player's own defaults (AiConfig{}).
TEST(AiOptions, DefaultsAreTheConfigsDefaults) {
    common::Options options;
    addAiOptions(options);
    AiConfig read;
    read.limits.simulations = -1;
    read.particles = -1;
    read.randomMoves = -1;
    read.hunt.hideWeight = -1;
    read.hunt.planHorizon = -1;
    read.kingPrior = {-1, -1};
    readAiOptions(options, read);
    const AiConfig defaults;
    EXPECT_EQ(read.limits.simulations, defaults.limits.simulations);
    EXPECT_EQ(read.limits.moveTimeMs, defaults.limits.moveTimeMs);
    EXPECT_EQ(read.particles, defaults.particles);
    EXPECT_EQ(read.setUp, defaults.setUp);
    EXPECT_EQ(read.policy, defaults.policy);
    EXPECT_EQ(read.kingPrior.backLine, defaults.kingPrior.backLine);
    EXPECT_EQ(read.kingPrior.corners, defaults.kingPrior.corners);
    EXPECT_EQ(read.opponentModel.policyTypes, defaults.opponentModel.policyTypes);
    EXPECT_EQ(read.hunt.hideWeight, defaults.hunt.hideWeight);
    EXPECT_EQ(read.hunt.planHorizon, defaults.hunt.planHorizon);
    EXPECT_EQ(read.randomMoves, defaults.randomMoves);
}

// Level after RandomMoves: easy and normal set its percent whatever RandomMoves says.
TEST(AiOptions, LevelOverridesRandomMoves) {
    common::Options options;
    addAiOptions(options);
    ASSERT_TRUE(options.set("RandomMoves", "7"));
    AiConfig config;
    readAiOptions(options, config);
    EXPECT_EQ(config.randomMoves, 7);
    ASSERT_TRUE(options.set("Level", "easy"));
    readAiOptions(options, config);
    EXPECT_EQ(config.randomMoves, 90);
}

}  // namespace
}  // namespace torneio::play
