#include "web/lasca_tables/move_tree.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace web::lasca_tables {
namespace {

using lasca::PdnLine;
using lasca::PdnVariation;
using Json = nlohmann::json;

MoveNode* childWithMove(MoveNode& node, const std::string& move) {
    const auto it = std::find_if(node.children.begin(), node.children.end(),
                                 [&](const MoveNode& c) { return c.move == move; });
    return it == node.children.end() ? nullptr : &*it;
}

std::size_t countMoves(const MoveNode& node) {
    std::size_t n = 0;
    for (const MoveNode& child : node.children) n += 1 + countMoves(child);
    return n;
}

// The line that starts with `first` (a child of some node) and follows main continuations:
// its moves, comments, and the alternatives met on the way as variations.
PdnLine lineFrom(const MoveNode& first) {
    PdnLine line;
    const MoveNode* node = &first;
    while (true) {
        line.moves.push_back(node->move);
        if (!node->comment.empty()) {
            line.comments.resize(line.moves.size());
            line.comments.back() = node->comment;
        }
        if (node->children.empty()) break;
        const std::size_t at = line.moves.size();  // the index of the next move
        for (std::size_t k = 1; k < node->children.size(); ++k)
            line.variations.push_back(PdnVariation{at, lineFrom(node->children[k])});
        node = &node->children[0];
    }
    return line;
}

// Adds a PDN line below `parent`: its moves down the tree, each variation at the node its
// move replaces (below the parent of the move it replaces).
void addLine(MoveNode& parent, const std::vector<std::string>& moves,
             const std::vector<std::string>& comments, const std::vector<PdnVariation>& variations,
             std::size_t& size) {
    MoveNode* node = &parent;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        MoveNode* next = childWithMove(*node, moves[i]);
        if (!next) {
            node->children.push_back(MoveNode{moves[i], "", {}});
            next = &node->children.back();
            ++size;
        }
        if (i < comments.size() && !comments[i].empty()) next->comment = comments[i];
        node = next;
    }
    // Each variation below the node its move replaces, found by walking again (adding one may
    // move the children of a node met before).
    for (const PdnVariation& v : variations) {
        if (v.at >= moves.size()) continue;
        MoveNode* below = &parent;
        for (std::size_t i = 0; i < v.at; ++i) below = childWithMove(*below, moves[i]);
        addLine(*below, v.line.moves, v.line.comments, v.line.variations, size);
    }
}

Json lineJson(const PdnLine& line) {
    Json variations = Json::array();
    for (const PdnVariation& v : line.variations)
        variations.push_back({{"at", v.at}, {"line", lineJson(v.line)}});
    Json comments = line.comments;
    return {{"moves", line.moves}, {"comments", comments}, {"variations", variations}};
}

bool lineOfJson(const Json& json, PdnLine& line, int depth) {
    if (depth > kMaxJsonNesting || !json.is_object() || !json.contains("moves") ||
        !json["moves"].is_array())
        return false;
    for (const Json& m : json["moves"]) {
        if (!m.is_string()) return false;
        line.moves.push_back(m.get<std::string>());
    }
    if (json.contains("comments")) {
        if (!json["comments"].is_array()) return false;
        for (const Json& c : json["comments"]) {
            if (!c.is_string()) return false;
            line.comments.push_back(c.get<std::string>());
        }
    }
    if (json.contains("variations")) {
        if (!json["variations"].is_array()) return false;
        for (const Json& v : json["variations"]) {
            if (!v.is_object() || !v.contains("at") || !v["at"].is_number_unsigned() ||
                !v.contains("line"))
                return false;
            PdnVariation variation;
            variation.at = v["at"].get<std::size_t>();
            if (variation.at >= line.moves.size() ||
                !lineOfJson(v["line"], variation.line, depth + 1))
                return false;
            line.variations.push_back(std::move(variation));
        }
    }
    return true;
}

void collectLeaves(const MoveNode& node, MoveLine& line, std::vector<MoveLine>& out) {
    if (node.children.empty()) {
        out.push_back(line);
        return;
    }
    for (const MoveNode& child : node.children) {
        line.push_back(child.move);
        collectLeaves(child, line, out);
        line.pop_back();
    }
}

}  // namespace

MoveNode* MoveTree::find(const MoveLine& line) {
    MoveNode* node = &root_;
    for (const std::string& move : line)
        if (!(node = childWithMove(*node, move))) return nullptr;
    return node;
}

const MoveNode* MoveTree::find(const MoveLine& line) const {
    return const_cast<MoveTree*>(this)->find(line);
}

void MoveTree::add(const MoveLine& line) {
    addLine(root_, line, {}, {}, size_);
}

MoveLine MoveTree::continuation(const MoveLine& line) const {
    MoveLine out = line;
    const MoveNode* node = find(line);
    if (!node) return out;
    while (!node->children.empty()) {
        node = &node->children[0];
        out.push_back(node->move);
    }
    return out;
}

std::optional<MoveTree::Place> MoveTree::placeOf(const MoveLine& line) {
    if (line.empty()) return std::nullopt;
    MoveNode* parent = find(MoveLine(line.begin(), line.end() - 1));
    if (!parent) return std::nullopt;
    const auto it = std::find_if(parent->children.begin(), parent->children.end(),
                                 [&](const MoveNode& c) { return c.move == line.back(); });
    if (it == parent->children.end()) return std::nullopt;
    return Place{parent, it};
}

bool MoveTree::promote(const MoveLine& line) {
    const auto place = placeOf(line);
    if (!place || place->child == place->parent->children.begin()) return false;
    std::iter_swap(place->child - 1, place->child);
    return true;
}

bool MoveTree::makeMain(const MoveLine& line) {
    if (!contains(line)) return false;
    MoveNode* node = &root_;
    for (const std::string& move : line) {
        const auto it = std::find_if(node->children.begin(), node->children.end(),
                                     [&](const MoveNode& c) { return c.move == move; });
        std::rotate(node->children.begin(), it, it + 1);
        node = &node->children.front();
    }
    return true;
}

bool MoveTree::remove(const MoveLine& line) {
    const auto place = placeOf(line);
    if (!place) return false;
    size_ -= 1 + countMoves(*place->child);
    place->parent->children.erase(place->child);
    return true;
}

std::vector<MoveLine> MoveTree::leaves() const {
    std::vector<MoveLine> out;
    MoveLine line;
    collectLeaves(root_, line, out);
    return out;
}

bool MoveTree::isPlainLine(const MoveLine& line) const {
    const MoveNode* node = &root_;
    for (const std::string& move : line) {
        if (node->children.size() != 1 || node->children[0].move != move ||
            !node->children[0].comment.empty())
            return false;
        node = &node->children[0];
    }
    return node->children.empty();
}

bool MoveTree::setComment(const MoveLine& line, const std::string& comment) {
    MoveNode* node = line.empty() ? nullptr : find(line);
    if (!node) return false;
    node->comment = comment;
    return true;
}

nlohmann::json MoveTree::toJson() const {
    lasca::PdnGame game;
    game.moves = mainLine();
    toPdn(game);
    return lineJson(PdnLine{game.moves, game.comments, game.variations});
}

void MoveTree::toPdn(lasca::PdnGame& game) const {
    game.comments.clear();
    game.variations.clear();
    if (root_.children.empty()) return;
    PdnLine main = lineFrom(root_.children[0]);
    for (std::size_t k = 1; k < root_.children.size(); ++k)
        main.variations.insert(main.variations.begin() + static_cast<std::ptrdiff_t>(k - 1),
                               PdnVariation{0, lineFrom(root_.children[k])});
    game.comments = std::move(main.comments);
    game.variations = std::move(main.variations);
}

MoveTree MoveTree::fromPdn(const lasca::PdnGame& game) {
    MoveTree tree;
    addLine(tree.root_, game.moves, game.comments, game.variations, tree.size_);
    return tree;
}

bool MoveTree::fromJson(const nlohmann::json& json, MoveTree& tree) {
    PdnLine line;
    if (!lineOfJson(json, line, 0)) return false;
    MoveTree result;
    addLine(result.root_, line.moves, line.comments, line.variations, result.size_);
    tree = std::move(result);
    return true;
}

}  // namespace web::lasca_tables
