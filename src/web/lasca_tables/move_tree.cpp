#include "web/lasca_tables/move_tree.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "common/text.h"
#include "lasca/core/notation.h"

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

// How often `pos`, reached after the positions of `keys` (the start's first), has occurred:
// looking back only to the last capture or soldier move, as lasca::Game counts (T1).
int occurrences(const lasca::Position& pos, const std::vector<lasca::Key>& keys) {
    const int last = static_cast<int>(keys.size());  // pos's own index
    const int reach = std::min(pos.quietPlies(), last);
    int count = 1;
    for (int back = 2; back <= reach; back += 2)
        if (keys[static_cast<std::size_t>(last - back)] == pos.key()) ++count;
    return count;
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

MoveTree::MoveTree(const lasca::Position& start) {
    root_.position = start;
    root_.status = lasca::statusOf(start, 1, lasca::DrawRules{});
}

MovePath MoveTree::path(const MoveLine& line) const {
    MovePath nodes{&root_};
    nodes.reserve(line.size() + 1);
    for (const std::string& move : line) {
        const MoveNode* next = childWithMove(const_cast<MoveNode&>(*nodes.back()), move);
        if (!next) return {};
        nodes.push_back(next);
    }
    return nodes;
}

common::Result<MoveNode*> MoveTree::child(MoveNode& node, std::vector<lasca::Key>& keys,
                                          const std::string& text) {
    if (MoveNode* found = childWithMove(node, text)) return found;
    if (node.status.over())
        return common::makeError("move '" + common::printable(text) +
                                 "' comes after the end of the game");
    const auto move = lasca::parseMove(node.position, text);
    if (!move) return common::makeError("move '" + common::printable(text) + "': " + move.error());
    const std::string formatted = lasca::formatMove(move.value());
    if (MoveNode* found = childWithMove(node, formatted)) return found;
    MoveNode next;
    next.move = formatted;
    next.played = move.value();
    next.position = node.position;
    lasca::Undo undo{};
    next.position.make(move.value(), undo);
    ++made_;
    next.status =
        lasca::statusOf(next.position, occurrences(next.position, keys), lasca::DrawRules{});
    node.children.push_back(std::move(next));
    ++size_;
    return &node.children.back();
}

std::optional<std::string> MoveTree::addLine(MoveNode& parent, std::vector<lasca::Key>& keys,
                                             const PdnLine& line) {
    // `parent` stays where it is while lines are added below it; the nodes of the line may move
    // (a vector of children grows), so they are found again by their moves.
    const std::size_t depth = keys.size();
    MoveLine moves;
    MoveNode* node = &parent;
    for (std::size_t i = 0; i < line.moves.size(); ++i) {
        auto next = child(*node, keys, line.moves[i]);
        if (!next) return next.error();
        node = next.value();
        if (i < line.comments.size() && !line.comments[i].empty()) node->comment = line.comments[i];
        keys.push_back(node->position.key());
        moves.push_back(node->move);
    }
    const std::vector<lasca::Key> lineKeys(keys.begin() + static_cast<std::ptrdiff_t>(depth),
                                           keys.end());
    for (const PdnVariation& v : line.variations) {
        if (v.at >= moves.size()) continue;
        MoveNode* below = &parent;
        for (std::size_t i = 0; i < v.at; ++i) below = childWithMove(*below, moves[i]);
        keys.resize(depth);
        keys.insert(keys.end(), lineKeys.begin(),
                    lineKeys.begin() + static_cast<std::ptrdiff_t>(v.at));
        if (auto e = addLine(*below, keys, v.line)) return e;
    }
    keys.resize(depth);
    return std::nullopt;
}

common::Result<MoveLine> MoveTree::add(const MoveLine& line) {
    std::vector<lasca::Key> keys{root_.position.key()};
    MoveLine added;
    std::optional<std::size_t> firstNew;  // the index of the first move not in the tree before
    MoveNode* node = &root_;
    for (const std::string& text : line) {
        const std::size_t before = size_;
        auto next = child(*node, keys, text);
        if (!next) {
            if (firstNew)  // nothing added: the new moves go again
                remove(MoveLine(added.begin(),
                                added.begin() + static_cast<std::ptrdiff_t>(*firstNew) + 1));
            return common::makeError(next.error());
        }
        if (size_ != before && !firstNew) firstNew = added.size();
        node = next.value();
        keys.push_back(node->position.key());
        added.push_back(node->move);
    }
    return added;
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

common::Result<MoveTree> MoveTree::fromPdn(const lasca::Position& start,
                                           const lasca::PdnGame& game) {
    MoveTree tree(start);
    std::vector<lasca::Key> keys{start.key()};
    if (auto e =
            tree.addLine(tree.root_, keys, PdnLine{game.moves, game.comments, game.variations}))
        return common::makeError(*e);
    return tree;
}

common::Result<MoveTree> MoveTree::fromJson(const lasca::Position& start,
                                            const nlohmann::json& json) {
    PdnLine line;
    if (!lineOfJson(json, line, 0)) return common::makeError("not a tree of lines");
    MoveTree tree(start);
    std::vector<lasca::Key> keys{start.key()};
    if (auto e = tree.addLine(tree.root_, keys, line)) return common::makeError(*e);
    return tree;
}

}  // namespace web::lasca_tables
