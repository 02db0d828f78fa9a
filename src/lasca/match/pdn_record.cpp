#include "lasca/match/pdn_record.h"

#include <sstream>

namespace lasca::match {

PdnGame toPdn(const GameRecord& record, const PdnHeader& header) {
    PdnGame game;
    game.result = pdnResult(record.outcome);
    game.moves = record.moves;
    game.tags = {
        {"Event", header.event},
        {"Site", header.site},
        {"Date", header.date},
        {"Round", std::to_string(record.pair + 1) + "." + std::to_string(record.index % 2 + 1)},
        {"White", record.white},
        {"Black", record.black},
        {"Result", game.result},
        {"GameType", "Lasca"},
        {"FEN", record.startLfen},
        {"Termination", endReasonName(record.reason)}};
    if (!record.detail.empty()) game.tags.emplace_back("TerminationDetails", record.detail);
    game.tags.emplace_back("PlyCount", std::to_string(record.moves.size()));
    return game;
}

common::Result<GameRecord> toRecord(const PdnGame& game) {
    GameRecord record;
    const auto round = game.tag("Round");
    int pair = 0, inPair = 0;
    char dot = 0;
    std::istringstream in(round ? *round : "");
    if (!(in >> pair >> dot >> inPair) || dot != '.' || pair < 1 || inPair < 1 || inPair > 2)
        return common::makeError("Round tag '" + (round ? *round : "") + "' is not <pair>.<1|2>");
    record.pair = pair - 1;
    record.index = 2 * record.pair + inPair - 1;
    record.whiteIsFirst = inPair == 1;
    record.white = game.tag("White").value_or("?");
    record.black = game.tag("Black").value_or("?");
    record.startLfen = game.tag("FEN").value_or(std::string(kStartLfen));
    record.moves = game.moves;
    record.outcome = outcomeOf(game.result);
    if (record.outcome == Outcome::Ongoing) return common::makeError("unfinished game (result *)");
    const std::string termination = game.tag("Termination").value_or("");
    for (int r = 0; r <= static_cast<int>(EndReason::Disconnected); ++r)
        if (termination == endReasonName(static_cast<EndReason>(r)))
            record.reason = static_cast<EndReason>(r);
    record.detail = game.tag("TerminationDetails").value_or("");
    return record;
}

}  // namespace lasca::match
