// Openings: the start positions of a match, as LFEN lines, and the generator of distinct
// positions a few plies from the start.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "common/result.h"

namespace lasca::match {

// Reads an openings file: one LFEN per line; blank lines and lines starting with `#` are
// skipped, as is anything after a `#` (trailing comment). Every LFEN is checked; the first
// bad line is an error naming its line number.
common::Result<std::vector<std::string>> readOpenings(std::istream& in);

// Reads the openings file at path (readOpenings); an error when it cannot be read, has a bad
// line (the error names the file) or holds no opening.
common::Result<std::vector<std::string>> loadOpenings(const std::string& path);

// OpeningsRequest: what `lasca-match openings` generates.
//   plies   every position reached after exactly this many plies from the start
//   count   how many to keep (0 = all); a sample drawn with seed when fewer than all
//   filterDepth/maxScore  when filterDepth > 0, keep only positions whose reference alpha-beta
//           score at that depth is within +-maxScore centi-soldiers (roughly balanced)
// Positions are distinct by board and side to move; positions where the side to move has no
// legal move (the game is already over) are never produced.
struct OpeningsRequest {
    int plies = 4;
    std::size_t count = 0;
    std::uint64_t seed = 1;
    int filterDepth = 0;
    int maxScore = 100;
};

// The LFENs, sorted (the sample, if any, is sorted too): the output is deterministic.
std::vector<std::string> generateOpenings(const OpeningsRequest& request);

}  // namespace lasca::match
