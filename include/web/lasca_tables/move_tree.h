// The moves of a game on the analysis board with the lines played instead of them
// (variations), as a tree. Knows move texts only: the table checks every line with the rules
// core (LascaTable), the PDN module writes and reads the tree as RAV.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lasca/core/pdn.h"

namespace web::lasca_tables {

// MoveNode: one move and what may follow it. children[0] is the main continuation, the others
// the lines played instead of it, in the order they were made. comment: the text shown (and
// written to PDN) after the move.
struct MoveNode {
    std::string move;
    std::string comment;
    std::vector<MoveNode> children;
};

// Variations nested deeper than this are refused by fromJson. A tree the table builds nests at
// most once per move, so this bounds it by the table's limit on moves (kMaxTreeMoves), not by
// PDN's reading depth: a stored tree must always be readable again.
inline constexpr int kMaxJsonNesting = 4096;

// A line: the moves from the start position to a node, which names that node.
using MoveLine = std::vector<std::string>;

// MoveTree: the root is the start position (no move). Every operation names a node by its
// line; an operation on a line that is not in the tree changes nothing and returns false.
//   size()   the number of moves (nodes other than the root)
class MoveTree {
  public:
    MoveTree() = default;
    explicit MoveTree(const MoveLine& line) { add(line); }

    const MoveNode& root() const { return root_; }
    std::size_t size() const { return size_; }
    bool contains(const MoveLine& line) const { return find(line) != nullptr; }

    // Adds the missing moves of `line` (a new line goes after the existing alternatives).
    void add(const MoveLine& line);
    // `line` followed by the main continuation of its last move, to the end.
    MoveLine continuation(const MoveLine& line) const;
    MoveLine mainLine() const { return continuation({}); }
    // Puts the line's last move before the alternative above it (one step towards the main
    // line). False when it already comes first or the line is not in the tree.
    bool promote(const MoveLine& line);
    // Makes `line` the main line: along it, each move comes first among its alternatives (the
    // others keep their order). False when the line is not in the tree.
    bool makeMain(const MoveLine& line);
    // Removes the line's last move and everything after it (the root cannot be removed).
    bool remove(const MoveLine& line);
    // Every line that ends a branch (a move without children), in the order of the tree.
    std::vector<MoveLine> leaves() const;
    // Sets the comment of the line's last move.
    bool setComment(const MoveLine& line, const std::string& comment);
    // True when the tree is the one line `line` and holds no comment (nothing to keep beside
    // the moves).
    bool isPlainLine(const MoveLine& line) const;

    // JSON, the shape of PDN's lines: {"moves":[...],"comments":[...],"variations":
    // [{"at":i,"line":{...}}]} for the main line, each variation the same shape.
    nlohmann::json toJson() const;
    // The main line's comments and variations into a PDN game (its moves are the main line).
    void toPdn(lasca::PdnGame& game) const;
    // The tree of a PDN game (main line, comments, variations) or of toJson's shape; what the
    // moves mean is not checked here. fromJson fails on anything not of that shape.
    static MoveTree fromPdn(const lasca::PdnGame& game);
    static bool fromJson(const nlohmann::json& json, MoveTree& tree);

  private:
    // Place: the node a non-empty line ends at, as its parent and its position among them.
    struct Place {
        MoveNode* parent;
        std::vector<MoveNode>::iterator child;
    };
    std::optional<Place> placeOf(const MoveLine& line);
    MoveNode* find(const MoveLine& line);
    const MoveNode* find(const MoveLine& line) const;

    MoveNode root_;
    std::size_t size_ = 0;
};

}  // namespace web::lasca_tables
