#include "web/lasca_tables/lasca_table.h"

#include "lasca_table_internal.h"

#include <algorithm>
#include <charconv>
#include <initializer_list>
#include <sstream>
#include <utility>

#include "common/random.h"
#include "common/seed.h"
#include "common/text.h"
#include "lasca/analysis/analysis.h"
#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"
#include "lasca/core/pdn.h"
#include "web/messages/messages.h"

namespace web::lasca_tables {

std::size_t levelMove(const Level& level, std::uint64_t positionKey, std::size_t engineMove,
                      std::size_t count) {
    if (level.randomPercent <= 0 || count == 0) return engineMove;
    // splitmix64 of the key: Zobrist keys are fixed, so the choice is the same on any machine.
    std::uint64_t key = positionKey;
    const std::uint64_t z = common::splitmix64(key);
    if (static_cast<int>(z % 100) >= level.randomPercent) return engineMove;
    return static_cast<std::size_t>((z / 100) % count);
}

std::string colourName(lasca::Color c) {
    return std::string(lasca::colorName(c));
}

std::optional<std::optional<lasca::Color>> engineColourOf(std::string_view name) {
    std::optional<std::optional<lasca::Color>> out;
    if (const auto c = lasca::parseColorName(name))
        out.emplace(*c);
    else if (name == "none")
        out.emplace(std::nullopt);
    return out;
}

// A line of moves from a message field: an array of move texts.
common::Result<MoveLine> lineField(const Json& m, const char* name) {
    if (!m.contains(name) || !m[name].is_array())
        return common::makeError(std::string(name) + " must be an array of moves");
    if (m[name].size() > kMaxGamePlies)
        return common::makeError(std::string(name) + ": too many moves");
    MoveLine line;
    for (const Json& move : m[name]) {
        if (!move.is_string() || move.get_ref<const std::string&>().size() > kMaxMoveText)
            return common::makeError(std::string(name) + " must be an array of moves");
        line.push_back(move.get<std::string>());
    }
    return line;
}

std::optional<Say> statusSay(const lasca::GameStatus& status) {
    switch (status.termination) {
        case lasca::Termination::NoLegalMove:
            return status.outcome == lasca::Outcome::WhiteWins ? Say{"server.lasca.end.whiteWins"}
                                                               : Say{"server.lasca.end.blackWins"};
        case lasca::Termination::Repetition:
            return Say{"server.lasca.end.repetition"};
        case lasca::Termination::NoProgress:
            return Say{"server.lasca.end.noProgress"};
        case lasca::Termination::None:
            break;
    }
    return std::nullopt;
}

Say refused(std::string detail) {
    return Say{"server.error.refused", {{"detail", std::move(detail)}}};
}

Say moveRefusal(const lasca::Position& pos, std::string_view text) {
    const std::string shown = common::printable(text);
    const auto squares = lasca::moveSquares(text);
    if (!squares) return Say{"server.lasca.move.unreadable", {{"move", shown}}};
    lasca::MoveList legal;
    lasca::generateMoves(pos, legal);
    for (const lasca::Move& m : legal) {
        const auto path = lasca::moveSquares(lasca::formatMove(m));
        if (path && path.value() == squares.value())  // the right squares, the wrong sign
            return m.capture ? Say{"server.lasca.move.captureWithDash", {{"move", shown}}}
                             : Say{"server.lasca.move.stepWithX", {{"move", shown}}};
    }
    return Say{"server.lasca.move.illegal", {{"move", shown}}};
}

Json squaresJson(const lasca::Move& m) {
    Json path = Json::array();
    path.push_back(lasca::squareName(m.origin()));
    for (int i = 0; i < m.length; ++i) path.push_back(lasca::squareName(m.landing(i)));
    return path;
}

Json legalMovesJson(const lasca::Position& pos) {
    lasca::MoveList list;
    lasca::generateMoves(pos, list);
    Json moves = Json::array();
    for (const lasca::Move& m : list)
        moves.push_back({{"move", lasca::formatMove(m)}, {"path", squaresJson(m)}});
    return moves;
}

Json boardJson(const lasca::Position& pos) {
    Json board = Json::object();
    for (lasca::Square s = 0; s < lasca::kSquares; ++s)
        if (pos.height(s) > 0)
            board[lasca::squareName(s)] = lasca::columnText(pos.column(s), pos.height(s));
    return board;
}

LascaTable::LascaTable(EngineFactory engineFactory, GameIdFactory newGameId, TableClock clock)
    : engineFactory_(std::move(engineFactory)),
      newGameId_(std::move(newGameId)),
      clock_(std::move(clock)),
      path_(tree_.path({})),
      evals_(1) {
    if (!newGameId_) newGameId_ = [] { return common::randomHex(8); };
    if (!clock_) clock_ = [] { return std::chrono::steady_clock::now(); };
    gameId_ = newGameId_();
}

StoredLascaGame LascaTable::stored() const {
    auto game = storedRow(true);
    game.moves = moves_;
    return game;
}

// The game's row as the store keeps it (no moves; the variations' text when withTree).
StoredLascaGame LascaTable::storedRow(bool withTree) const {
    StoredLascaGame game;
    game.id = gameId_;
    game.startLfen = tree_.start().toLfen();
    game.engine = settings_.engineColour ? colourName(*settings_.engineColour) : "none";
    game.level = settings_.level;
    game.analysing = analysing_;
    game.multiPv = multiPv_;
    const auto& status = path_.back()->status;
    game.result = status.over() ? lasca::pdnResult(status.outcome) : "*";
    game.rule = status.over() ? lasca::terminationRule(status.termination) : "";
    if (withTree && !tree_.isPlainLine(moves_)) game.tree = treeJson().dump();
    return game;
}

bool LascaTable::worthKeeping() const {
    return inStore_ || !moves_.empty() ||
           tree_.start().toLfen() != lasca::Position::startPosition().toLfen();
}

std::optional<LascaGameChange> LascaTable::unsavedChange() const {
    if (!unsaved_ || !worthKeeping()) return std::nullopt;
    LascaGameChange change;
    change.tree = treeSaved_ ? store::TreeWrite::Keep : store::TreeWrite::Write;
    change.game = storedRow(change.tree == store::TreeWrite::Write);
    change.moves.from = std::min(savedMoves_, moves_.size());
    change.moves.added.assign(moves_.begin() + static_cast<std::ptrdiff_t>(change.moves.from),
                              moves_.end());
    return change;
}

void LascaTable::markSaved() {
    unsaved_ = false;
    savedMoves_ = moves_.size();
    inStore_ = true;
    treeSaved_ = true;
}

void LascaTable::markUnsaved() {
    unsaved_ = true;
    savedMoves_ = 0;
    inStore_ = false;
    treeSaved_ = false;
}

void LascaTable::movesChanged(std::size_t same) {
    unsaved_ = true;
    savedMoves_ = std::min(savedMoves_, same);
}

common::Result<std::vector<Json>> LascaTable::restore(const StoredLascaGame& stored) {
    TableSettings settings;
    const auto colour = engineColourOf(stored.engine);
    if (!colour) return common::makeError("stored game " + stored.id + ": bad engine colour");
    settings.engineColour = *colour;
    if (stored.level < 0 || stored.level >= static_cast<int>(kLevels.size()) ||
        stored.multiPv < 1 || stored.multiPv > kMaxMultiPv)
        return common::makeError("stored game " + stored.id + ": bad level or MultiPV");
    settings.level = stored.level;
    const auto start = lasca::Position::fromLfen(stored.startLfen);
    if (!start) return common::makeError("stored game " + stored.id + ": " + start.error());
    if (stored.moves.size() > kMaxGamePlies)
        return common::makeError("stored game " + stored.id + ": too long");
    // The variations' tree when there is one (its line among them), else the line: each move
    // made once, in the tree.
    MoveTree tree(start.value());
    if (!stored.tree.empty()) {
        const Json json = Json::parse(stored.tree, nullptr, false);
        if (json.is_discarded())
            return common::makeError("stored game " + stored.id + ": unreadable variations");
        auto read = MoveTree::fromJson(start.value(), json);
        if (!read) return common::makeError("stored game " + stored.id + ": " + read.error());
        if (read.value().size() > kMaxTreeMoves)
            return common::makeError("stored game " + stored.id +
                                     ": too many moves with the variations");
        if (!read.value().contains(stored.moves))
            return common::makeError("stored game " + stored.id + ": its line is not in its tree");
        tree = std::move(read).value();
    } else if (const auto line = tree.add(stored.moves); !line) {
        return common::makeError("stored game " + stored.id + ": " + line.error());
    }
    dropEngine();
    gameId_ = stored.id;
    settings_ = settings;
    analysing_ = stored.analysing;
    multiPv_ = stored.multiPv;
    tree_ = std::move(tree);
    moves_ = stored.moves;
    treeChanged();
    viewPly_ = static_cast<int>(moves_.size());
    evals_.assign(moves_.size() + 1, std::nullopt);
    markSaved();  // as the store holds it
    Replies out;
    reschedule(out);
    out.push_back(stateMessage());
    return out;
}

std::vector<Json> LascaTable::hello() {
    Json levels = Json::array();
    for (const Level& l : kLevels)
        levels.push_back({{"name", l.name}, {"nodes", l.nodes}, {"random", l.randomPercent}});
    Replies out;
    out.push_back(
        {{"type", "hello"}, {"game", "lasca"}, {"levels", levels}, {"maxMultiPv", kMaxMultiPv}});
    reschedule(out);
    out.push_back(stateMessage());
    return out;
}

std::vector<Json> LascaTable::handleText(std::string_view text) {
    auto parsed = parseMessage(text);
    if (!parsed) return {errorMessage(parsed.error())};
    return handle(parsed.value());
}

std::vector<Json> LascaTable::handle(const Json& message) {
    const auto type = messageType(message);
    if (!type) return {errorMessage(type.error())};
    using Handler = std::optional<Say> (LascaTable::*)(const Json&, Replies&);
    static const std::pair<const char*, Handler> handlers[] = {
        {"new", &LascaTable::onNew},
        {"settings", &LascaTable::onSettings},
        {"move", &LascaTable::onMove},
        {"takeback", &LascaTable::onTakeback},
        {"view", &LascaTable::onView},
        {"analyse", &LascaTable::onAnalyse},
        {"preview", &LascaTable::onPreview},
        {"lfen", &LascaTable::onLfen},
        {"pdn.export", &LascaTable::onPdnExport},
        {"pdn.import", &LascaTable::onPdnImport},
        {"retry", &LascaTable::onRetry},
        {"annotate", &LascaTable::onAnnotate},
        {"line", &LascaTable::onLine},
        {"promote", &LascaTable::onPromote},
        {"delete", &LascaTable::onDelete},
    };
    for (const auto& [name, handler] : handlers) {
        if (type.value() != name) continue;
        Replies out;
        if (auto error = (this->*handler)(message, out)) return {errorMessage(*error)};
        return out;
    }
    return {errorMessage("unknown message type '" + common::printable(type.value()) + "'")};
}
// ---- The game --------------------------------------------------------------------------------

void LascaTable::startNewGame(MoveTree tree, const MoveLine& line) {
    gameId_ = newGameId_();
    engineFailures_.clear();  // a new game tries the engine again
    tree_ = std::move(tree);
    moves_ = line;
    treeChanged();
    viewPly_ = static_cast<int>(moves_.size());
    evals_.assign(moves_.size() + 1, std::nullopt);
    markUnsaved();  // the store holds nothing under the new id
}

void LascaTable::treeChanged() {
    path_ = tree_.path(moves_);
    treeJson_.reset();
    treeSaved_ = false;
}

const Json& LascaTable::treeJson() const {
    if (!treeJson_) treeJson_ = tree_.toJson();
    return *treeJson_;
}

void LascaTable::showLine(const MoveLine& line, int view) {
    std::size_t same = 0;
    while (same < line.size() && same < moves_.size() && line[same] == moves_[same]) ++same;
    if (same != moves_.size() || same != line.size()) {
        movesChanged(same);
        moves_ = line;
        evals_.resize(same + 1);
        evals_.resize(moves_.size() + 1);
    }
    path_ = tree_.path(moves_);  // every line shown is a line of tree_
    viewPly_ = std::clamp(view, 0, static_cast<int>(moves_.size()));
}

bool LascaTable::engineToMove() const {
    const MoveNode& end = *path_.back();
    return settings_.engineColour && !end.status.over() &&
           end.position.sideToMove() == *settings_.engineColour;
}

Json LascaTable::statusJson(const lasca::GameStatus& status) const {
    Json json = {{"over", status.over()},
                 {"result", lasca::pdnResult(status.outcome)},
                 {"rule", lasca::terminationRule(status.termination)},
                 {"text", ""}};
    if (const auto say = statusSay(status)) json.update(messages::said(*say));
    return json;
}

Json LascaTable::stateMessage() const {
    const MoveNode& view = nodeAt(viewPly_);
    const lasca::Position& pos = view.position;
    const auto& viewStatus = view.status;
    Json lastMove = Json::array();
    if (viewPly_ > 0) lastMove = squaresJson(view.played);
    Json evals = Json::array();
    for (const auto& e : evals_) evals.push_back(e ? Json(*e) : Json(nullptr));
    const auto* active = jobs_.empty() ? nullptr : &jobs_.back();
    const bool thinking = active && !active->cancelled && active->play;
    return {
        {"type", "state"},
        {"gameId", gameId_},
        {"kept", worthKeeping()},
        {"engine", settings_.engineColour ? colourName(*settings_.engineColour) : "none"},
        {"level", settings_.level},
        {"startLfen", tree_.start().toLfen()},
        {"moves", moves_},
        {"tree", treeJson()},
        {"ply", viewPly_},
        {"lfen", pos.toLfen()},
        {"board", boardJson(pos)},
        {"sideToMove", colourName(pos.sideToMove())},
        {"legal", viewStatus.over() ? Json::array() : legalMovesJson(pos)},
        {"lastMove", lastMove},
        {"status", statusJson(path_.back()->status)},
        {"viewStatus", statusJson(viewStatus)},
        {"evals", evals},
        {"thinking", thinking},
        {"analysing", analysing_},
        {"engineUnavailable", recentEngineFailures() >= kMaxEngineFailures},
        {"marks", marksJson()},
        {"annotated", !moves_.empty() && marks_.moves == moves_},
        {"annotating", annotation_ ? Json{{"done", annotation_->next}, {"total", moves_.size() + 1}}
                                   : Json(nullptr)},
        {"multipv", multiPv_}};
}
}  // namespace web::lasca_tables
