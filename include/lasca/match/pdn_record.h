// The match runner's game records as PDN games and back (the PDN itself: lasca/core/pdn.h).
// Tags written, in order: Event, Site, Date, Round ("<pair>.<game>", both 1-based: game 1 of a
// pair has the first engine as White), White, Black, Result, GameType "Lasca", FEN (the start
// LFEN, always written), Termination (endReasonName), TerminationDetails (only when there is a
// detail), PlyCount.
#pragma once

#include <string>

#include "common/result.h"
#include "lasca/core/pdn.h"
#include "lasca/match/referee.h"

namespace lasca::match {

// PdnHeader: the tags a record does not carry itself.
struct PdnHeader {
    std::string event = "lasca-match";
    std::string site = "?";
    std::string date = "????.??.??";
};

PdnGame toPdn(const GameRecord& record, const PdnHeader& header);

// The GameRecord of a game written by toPdn: index and colours from the Round tag
// "<pair>.<game>" (game 1 has the match's first engine as White, game 2 as Black).
common::Result<GameRecord> toRecord(const PdnGame& game);

}  // namespace lasca::match
