// A kept Lasca game as PDN: the page's export and the games pages.
#include <algorithm>

#include "common/text.h"
#include "lasca/core/pdn.h"
#include "lasca_table_internal.h"
#include "web/lasca_tables/lasca_table.h"

namespace web::lasca_tables {

using store::StoredLascaGame;

namespace {
// The PDN Termination of a rule as the store keeps it ("R9", "T1", "T2").
std::string terminationOfRule(const std::string& rule) {
    if (rule == "T1") return lasca::terminationName(lasca::Termination::Repetition);
    if (rule == "T2") return lasca::terminationName(lasca::Termination::NoProgress);
    return lasca::terminationName(lasca::Termination::NoLegalMove);
}

// "YYYY.MM.DD" (UTC) of milliseconds since the epoch; PDN's unknown date for 0.
std::string pdnDate(std::int64_t millis) {
    return millis <= 0 ? "????.??.??" : common::utcTime(millis, "%Y.%m.%d");
}
}  // namespace

lasca::PdnGame storedGamePdnGame(const StoredLascaGame& game, const std::string& round) {
    lasca::PdnGame pdn;
    const auto colour = engineColourOf(game.engine);
    const bool engineWhite = colour && *colour == std::optional(lasca::Color::White);
    const bool engineBlack = colour && *colour == std::optional(lasca::Color::Black);
    const auto level =
        static_cast<std::size_t>(std::clamp(game.level, 0, static_cast<int>(kLevels.size()) - 1));
    const auto engineName = std::string("lasca (") + kLevels[level].name + ")";
    pdn.tags = {{"Event", "lasca-web"},
                {"Site", "?"},
                {"Date", pdnDate(game.created)},
                {"Round", round},
                {"White", engineWhite ? engineName : "you"},
                {"Black", engineBlack ? engineName : "you"},
                {"Result", game.result},
                {"GameType", "Lasca"},
                {"FEN", game.startLfen}};
    if (game.result != "*") pdn.tags.emplace_back("Termination", terminationOfRule(game.rule));
    pdn.tags.emplace_back("PlyCount", std::to_string(game.moves.size()));
    pdn.moves = game.moves;
    pdn.result = game.result;
    // The variations, around the game's line as the main line (a stored tree is one the table
    // checked; an unreadable one is left out rather than failing the export).
    if (game.tree.empty()) return pdn;
    const Json json = Json::parse(game.tree, nullptr, false);
    const auto start = lasca::Position::fromLfen(game.startLfen);
    if (json.is_discarded() || !start) return pdn;
    if (auto tree = MoveTree::fromJson(start.value(), json);
        tree && tree.value().makeMain(game.moves))
        tree.value().toPdn(pdn);
    return pdn;
}

std::string storedGamePdn(const StoredLascaGame& game, const std::string& round) {
    return lasca::writePdn(storedGamePdnGame(game, round));
}

}  // namespace web::lasca_tables
