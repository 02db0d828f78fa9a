// One Lasca table of the web page: a game against the engine (or between two people at one
// board), its analysis, LFEN and PDN, driven by JSON messages. Pure: JSON in, JSON out, the
// engine behind an EngineChannel; no networking, no threads (protocol.md, "The web page's
// WebSocket messages", lists every message).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "lasca/core/game.h"
#include "lasca/core/pdn.h"
#include "lasca/engine/replies.h"
#include "web/lasca_tables/engine_link.h"
#include "web/lasca_tables/move_tree.h"
#include "web/messages/messages.h"
#include "web/store/store.h"

namespace web::lasca_tables {

using Json = nlohmann::json;

// Level: a named strength of the engine as a node budget per move (`go nodes N`): the same
// level plays the same moves on any machine. randomPercent > 0 weakens a level below what a
// node budget can (1 node plays nearly as 20: the search always completes depth 1): that
// share of the engine's moves is replaced by a legal move chosen from the position's hash key
// (levelMove below), so the level stays deterministic. docs/strength.md has each level's Elo.
struct Level {
    const char* name;
    std::int64_t nodes;
    int randomPercent = 0;
};
inline constexpr std::array<Level, 7> kLevels = {{
    {"Starter", 20, 50},
    {"Beginner", 20},
    {"Novice", 150},
    {"Casual", 1000},
    {"Club", 8000},
    {"Strong", 60000},
    {"Master", 400000},
}};

// The move a level plays in `pos` when its engine chose `engineMove` (an index into the legal
// moves in generation order, count > 0): the engine's move, or for a level with randomPercent
// a legal move picked by the position's key in randomPercent cases out of 100.
std::size_t levelMove(const Level& level, std::uint64_t positionKey, std::size_t engineMove,
                      std::size_t count);

inline constexpr int kMaxMultiPv = 5;
inline constexpr std::size_t kMaxPreviewMoves = 64;
inline constexpr std::size_t kMaxGamePlies = 2000;  // longer games are refused (PDN import)
inline constexpr std::size_t kMaxTreeMoves = 3000;  // moves of a game and its variations
static_assert(kMaxTreeMoves < static_cast<std::size_t>(kMaxJsonNesting),
              "a stored tree nests at most once per move: it must stay readable");

// TableSettings: who plays what.
//   engineColour  the colour the engine plays, nothing when people play both sides
//   level         index into kLevels
// A new game id each call.
using GameIdFactory = std::function<std::string()>;
// The time now, for counting engine failures (tests give a virtual clock).
using TableClock = std::function<std::chrono::steady_clock::time_point()>;
// The engine is given up (the page offers a retry) after this many failures within this time.
inline constexpr int kMaxEngineFailures = 3;
inline constexpr std::chrono::seconds kEngineFailureWindow{60};

struct TableSettings {
    std::optional<lasca::Color> engineColour = lasca::Color::Black;
    int level = 3;
};

// SearchJob: one search asked of the engine (an EngineRequest), waiting for its `bestmove`. The
// engine answers every search with exactly one `bestmove`, in order, so the jobs form a queue; a
// cancelled job's lines are dropped.
//   play      true for the engine's move in a game, false for analysis (go infinite)
//   ply       the game ply (moves played before the searched position) it searches
//   history   the game's moves up to ply when it was sent: a job whose game changed is stale
//   annotate  a position of the whole-game annotation (go nodes of the annotation's budget)
//   legal     how many legal moves the searched position has (the most MultiPV lines it gets)
//   table     the endgame tables' result in words, when the engine's `info string table ...`
//             line said one before its search (EgtbPath, docs/egtb.md); else empty
struct SearchJob {
    bool play = false;
    bool annotate = false;
    int ply = 0;
    int multiPv = 1;
    int legal = 0;
    std::vector<std::string> history;
    bool cancelled = false;
    std::string table;
};

// Annotation: the whole game searched position by position (`annotate`), the engine's budget
// per position; for the game's moves as they were when it started (a changed game ends it).
//   next        the position searched next; white its score for White per position, best the
//               engine's move there ("" at the end of the game)
struct Annotation {
    int nodes = 0;
    std::vector<std::string> moves;
    int next = 0;
    std::vector<std::optional<int>> white;
    std::vector<std::string> best;
};

// The last whole-game annotation, for the game it was computed for (moves): per move its mark
// "", "?!", "?", "??" (lasca/analysis.h: the drop in the mover's winning chance from the
// engine's best move), and per position (moves.size() + 1) White's score as the annotation found
// it, nothing when unknown. PDN export writes these scores, one per move, and no others.
struct GameMarks {
    std::vector<std::string> moves;
    std::vector<std::string> marks;
    std::vector<std::optional<int>> white;
};

// LascaGameChange: what a save writes: the game's row (game.moves empty), its move rows, and
// its variations only when they changed since the last save (tree Keep: game.tree left empty).
struct LascaGameChange {
    store::StoredLascaGame game;
    store::MoveRowsChange moves;
    store::TreeWrite tree = store::TreeWrite::Write;
};

// LascaTable
//   gameId_      the id of the game (a new one for each game started)
//   tree_        every line of the game from its start position, each node holding its position
//                and the rules' verdict on it: moves_ is one of them, ending where its branch
//                ends. On the analysis board (people play both sides) a move at an earlier
//                position starts a variation; against the engine it replaces the rest of the line
//   moves_       the line the page shows, as text
//   path_        the nodes of moves_ in tree_, the start's first: every position and verdict of
//                the line is a look-up (found again after every change of the tree)
//   treeJson_    tree_.toJson() once made, until the tree changes (the state and a save share it)
//   treeSaved_   the store holds tree_ as it is (a save then keeps the stored variations)
//   viewPly_     the ply the page shows (0..moves_.size()): analysis runs on it
//   evals_       per ply, White's score in centi-soldiers as last reported by the engine for
//                that position (a mate is +-10000), nothing when unknown
//   jobs_        the searches sent to the engine and not yet answered by bestmove
//   analysing_, multiPv_   whether the page asked for analysis, and how many lines
//   unsaved_     the store's row of the game is not as the table is (unsavedChange)
//   savedMoves_  how many leading moves of moves_ the store holds under gameId_
//   inStore_     the store holds a row of the game (markSaved, restore); worthKeeping then
// Every message either changes the state and gets its replies, or gets exactly one error reply
// and changes nothing.
class LascaTable {
  public:
    // newGameId gives the id of each game the table starts (the first, `new`, `lfen`,
    // `pdn.import`); by default common::randomHex(8). clock: by default the steady clock.
    explicit LascaTable(EngineFactory engineFactory, GameIdFactory newGameId = {},
                        TableClock clock = {});
    // path_ points into tree_: a table stays where it was made.
    LascaTable(const LascaTable&) = delete;
    LascaTable& operator=(const LascaTable&) = delete;

    // The current game's id (`state` carries it as "gameId").
    const std::string& gameId() const { return gameId_; }
    // The game as the store keeps it (created and updated left 0: the server stamps them).
    store::StoredLascaGame stored() const;
    // The game is one to keep: it has a move (or had one once the store held it), or it starts
    // from a set position. A table's first game, and each new one, is kept from its first move:
    // opening the page stores nothing. `state` carries it as "kept" (its id rejoins it).
    bool worthKeeping() const;
    // What of the game the store does not hold yet, nothing when it holds all of it (or when
    // the game is not worthKeeping yet): the game's
    // row as it is now (its `moves` left empty) and how its move rows change. The table keeps it
    // as the messages change the game (no stored game is rebuilt to compare): a changed setting,
    // line or variation marks the row; the moves record how many leading moves the store holds.
    std::optional<LascaGameChange> unsavedChange() const;
    // The store took unsavedChange(): the table is as stored.
    void markSaved();
    // The store holds nothing of this game under its id (a copy of another game).
    void markUnsaved();
    // The store holds a row of this game (it was saved, or restored from the store): the next
    // save is not the game's first.
    bool inStore() const { return inStore_; }
    // Takes a stored game (a reload or a restart): its moves replayed through the rules core,
    // its settings and analysis; the replies are the state (and the engine's search, if it is
    // the engine's turn or analysis is on). An error, and nothing changed, for a stored game
    // that is not a legal game.
    common::Result<std::vector<Json>> restore(const store::StoredLascaGame& game);

    // The first message of a table: the levels and the state.
    std::vector<Json> hello();
    // One message from the page (already parsed JSON). Replies to send back, in order.
    std::vector<Json> handle(const Json& message);
    // Parses raw text first: unreadable JSON is an error reply.
    std::vector<Json> handleText(std::string_view text);
    // One line from the engine.
    std::vector<Json> onEngineLine(std::string_view line);
    // The engine's output closed: it is dropped (the next search starts a new one).
    std::vector<Json> onEngineClosed();
    // A shared engine (EnginePool) makes the table's search wait behind `ahead` others (0: it
    // runs now): an `engine` message saying so while the search is still wanted.
    std::vector<Json> onEngineBusy(int ahead);

    // For tests and the load script.
    const MoveTree& tree() const { return tree_; }
    const lasca::Position& position() const { return path_.back()->position; }
    int viewPly() const { return viewPly_; }
    const std::vector<std::string>& moves() const { return moves_; }
    bool engineRunning() const { return engine_ != nullptr; }
    std::size_t pendingSearches() const { return jobs_.size(); }

  private:
    using Replies = std::vector<Json>;
    // Handlers, one per message type; each returns what the person is told when the message is
    // refused (messages::Say), or fills replies.
    std::optional<messages::Say> onNew(const Json& m, Replies& out);
    std::optional<messages::Say> onMove(const Json& m, Replies& out);
    std::optional<messages::Say> onTakeback(const Json& m, Replies& out);
    std::optional<messages::Say> onView(const Json& m, Replies& out);
    std::optional<messages::Say> onAnalyse(const Json& m, Replies& out);
    std::optional<messages::Say> onPreview(const Json& m, Replies& out);
    std::optional<messages::Say> onLfen(const Json& m, Replies& out);
    std::optional<messages::Say> onPdnExport(const Json& m, Replies& out);
    std::optional<messages::Say> onPdnImport(const Json& m, Replies& out);
    std::optional<messages::Say> onSettings(const Json& m, Replies& out);
    std::optional<messages::Say> onRetry(const Json& m, Replies& out);
    std::optional<messages::Say> onAnnotate(const Json& m, Replies& out);
    std::optional<messages::Say> onLine(const Json& m, Replies& out);
    std::optional<messages::Say> onPromote(const Json& m, Replies& out);
    std::optional<messages::Say> onDelete(const Json& m, Replies& out);
    std::optional<messages::Say> lineInTree(const Json& m, MoveLine& line) const;
    // Shows `line` (a line of tree_ to the end of its branch) at ply `view`: moves_, path_ and
    // the evaluations of the plies it shares with the line shown before.
    void showLine(const MoveLine& line, int view);
    // The tree changed (a node added, moved or removed): path_ found again, treeJson_ dropped.
    void treeChanged();
    const MoveNode& nodeAt(int ply) const { return *path_[static_cast<std::size_t>(ply)]; }
    const Json& treeJson() const;
    // The game's row as the store keeps it (moves empty; tree empty unless withTree).
    store::StoredLascaGame storedRow(bool withTree) const;
    // moves_ changed; its first `same` moves are as they were.
    void movesChanged(std::size_t same);
    void annotationStep(std::string_view bestMove, Replies& out);
    void finishAnnotation(Replies& out);
    Json marksJson() const;

    // A game with a new id (new, lfen, pdn.import): `tree` with `line` (one of its lines) shown
    // at its end.
    void startNewGame(MoveTree tree, const MoveLine& line);
    Json stateMessage() const;
    Json statusJson(const lasca::GameStatus& status) const;
    bool engineToMove() const;

    // Engine scheduling: after every change, the search that should run is compared with the
    // one that runs; a different one is stopped and the right one started.
    void reschedule(Replies& out);
    std::optional<SearchJob> wantedJob() const;
    bool startJob(const SearchJob& job, Replies& out);
    bool ensureEngine(Replies& out);
    SearchJob* activeJob();
    void onInfo(const lasca::engine::InfoReply& info, Replies& out);
    void onBestMove(const lasca::engine::BestMoveReply& best, Replies& out);
    void dropEngine();

    EngineFactory engineFactory_;
    GameIdFactory newGameId_;
    TableClock clock_;
    std::string gameId_;
    std::unique_ptr<EngineChannel> engine_;
    TableSettings settings_;
    MoveTree tree_;
    std::vector<std::string> moves_;
    MovePath path_;
    mutable std::optional<Json> treeJson_;
    bool treeSaved_ = false;
    int viewPly_ = 0;
    std::vector<std::optional<int>> evals_;
    std::deque<SearchJob> jobs_;
    bool analysing_ = false;
    int multiPv_ = 1;
    std::optional<Annotation> annotation_;
    GameMarks marks_;
    // When engines did not start or stopped: those within kEngineFailureWindow of the latest.
    std::deque<std::chrono::steady_clock::time_point> engineFailures_;
    void engineFailed();
    int recentEngineFailures() const;
    // The analysis' lines per MultiPV rank as the engine reports them (one depth's lines arrive
    // one by one); the page gets them only once the depth's last rank is in, so that it never
    // shows a new depth's first line beside the old depth's others (the same move twice).
    std::vector<Json> analysisLines_;
    bool unsaved_ = true;
    std::size_t savedMoves_ = 0;
    bool inStore_ = false;  // the store holds a row of this game under gameId_
};

// Square names and columns of a position, for the page: {"a1": "wb", ...} (occupied squares
// only, columns top first as in LFEN).
Json boardJson(const lasca::Position& pos);

// A kept game as PDN (the page's export and the games pages): the engine named with its level,
// the start position, the moves, the result and the rule that ended it; `round` names the game
// ("-" for none), its date comes from when it was made ("????.??.??" when not stamped).
std::string storedGamePdn(const store::StoredLascaGame& game, const std::string& round = "-");
lasca::PdnGame storedGamePdnGame(const store::StoredLascaGame& game,
                                 const std::string& round = "-");

}  // namespace web::lasca_tables
