#include "lasca/match/openings.h"

#include <span>

#include "common/random.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>

#include "lasca/match/reference_players.h"
#include "lasca/core/movegen.h"
#include "lasca/core/position.h"

namespace lasca::match {

namespace {

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return {};
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

// Depth-first walk to `plies`, collecting each distinct final position by key.
void collect(const Position& pos, int plies, std::map<Key, std::string>& found) {
    if (plies == 0) {
        if (hasLegalMove(pos)) found.emplace(pos.key(), pos.toLfen());
        return;
    }
    MoveList legal;
    generateMoves(pos, legal);
    for (const Move& m : legal) {
        Position next = pos;
        Undo undo{};
        next.make(m, undo);
        collect(next, plies - 1, found);
    }
}

bool balanced(const std::string& lfen, const OpeningsRequest& request) {
    if (request.filterDepth <= 0) return true;
    const Position pos = Position::fromLfen(lfen).value();
    std::uint64_t nodes = 0;
    const Score s = referenceSearch(pos, request.filterDepth, 0, -kInfinite, kInfinite, nodes);
    return std::abs(s) <= request.maxScore;
}

}  // namespace

common::Result<std::vector<std::string>> readOpenings(std::istream& in) {
    std::vector<std::string> openings;
    int number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        const std::string text = trim(line.substr(0, line.find('#')));
        if (text.empty()) continue;
        auto pos = Position::fromLfen(text);
        if (!pos) return common::makeError("line " + std::to_string(number) + ": " + pos.error());
        openings.push_back(text);
    }
    return openings;
}

common::Result<std::vector<std::string>> loadOpenings(const std::string& path) {
    std::ifstream in(path);
    if (!in) return common::makeError("cannot read openings file '" + path + "'");
    auto openings = readOpenings(in);
    if (!openings) return common::makeError(path + ": " + openings.error());
    if (openings.value().empty()) return common::makeError(path + ": no openings");
    return openings;
}

std::vector<std::string> generateOpenings(const OpeningsRequest& request) {
    std::map<Key, std::string> found;
    collect(Position::startPosition(), std::max(request.plies, 0), found);
    std::vector<std::string> all;
    for (auto& [key, lfen] : found)
        if (balanced(lfen, request)) all.push_back(lfen);
    std::sort(all.begin(), all.end());
    if (request.count > 0 && request.count < all.size()) {
        common::Random rng(request.seed);
        rng.shuffle(std::span<std::string>(all));
        all.resize(request.count);
        std::sort(all.begin(), all.end());
    }
    return all;
}

}  // namespace lasca::match
