// The moves of a game on the analysis board with the lines played instead of them
// (variations), as a tree whose every node holds the position its move reached and the rules'
// verdict on it. Each move is made once, when it enters the tree: showing, analysing,
// annotating and taking back a line are look-ups. The PDN module writes and reads the tree as
// RAV.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/result.h"
#include "lasca/core/game.h"
#include "lasca/core/move.h"
#include "lasca/core/pdn.h"
#include "lasca/core/position.h"

namespace web::lasca_tables {

// MoveNode: one move and what may follow it. children[0] is the main continuation, the others
// the lines played instead of it, in the order they were made.
//   move       the move as formatMove writes it ("" at the root)
//   comment    the text shown (and written to PDN) after the move
//   played     the move (the null move at the root)
//   position   the position after the move (the start position at the root)
//   status     the rules' verdict on `position` (R9, and T1 and T2 counted along the line from
//              the start to it)
struct MoveNode {
    std::string move;
    std::string comment;
    lasca::Move played{};
    lasca::Position position;
    lasca::GameStatus status;
    std::vector<MoveNode> children;
};

// Variations nested deeper than this are refused by fromJson. A tree the table builds nests at
// most once per move, so this bounds it by the table's limit on moves (kMaxTreeMoves), not by
// PDN's reading depth: a stored tree must always be readable again.
inline constexpr int kMaxJsonNesting = 4096;

// A line: the moves from the start position to a node, which names that node.
using MoveLine = std::vector<std::string>;
// The nodes of a line from the root: path[0] is the root, path[i] the node of the line's move i.
using MovePath = std::vector<const MoveNode*>;

// MoveTree: the root is the start position (no move). Every operation names a node by its
// line; an operation on a line that is not in the tree changes nothing and returns false.
//   size()            the number of moves (nodes other than the root)
//   positionsMade()   the moves made since the tree was built (one per node ever added): what
//                     the table's work costs in the rules core, for its tests
// A MovePath (and every MoveNode reference) holds until the tree next changes.
class MoveTree {
  public:
    explicit MoveTree(const lasca::Position& start = lasca::Position::startPosition());

    const MoveNode& root() const { return root_; }
    const lasca::Position& start() const { return root_.position; }
    std::size_t size() const { return size_; }
    std::uint64_t positionsMade() const { return made_; }
    bool contains(const MoveLine& line) const { return find(line) != nullptr; }
    // The nodes along `line`, the root first; empty when the line is not in the tree.
    MovePath path(const MoveLine& line) const;

    // Adds the missing moves of `line` (a new line goes after the existing alternatives): each
    // move parsed in the position before it (any notation the rules core reads; the tree keeps
    // formatMove's) and made once. An error, and nothing added, when a move is not legal there
    // or comes after the end of the game; else the line as the tree writes it.
    common::Result<MoveLine> add(const MoveLine& line);
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
    // The tree of a PDN game (main line, comments, variations) from `start`; an error names the
    // first move that is not legal where it is played.
    static common::Result<MoveTree> fromPdn(const lasca::Position& start,
                                            const lasca::PdnGame& game);
    // The tree of toJson's shape from `start`: an error for anything not of that shape and for
    // an illegal move.
    static common::Result<MoveTree> fromJson(const lasca::Position& start,
                                             const nlohmann::json& json);

  private:
    // Place: the node a non-empty line ends at, as its parent and its position among them.
    struct Place {
        MoveNode* parent;
        std::vector<MoveNode>::iterator child;
    };
    std::optional<Place> placeOf(const MoveLine& line);
    MoveNode* find(const MoveLine& line);
    const MoveNode* find(const MoveLine& line) const;
    // Adds a PDN line below `parent` (reached by the positions' keys `keys`, the root's first),
    // each variation below the node its move replaces. An error names the bad move.
    std::optional<std::string> addLine(MoveNode& parent, std::vector<lasca::Key>& keys,
                                       const lasca::PdnLine& line);
    // The child of `node` for `text` (any notation), made and added if it is not there; an
    // error names the move ("move 'x': ..." or "move 'x' comes after the end of the game").
    common::Result<MoveNode*> child(MoveNode& node, std::vector<lasca::Key>& keys,
                                    const std::string& text);

    MoveNode root_;
    std::size_t size_ = 0;
    std::uint64_t made_ = 0;
};

}  // namespace web::lasca_tables
