#include "web/lasca_tables/lasca_table.h"

#include <algorithm>
#include <charconv>
#include <initializer_list>
#include <sstream>
#include <utility>

#include "common/seed.h"
#include "common/text.h"
#include "lasca/analysis/analysis.h"
#include "lasca/core/pdn.h"
#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"
#include "web/messages/messages.h"

namespace web::lasca_tables {

using messages::boolField;
using messages::checkFields;
using messages::errorMessage;
using messages::intField;
using messages::messageType;
using messages::parseMessage;
using messages::stringField;
using store::StoredLascaGame;

std::size_t levelMove(const Level& level, std::uint64_t positionKey, std::size_t engineMove,
                      std::size_t count) {
    if (level.randomPercent <= 0 || count == 0) return engineMove;
    // splitmix64 of the key: Zobrist keys are fixed, so the choice is the same on any machine.
    std::uint64_t z = positionKey + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    if (static_cast<int>(z % 100) >= level.randomPercent) return engineMove;
    return static_cast<std::size_t>((z / 100) % count);
}

namespace {

constexpr int kMateScore = 10000;       // a mate's place on the evaluation bar and graph
constexpr std::size_t kMaxLfen = 2000;  // longer LFEN text is refused before parsing
constexpr std::size_t kMaxPdn = 60000;  // within the 64 KB message limit
constexpr std::size_t kMaxMoveText = 64;
constexpr int kEngineHashMb = 8;  // per table: 50 tables stay under half a gigabyte

const char* colourName(lasca::Color c) {
    return c == lasca::Color::White ? "white" : "black";
}

// The rule that ended a game, as the page shows it (lasca-rules.md).
// The engine's colour from its name ("white", "black", or "none": people play both sides);
// nothing for another name. The inverse of colourName, with "none".
std::optional<std::optional<lasca::Color>> engineColourOf(std::string_view name) {
    if (name == "white") return std::optional<lasca::Color>(lasca::Color::White);
    if (name == "black") return std::optional<lasca::Color>(lasca::Color::Black);
    if (name == "none") return std::optional<lasca::Color>();
    return std::nullopt;
}

// Replays every line of a tree from `start` through the rules core: each move legal where it
// is played, none after the end of a game. The checked tree has the moves as formatMove writes
// them; an error names the first bad move.
std::optional<std::string> checkBranch(const MoveNode& from, lasca::Game game, MoveNode& out) {
    const MoveNode* node = &from;
    MoveNode* checked = &out;
    while (!node->children.empty()) {
        if (game.status(lasca::DrawRules{}).over())
            return "move '" + common::printable(node->children[0].move) +
                   "' comes after the end of the game";
        checked->children.resize(node->children.size());
        for (std::size_t k = node->children.size(); k-- > 0;) {  // alternatives on copies
            lasca::Game line = k == 0 ? std::move(game) : game;
            const MoveNode& child = node->children[k];
            const auto move = line.playText(child.move);
            if (!move) return "move '" + common::printable(child.move) + "': " + move.error();
            checked->children[k].move = lasca::formatMove(move.value());
            checked->children[k].comment = child.comment;
            if (k == 0) {
                game = std::move(line);
            } else if (auto e = checkBranch(child, std::move(line), checked->children[k])) {
                return e;
            }
        }
        node = &node->children[0];
        checked = &checked->children[0];
    }
    return std::nullopt;
}

common::Result<MoveTree> checkedTree(const lasca::Position& start, const MoveTree& tree) {
    if (tree.size() > kMaxTreeMoves) return common::makeError("too many moves with the variations");
    MoveNode root;
    if (auto e = checkBranch(tree.root(), lasca::Game(start), root)) return common::makeError(*e);
    MoveTree checked;
    // Rebuilt line by line (leaves in order) to keep the tree's order, with the comments.
    std::vector<std::pair<MoveLine, std::string>> comments;
    std::vector<const MoveNode*> stack{&root};
    std::vector<MoveLine> lines{{}};
    while (!stack.empty()) {
        const MoveNode* node = stack.back();
        MoveLine line = std::move(lines.back());
        stack.pop_back();
        lines.pop_back();
        if (!node->comment.empty()) comments.emplace_back(line, node->comment);
        if (node->children.empty()) checked.add(line);
        for (std::size_t k = node->children.size(); k-- > 0;) {
            stack.push_back(&node->children[k]);
            lines.push_back(line);
            lines.back().push_back(node->children[k].move);
        }
    }
    for (const auto& [line, comment] : comments) checked.setComment(line, comment);
    return checked;
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

std::string statusText(const lasca::GameStatus& status) {
    switch (status.termination) {
        case lasca::Termination::NoLegalMove:
            return status.outcome == lasca::Outcome::WhiteWins
                       ? "White wins: Black has no legal move (R9)"
                       : "Black wins: White has no legal move (R9)";
        case lasca::Termination::Repetition:
            return "Draw by threefold repetition (T1)";
        case lasca::Termination::NoProgress:
            return "Draw: 100 plies without capture or soldier move (T2)";
        case lasca::Termination::None:
            break;
    }
    return "";
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

std::optional<std::int64_t> numberAfter(const std::vector<std::string_view>& tokens,
                                        std::size_t& i) {
    if (i + 1 >= tokens.size()) return std::nullopt;
    std::int64_t value = 0;
    const auto text = tokens[++i];
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

// EngineInfo: what one `info depth ...` line of the engine says.
struct EngineInfo {
    int depth = 0;
    int multiPv = 1;
    bool mate = false;
    std::int64_t score = 0;
    bool bound = false;
    std::int64_t nodes = 0;
    std::int64_t nps = 0;
    std::vector<std::string> pv;
};

std::optional<EngineInfo> parseInfo(std::string_view line) {
    const auto tokens = common::splitWhitespace(line);
    if (tokens.size() < 2 || tokens[0] != "info" || tokens[1] == "string") return std::nullopt;
    EngineInfo info;
    bool hasScore = false;
    for (std::size_t i = 1; i < tokens.size(); ++i) {
        const auto t = tokens[i];
        if (t == "pv") {
            for (++i; i < tokens.size(); ++i) info.pv.emplace_back(tokens[i]);
            break;
        }
        if (t == "lowerbound" || t == "upperbound") {
            info.bound = true;
            continue;
        }
        if (t == "score" && i + 1 < tokens.size()) {
            info.mate = tokens[++i] == "mate";
            const auto v = numberAfter(tokens, i);
            if (!v) return std::nullopt;
            info.score = *v;
            hasScore = true;
            continue;
        }
        const auto v = numberAfter(tokens, i);
        if (!v) return std::nullopt;
        if (t == "depth") info.depth = static_cast<int>(*v);
        if (t == "multipv") info.multiPv = static_cast<int>(*v);
        if (t == "nodes") info.nodes = *v;
        if (t == "nps") info.nps = *v;
    }
    if (!hasScore || info.pv.empty()) return std::nullopt;
    return info;
}

// The score for White in centi-soldiers, a mate counting as +-kMateScore.
int whiteScore(const EngineInfo& info, lasca::Color sideToMove) {
    std::int64_t cp = info.score;
    if (info.mate) cp = info.score > 0 ? kMateScore : -kMateScore;
    cp = std::clamp<std::int64_t>(cp, -kMateScore, kMateScore);
    return static_cast<int>(sideToMove == lasca::Color::White ? cp : -cp);
}

bool sameJob(const SearchJob& a, const SearchJob& b) {
    return a.play == b.play && a.annotate == b.annotate && a.ply == b.ply &&
           a.multiPv == b.multiPv && a.history == b.history;
}

constexpr std::int64_t kMaxAnnotateNodes = 10'000'000;

}  // namespace

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
      evals_(1) {
    if (!newGameId_) newGameId_ = [] { return common::randomHex(8); };
    if (!clock_) clock_ = [] { return std::chrono::steady_clock::now(); };
    gameId_ = newGameId_();
}

StoredLascaGame LascaTable::stored() const {
    auto game = storedRow();
    game.moves = moves_;
    return game;
}

// The game's row as the store keeps it (no moves).
StoredLascaGame LascaTable::storedRow() const {
    StoredLascaGame game;
    game.id = gameId_;
    game.startLfen = game_.start().toLfen();
    game.engine = settings_.engineColour ? colourName(*settings_.engineColour) : "none";
    game.level = settings_.level;
    game.analysing = analysing_;
    game.multiPv = multiPv_;
    const auto status = game_.status(lasca::DrawRules{});
    game.result = status.over() ? lasca::pdnResult(status.outcome) : "*";
    game.rule = status.over() ? lasca::terminationRule(status.termination) : "";
    if (!tree_.isPlainLine(moves_)) game.tree = tree_.toJson().dump();
    return game;
}

std::optional<LascaGameChange> LascaTable::unsavedChange() const {
    if (!unsaved_) return std::nullopt;
    LascaGameChange change;
    change.game = storedRow();
    change.moves.from = std::min(savedMoves_, moves_.size());
    change.moves.added.assign(moves_.begin() + static_cast<std::ptrdiff_t>(change.moves.from),
                              moves_.end());
    return change;
}

void LascaTable::markSaved() {
    unsaved_ = false;
    savedMoves_ = moves_.size();
}

void LascaTable::markUnsaved() {
    unsaved_ = true;
    savedMoves_ = 0;
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
    lasca::Game game(start.value());
    for (const auto& move : stored.moves)
        if (game.status(lasca::DrawRules{}).over() || !game.playText(move))
            return common::makeError("stored game " + stored.id + ": move '" +
                                     common::printable(move) + "' is not legal there");
    MoveTree tree(stored.moves);
    if (!stored.tree.empty()) {
        const Json json = Json::parse(stored.tree, nullptr, false);
        MoveTree read;
        if (json.is_discarded() || !MoveTree::fromJson(json, read))
            return common::makeError("stored game " + stored.id + ": unreadable variations");
        auto checked = checkedTree(start.value(), read);
        if (!checked) return common::makeError("stored game " + stored.id + ": " + checked.error());
        if (!checked.value().contains(stored.moves))
            return common::makeError("stored game " + stored.id + ": its line is not in its tree");
        tree = std::move(checked).value();
    }
    dropEngine();
    gameId_ = stored.id;
    settings_ = settings;
    analysing_ = stored.analysing;
    multiPv_ = stored.multiPv;
    game_ = std::move(game);
    tree_ = std::move(tree);
    moves_ = stored.moves;
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
    using Handler = std::optional<std::string> (LascaTable::*)(const Json&, Replies&);
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

// ---- Messages from the page ------------------------------------------------------------------

namespace {
// Reads the optional "engine" and "level" fields into settings.
std::optional<std::string> readSettings(const Json& m, TableSettings& settings) {
    if (m.contains("engine")) {
        const auto engine = stringField(m, "engine", 8);
        if (!engine) return engine.error();
        const auto colour = engineColourOf(engine.value());
        if (!colour) return "engine must be white, black or none";
        settings.engineColour = *colour;
    }
    if (m.contains("level")) {
        const auto level = intField(m, "level", 0, static_cast<std::int64_t>(kLevels.size()) - 1);
        if (!level) return level.error();
        settings.level = static_cast<int>(level.value());
    }
    return std::nullopt;
}
}  // namespace

std::optional<std::string> LascaTable::onNew(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {"engine", "level"})) return e;
    TableSettings settings = settings_;
    if (auto e = readSettings(m, settings)) return e;
    settings_ = settings;
    startNewGame(lasca::Position::startPosition(), {});
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

std::optional<std::string> LascaTable::onSettings(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {"engine", "level"})) return e;
    TableSettings settings = settings_;
    if (auto e = readSettings(m, settings)) return e;
    if (settings.engineColour != settings_.engineColour || settings.level != settings_.level)
        unsaved_ = true;
    settings_ = settings;
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

std::optional<std::string> LascaTable::onMove(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {"ply", "move"})) return e;
    const auto ply = intField(m, "ply", 0, static_cast<std::int64_t>(moves_.size()));
    if (!ply) return ply.error();
    const auto text = stringField(m, "move", kMaxMoveText);
    if (!text) return text.error();
    if (moves_.size() >= kMaxGamePlies) return "the game is too long";
    const auto kept = static_cast<std::size_t>(ply.value());
    lasca::Game game = kept == moves_.size() ? game_ : gameUpTo(static_cast<int>(kept));
    if (game.status(lasca::DrawRules{}).over()) return "the game is over";
    if (settings_.engineColour && game.current().sideToMove() == *settings_.engineColour)
        return "it is the engine's turn";
    const auto move = game.playText(text.value());
    if (!move) return move.error();
    MoveLine line(moves_.begin(), moves_.begin() + static_cast<std::ptrdiff_t>(kept));
    line.push_back(lasca::formatMove(move.value()));
    if (!tree_.contains(line) && tree_.size() >= kMaxTreeMoves)
        return "too many moves with the variations";
    // Against the engine a move in the past replaces the rest of the line (the page asked);
    // on the analysis board it starts a variation, or follows one already there.
    if (settings_.engineColour && kept < moves_.size()) {
        tree_.remove(
            MoveLine(moves_.begin(), moves_.begin() + static_cast<std::ptrdiff_t>(kept) + 1));
        unsaved_ = true;
    }
    if (!tree_.contains(line)) unsaved_ = true;
    tree_.add(line);
    showLine(tree_.continuation(line), static_cast<int>(line.size()));
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

std::optional<std::string> LascaTable::onTakeback(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {})) return e;
    if (moves_.empty()) return "there is no move to take back";
    std::size_t keep = moves_.size() - 1;
    if (settings_.engineColour) {
        // Back to a position where the person is to move (or the start).
        while (keep > 0 &&
               positionAt(static_cast<int>(keep)).sideToMove() == *settings_.engineColour)
            --keep;
    }
    const std::vector<std::string> moves(moves_.begin(),
                                         moves_.begin() + static_cast<std::ptrdiff_t>(keep));
    std::vector<std::optional<int>> evals(evals_.begin(),
                                          evals_.begin() + static_cast<std::ptrdiff_t>(keep + 1));
    MoveTree tree = std::move(tree_);  // startGame makes a new one: the other lines go on
    tree.remove(MoveLine(moves_.begin(), moves_.begin() + static_cast<std::ptrdiff_t>(keep) + 1));
    startGame(game_.start(), moves);
    tree_ = std::move(tree);
    evals_ = std::move(evals);
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

// The line a `line`, `promote` or `delete` message names: its only field, a line of the tree.
common::Result<MoveLine> LascaTable::lineInTree(const Json& m) const {
    if (auto e = checkFields(m, {"moves"})) return common::makeError(*e);
    auto line = lineField(m, "moves");
    if (!line) return line;
    if (!tree_.contains(line.value())) return common::makeError("that line is not in the game");
    return line;
}

// A line of the tree shown (a click on a move of a variation): to the end of its branch, at
// the clicked move.
std::optional<std::string> LascaTable::onLine(const Json& m, Replies& out) {
    const auto line = lineInTree(m);
    if (!line) return line.error();
    showLine(tree_.continuation(line.value()), static_cast<int>(line.value().size()));
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

// A variation one step up among the alternatives (the first alternative becomes the main line).
std::optional<std::string> LascaTable::onPromote(const Json& m, Replies& out) {
    const auto line = lineInTree(m);
    if (!line) return line.error();
    if (!tree_.promote(line.value())) return "that move is already the main line there";
    unsaved_ = true;
    out.push_back(stateMessage());
    return std::nullopt;
}

// A move and all that follows it removed; a shown line through it goes back to its parent.
std::optional<std::string> LascaTable::onDelete(const Json& m, Replies& out) {
    const auto line = lineInTree(m);
    if (!line) return line.error();
    if (line.value().empty()) return "moves: the start position cannot be deleted";
    const bool shown = line.value().size() <= moves_.size() &&
                       std::equal(line.value().begin(), line.value().end(), moves_.begin());
    tree_.remove(line.value());
    unsaved_ = true;
    if (shown) {
        const MoveLine parent(line.value().begin(), line.value().end() - 1);
        showLine(tree_.continuation(parent), std::min(viewPly_, static_cast<int>(parent.size())));
    }
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

// After the engine failed kMaxEngineFailures times within kEngineFailureWindow: try it again.
std::optional<std::string> LascaTable::onRetry(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {})) return e;
    engineFailures_.clear();
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

std::optional<std::string> LascaTable::onView(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {"ply"})) return e;
    const auto ply = intField(m, "ply", 0, static_cast<std::int64_t>(moves_.size()));
    if (!ply) return ply.error();
    viewPly_ = static_cast<int>(ply.value());
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

std::optional<std::string> LascaTable::onAnalyse(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {"on", "multipv"})) return e;
    const auto on = boolField(m, "on");
    if (!on) return on.error();
    int multiPv = multiPv_;
    if (m.contains("multipv")) {
        const auto v = intField(m, "multipv", 1, kMaxMultiPv);
        if (!v) return v.error();
        multiPv = static_cast<int>(v.value());
    }
    if (analysing_ != on.value() || multiPv_ != multiPv) unsaved_ = true;
    analysing_ = on.value();
    multiPv_ = multiPv;
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

std::optional<std::string> LascaTable::onPreview(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {"ply", "moves"})) return e;
    const auto ply = intField(m, "ply", 0, static_cast<std::int64_t>(moves_.size()));
    if (!ply) return ply.error();
    if (!m.contains("moves") || !m["moves"].is_array()) return "moves must be an array";
    const Json& moves = m["moves"];
    if (moves.size() > kMaxPreviewMoves) return "moves: at most 64";
    lasca::Game game = gameUpTo(static_cast<int>(ply.value()));
    Json lastMove = Json::array();
    Json played = Json::array();
    for (const Json& move : moves) {
        if (!move.is_string() || move.get_ref<const std::string&>().size() > kMaxMoveText)
            return "moves must be move texts";
        const auto result = game.playText(move.get_ref<const std::string&>());
        if (!result) return result.error();
        lastMove = squaresJson(result.value());
        played.push_back(lasca::formatMove(result.value()));
    }
    out.push_back({{"type", "preview"},
                   {"ply", ply.value()},
                   {"moves", played},
                   {"board", boardJson(game.current())},
                   {"lastMove", lastMove},
                   {"lfen", game.current().toLfen()}});
    return std::nullopt;
}

std::optional<std::string> LascaTable::onLfen(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {"lfen"})) return e;
    const auto text = stringField(m, "lfen", kMaxLfen);
    if (!text) return text.error();
    const auto pos = lasca::Position::fromLfen(text.value());
    if (!pos) return pos.error();
    startNewGame(pos.value(), {});
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

std::optional<std::string> LascaTable::onPdnExport(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {})) return e;
    // The marks and evaluations the page shows go with the moves: "c3-d4?! {[%eval 0.35]}".
    auto pdn = storedGamePdnGame(stored());
    const Json marks = marksJson();
    for (std::size_t i = 0; i < moves_.size(); ++i) {
        std::string annotation = marks[i].get<std::string>();
        if (const auto& e = evals_[i + 1]; e) {
            char text[32];
            std::snprintf(text, sizeof text, "%.2f", *e / 100.0);
            annotation += std::string(" {[%eval ") + text + "]}";
        }
        pdn.annotations.push_back(annotation);
    }
    out.push_back({{"type", "pdn"}, {"pdn", lasca::writePdn(pdn)}});
    return std::nullopt;
}

std::optional<std::string> LascaTable::onPdnImport(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {"pdn"})) return e;
    const auto text = stringField(m, "pdn", kMaxPdn);
    if (!text) return text.error();
    std::istringstream in(text.value());
    const auto games = lasca::readPdn(in);
    if (!games) return "PDN: " + games.error();
    if (games.value().empty()) return "PDN: no game found";
    const auto& pdn = games.value().front();
    const auto start = lasca::startOf(pdn);
    if (!start) return "PDN: " + start.error();
    if (pdn.moves.size() > kMaxGamePlies) return "PDN: the game is too long";
    lasca::Game game(start.value());
    std::vector<std::string> moves;
    for (std::size_t i = 0; i < pdn.moves.size(); ++i) {
        if (game.status(lasca::DrawRules{}).over())
            return "PDN: move " + std::to_string(i + 1) + " comes after the end of the game";
        const auto move = game.playText(pdn.moves[i]);
        if (!move)
            return "PDN: move " + std::to_string(i + 1) + " '" + common::printable(pdn.moves[i]) +
                   "': " + move.error();
        moves.push_back(lasca::formatMove(move.value()));
    }
    auto tree = checkedTree(start.value(), MoveTree::fromPdn(pdn));
    if (!tree) return "PDN: a variation's " + tree.error();
    startNewGame(start.value(), moves);
    tree_ = std::move(tree).value();
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

// ---- The game --------------------------------------------------------------------------------

void LascaTable::startNewGame(const lasca::Position& start, const std::vector<std::string>& moves) {
    gameId_ = newGameId_();
    engineFailures_.clear();  // a new game tries the engine again
    startGame(start, moves);
    markUnsaved();  // the store holds nothing under the new id
}

void LascaTable::startGame(const lasca::Position& start, const std::vector<std::string>& moves) {
    std::size_t same = 0;
    while (same < moves.size() && same < moves_.size() && moves[same] == moves_[same]) ++same;
    movesChanged(same);
    lasca::Game game(start);
    for (const auto& move : moves) game.playText(move);  // checked by every caller
    game_ = std::move(game);
    tree_ = MoveTree(moves);
    moves_ = moves;
    viewPly_ = static_cast<int>(moves_.size());
    evals_.assign(moves_.size() + 1, std::nullopt);
}

void LascaTable::showLine(const MoveLine& line, int view) {
    std::size_t same = 0;
    while (same < line.size() && same < moves_.size() && line[same] == moves_[same]) ++same;
    if (same == moves_.size() && same == line.size()) {  // the same line: only the view moves
        viewPly_ = std::clamp(view, 0, static_cast<int>(moves_.size()));
        return;
    }
    movesChanged(same);
    // Every line of tree_ is checked: its moves are legal. The moves the lines share are played
    // again only when the new line leaves the shown one before its end.
    lasca::Game game = same == moves_.size() ? std::move(game_) : gameUpTo(static_cast<int>(same));
    for (std::size_t i = same; i < line.size(); ++i) game.playText(line[i]);
    game_ = std::move(game);
    moves_ = line;
    evals_.resize(same + 1);
    evals_.resize(moves_.size() + 1);
    viewPly_ = std::clamp(view, 0, static_cast<int>(moves_.size()));
}

lasca::Game LascaTable::gameUpTo(int ply) const {
    if (ply == static_cast<int>(game_.moves().size())) return game_;
    lasca::Game game(game_.start());
    for (int i = 0; i < ply; ++i) game.play(game_.moves()[static_cast<std::size_t>(i)]);
    return game;
}

lasca::Position LascaTable::positionAt(int ply) const {
    return gameUpTo(ply).current();
}

bool LascaTable::engineToMove() const {
    return settings_.engineColour && !game_.status(lasca::DrawRules{}).over() &&
           game_.current().sideToMove() == *settings_.engineColour;
}

Json LascaTable::statusJson(const lasca::GameStatus& status) const {
    return {{"over", status.over()},
            {"result", lasca::pdnResult(status.outcome)},
            {"rule", lasca::terminationRule(status.termination)},
            {"text", statusText(status)}};
}

Json LascaTable::stateMessage() const {
    const lasca::Game view = gameUpTo(viewPly_);
    const lasca::Position& pos = view.current();
    const auto viewStatus = view.status(lasca::DrawRules{});
    Json lastMove = Json::array();
    if (viewPly_ > 0) lastMove = squaresJson(game_.moves()[static_cast<std::size_t>(viewPly_ - 1)]);
    Json evals = Json::array();
    for (const auto& e : evals_) evals.push_back(e ? Json(*e) : Json(nullptr));
    const auto* active = jobs_.empty() ? nullptr : &jobs_.back();
    const bool thinking = active && !active->cancelled && active->play;
    return {
        {"type", "state"},
        {"gameId", gameId_},
        {"engine", settings_.engineColour ? colourName(*settings_.engineColour) : "none"},
        {"level", settings_.level},
        {"startLfen", game_.start().toLfen()},
        {"moves", moves_},
        {"tree", tree_.toJson()},
        {"ply", viewPly_},
        {"lfen", pos.toLfen()},
        {"board", boardJson(pos)},
        {"sideToMove", colourName(pos.sideToMove())},
        {"legal", viewStatus.over() ? Json::array() : legalMovesJson(pos)},
        {"lastMove", lastMove},
        {"status", statusJson(game_.status(lasca::DrawRules{}))},
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

// ---- The engine ------------------------------------------------------------------------------

std::optional<SearchJob> LascaTable::wantedJob() const {
    SearchJob job;
    if (engineToMove()) {
        job.play = true;
        job.ply = static_cast<int>(moves_.size());
    } else if (annotation_) {
        job.annotate = true;
        job.ply = annotation_->next;
    } else if (analysing_) {
        job.ply = viewPly_;
        job.multiPv = multiPv_;
        if (gameUpTo(viewPly_).status(lasca::DrawRules{}).over()) return std::nullopt;
    } else {
        return std::nullopt;
    }
    job.history.assign(moves_.begin(), moves_.begin() + job.ply);
    return job;
}

SearchJob* LascaTable::activeJob() {
    if (jobs_.empty() || jobs_.back().cancelled) return nullptr;
    return &jobs_.back();
}

void LascaTable::reschedule(Replies& out) {
    if (annotation_ && annotation_->moves != moves_) {  // the game changed: the annotation ends
        annotation_.reset();
        out.push_back({{"type", "annotate"}, {"event", "cancelled"}, {"done", 0}, {"total", 0}});
    }
    const auto wanted = wantedJob();
    SearchJob* active = activeJob();
    if (active && wanted && sameJob(*active, *wanted)) return;
    if (active) {
        active->cancelled = true;
        if (engine_) engine_->send("stop");
    }
    if (wanted) startJob(*wanted, out);
}

bool LascaTable::ensureEngine(Replies& out) {
    if (engine_) return true;
    if (const int failures = recentEngineFailures(); failures >= kMaxEngineFailures) {
        out.push_back(errorMessage("the engine failed " + std::to_string(failures) +
                                   " times within a minute: it is unavailable until you retry "
                                   "or start a new game"));
        return false;
    }
    auto engine = engineFactory_();
    if (!engine) {
        engineFailed();
        out.push_back(errorMessage("engine: " + engine.error()));
        return false;
    }
    engine_ = std::move(engine).value();
    jobs_.clear();
    engineMultiPv_ = 1;
    engine_->send("uci");
    engine_->send("setoption name Hash value " + std::to_string(kEngineHashMb));
    engine_->send("ucinewgame");
    engine_->send("isready");
    return true;
}

bool LascaTable::startJob(const SearchJob& job, Replies& out) {
    if (!ensureEngine(out)) return false;
    const int multiPv = job.play || job.annotate ? 1 : job.multiPv;
    if (multiPv != engineMultiPv_) {
        engine_->send("setoption name MultiPV value " + std::to_string(multiPv));
        engineMultiPv_ = multiPv;
    }
    std::string position = "position fen " + game_.start().toLfen();
    if (!job.history.empty()) {
        position += " moves";
        for (const auto& move : job.history) position += " " + move;
    }
    engine_->send(position);
    const auto nodes = kLevels[static_cast<std::size_t>(settings_.level)].nodes;
    if (job.annotate)
        engine_->send("go nodes " + std::to_string(annotation_->nodes));
    else
        engine_->send(job.play ? "go nodes " + std::to_string(nodes) : std::string("go infinite"));
    jobs_.push_back(job);
    analysisLines_.clear();
    return true;
}

std::vector<Json> LascaTable::onEngineLine(std::string_view line) {
    Replies out;
    if (line.starts_with("bestmove"))
        onBestMove(line, out);
    else if (line.starts_with("info "))
        onInfo(line, out);
    return out;
}

void LascaTable::onInfo(std::string_view line, Replies& out) {
    if (jobs_.empty() || jobs_.front().cancelled) return;
    const SearchJob& job = jobs_.front();
    const auto info = parseInfo(line);
    if (!info || info->bound || info->multiPv < 1 || info->multiPv > job.multiPv) return;
    const auto side = positionAt(job.ply).sideToMove();
    const int white = whiteScore(*info, side);
    if (info->multiPv == 1) evals_[static_cast<std::size_t>(job.ply)] = white;
    if (job.annotate && info->multiPv == 1 && annotation_ && job.ply == annotation_->next)
        annotation_->white[static_cast<std::size_t>(job.ply)] = white;
    if (job.play || job.annotate) return;
    Json score = info->mate ? Json{{"mate", info->score}} : Json{{"cp", info->score}};
    Json entry = {{"multipv", info->multiPv},
                  {"depth", info->depth},
                  {"score", score},
                  {"white", white},
                  {"pv", info->pv}};
    lasca::MoveList legal;
    lasca::generateMoves(positionAt(job.ply), legal);
    const int ranks = std::min(job.multiPv, static_cast<int>(legal.size()));
    analysisLines_.resize(static_cast<std::size_t>(job.multiPv));
    analysisLines_[static_cast<std::size_t>(info->multiPv - 1)] = entry;
    if (info->multiPv < ranks) return;  // the depth's other lines are on their way
    Json lines = Json::array();
    for (const auto& l : analysisLines_)
        if (!l.is_null()) lines.push_back(l);
    out.push_back({{"type", "analysis"},
                   {"ply", job.ply},
                   {"depth", info->depth},
                   {"nodes", info->nodes},
                   {"nps", info->nps},
                   {"lines", lines}});
}

void LascaTable::onBestMove(std::string_view line, Replies& out) {
    if (jobs_.empty()) return;
    const SearchJob job = jobs_.front();
    jobs_.pop_front();
    if (job.annotate && !job.cancelled && annotation_ && job.ply == annotation_->next) {
        const auto tokens = common::splitWhitespace(line);
        annotationStep(tokens.size() >= 2 ? tokens[1] : std::string_view(), out);
        return;
    }
    if (job.cancelled || !job.play) return;
    const auto tokens = common::splitWhitespace(line);
    if (tokens.size() < 2 || tokens[1] == "0000") return;
    std::string text(tokens[1]);
    const Level& level = kLevels[static_cast<std::size_t>(settings_.level)];
    if (level.randomPercent > 0) {
        // A weakened level: the engine's move may give way to another legal move (levelMove).
        lasca::MoveList list;
        lasca::generateMoves(game_.current(), list);
        std::vector<std::string> legal;
        for (const lasca::Move& m : list) legal.push_back(lasca::formatMove(m));
        const auto engineMove = lasca::parseMove(game_.current(), text);
        const auto at = engineMove ? std::find(legal.begin(), legal.end(),
                                               lasca::formatMove(engineMove.value()))
                                   : legal.end();
        if (!legal.empty() && at != legal.end()) {
            const auto index =
                levelMove(level, game_.current().key(),
                          static_cast<std::size_t>(at - legal.begin()), legal.size());
            text = legal[index];
        }
    }
    const auto move = game_.playText(text);
    if (!move) {
        out.push_back(errorMessage("the engine played an illegal move: " + move.error()));
        return;
    }
    movesChanged(moves_.size());
    moves_.push_back(lasca::formatMove(move.value()));
    tree_.add(moves_);
    evals_.emplace_back();
    viewPly_ = static_cast<int>(moves_.size());
    reschedule(out);
    out.push_back(stateMessage());
}

// The engine died: what it was asked is asked again of a new one (its move, or the analysis);
// the dead engine's analysis lines are cleared at once. After kMaxEngineFailures failures within
// kEngineFailureWindow it is not started again until a retry or a new game.
std::vector<Json> LascaTable::onEngineClosed() {
    Replies out;
    dropEngine();
    engineFailed();
    analysisLines_.clear();
    out.push_back({{"type", "analysis"},
                   {"ply", viewPly_},
                   {"depth", 0},
                   {"nodes", 0},
                   {"nps", 0},
                   {"lines", Json::array()}});
    reschedule(out);
    if (engine_)
        out.push_back({{"type", "engine"}, {"event", "restarted"}, {"text", "engine restarted"}});
    else if (recentEngineFailures() < kMaxEngineFailures)
        out.push_back(errorMessage("the engine stopped"));
    out.push_back(stateMessage());
    return out;
}

// One more failure; the engine is given up at kMaxEngineFailures within kEngineFailureWindow
// (it stays given up, time alone does not bring it back: a retry or a new game does).
// ---- Whole-game annotation -------------------------------------------------------------------

// {"type":"annotate","nodes":N} searches every position of the game at N nodes, then marks each
// move; {"type":"annotate","cancel":true} stops it. Progress: {"type":"annotate","event":...}.
std::optional<std::string> LascaTable::onAnnotate(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {"nodes", "cancel"})) return e;
    if (m.contains("cancel")) {
        if (!m["cancel"].is_boolean() || !m["cancel"].get<bool>()) return "cancel must be true";
        if (!annotation_) return "no annotation runs";
        const int done = annotation_->next;
        annotation_.reset();
        reschedule(out);
        out.push_back({{"type", "annotate"},
                       {"event", "cancelled"},
                       {"done", done},
                       {"total", moves_.size() + 1}});
        out.push_back(stateMessage());
        return std::nullopt;
    }
    const auto nodes = intField(m, "nodes", 1, kMaxAnnotateNodes);
    if (!nodes) return nodes.error();
    if (moves_.empty()) return "there is no move to annotate";
    Annotation annotation;
    annotation.nodes = static_cast<int>(nodes.value());
    annotation.moves = moves_;
    annotation.white.assign(moves_.size() + 1, std::nullopt);
    annotation.best.assign(moves_.size() + 1, "");
    annotation_ = std::move(annotation);
    out.push_back(
        {{"type", "annotate"}, {"event", "started"}, {"done", 0}, {"total", moves_.size() + 1}});
    annotationStep({}, out);  // skips nothing yet: starts the first search
    return std::nullopt;
}

// The search of position `next` ended with `bestMove` (empty on the first call): the next
// position is searched, or, past the last, the marks are made. Positions where the game is
// over are not searched: the rules' verdict is their score.
void LascaTable::annotationStep(std::string_view bestMove, Replies& out) {
    Annotation& a = *annotation_;
    if (!bestMove.empty()) {
        a.best[static_cast<std::size_t>(a.next)] = std::string(bestMove);
        ++a.next;
        out.push_back({{"type", "annotate"},
                       {"event", "progress"},
                       {"done", a.next},
                       {"total", a.moves.size() + 1}});
    }
    while (a.next <= static_cast<int>(a.moves.size())) {
        const auto status = gameUpTo(a.next).status(lasca::DrawRules{});
        if (!status.over()) break;
        int white = 0;
        if (status.outcome == lasca::Outcome::WhiteWins) white = kMateScore;
        if (status.outcome == lasca::Outcome::BlackWins) white = -kMateScore;
        a.white[static_cast<std::size_t>(a.next)] = white;
        ++a.next;
    }
    if (a.next > static_cast<int>(a.moves.size())) {
        finishAnnotation(out);
        return;
    }
    reschedule(out);
    out.push_back(stateMessage());
}

void LascaTable::finishAnnotation(Replies& out) {
    const Annotation a = std::move(*annotation_);
    annotation_.reset();
    marks_.moves = a.moves;
    marks_.marks.assign(a.moves.size(), "");
    for (std::size_t i = 0; i < a.moves.size(); ++i) {
        if (a.white[i]) evals_[i] = a.white[i];
        const auto mover = positionAt(static_cast<int>(i)).sideToMove();
        if (!a.white[i] || !a.white[i + 1]) continue;
        const int sign = mover == lasca::Color::White ? 1 : -1;
        const double before = lasca::winningChance(sign * *a.white[i]);
        const double after = lasca::winningChance(sign * *a.white[i + 1]);
        const auto best = lasca::parseMove(positionAt(static_cast<int>(i)), a.best[i]);
        const bool playedBest = best && lasca::formatMove(best.value()) == a.moves[i];
        const double drop = playedBest ? 0.0 : std::max(0.0, before - after);
        marks_.marks[i] = lasca::markGlyph(lasca::classifyDrop(drop));
    }
    if (a.white.back()) evals_.back() = a.white.back();
    out.push_back({{"type", "annotate"},
                   {"event", "done"},
                   {"done", a.moves.size() + 1},
                   {"total", a.moves.size() + 1}});
    reschedule(out);
    out.push_back(stateMessage());
}

// The marks of the game as it is: "" for every move when they were made for another game.
Json LascaTable::marksJson() const {
    Json marks = Json::array();
    const bool current = marks_.moves == moves_;
    for (std::size_t i = 0; i < moves_.size(); ++i)
        marks.push_back(current ? marks_.marks[i] : std::string());
    return marks;
}

void LascaTable::engineFailed() {
    const auto now = clock_();
    while (!engineFailures_.empty() && now - engineFailures_.front() > kEngineFailureWindow)
        engineFailures_.pop_front();
    engineFailures_.push_back(now);
}

int LascaTable::recentEngineFailures() const {
    return static_cast<int>(engineFailures_.size());
}

void LascaTable::dropEngine() {
    engine_.reset();
    jobs_.clear();
}

namespace {
// The PDN Termination of a rule as the store keeps it ("R9", "T1", "T2").
std::string terminationOfRule(const std::string& rule) {
    if (rule == "T1") return lasca::terminationName(lasca::Termination::Repetition);
    if (rule == "T2") return lasca::terminationName(lasca::Termination::NoProgress);
    return lasca::terminationName(lasca::Termination::NoLegalMove);
}

// "YYYY.MM.DD" (UTC) of milliseconds since the epoch; PDN's unknown date for 0.
std::string pdnDate(std::int64_t millis) {
    return millis <= 0 ? "????.??.??" : common::utcTime(millis, "%Y.%m.%d");
}
}  // namespace

lasca::PdnGame storedGamePdnGame(const StoredLascaGame& game, const std::string& round) {
    lasca::PdnGame pdn;
    const auto colour = engineColourOf(game.engine);
    const bool engineWhite = colour && *colour == std::optional(lasca::Color::White);
    const bool engineBlack = colour && *colour == std::optional(lasca::Color::Black);
    const auto level =
        static_cast<std::size_t>(std::clamp(game.level, 0, static_cast<int>(kLevels.size()) - 1));
    const auto engineName = std::string("lasca (") + kLevels[level].name + ")";
    pdn.tags = {{"Event", "lasca-web"},
                {"Site", "?"},
                {"Date", pdnDate(game.created)},
                {"Round", round},
                {"White", engineWhite ? engineName : "you"},
                {"Black", engineBlack ? engineName : "you"},
                {"Result", game.result},
                {"GameType", "Lasca"},
                {"FEN", game.startLfen}};
    if (game.result != "*") pdn.tags.emplace_back("Termination", terminationOfRule(game.rule));
    pdn.tags.emplace_back("PlyCount", std::to_string(game.moves.size()));
    pdn.moves = game.moves;
    pdn.result = game.result;
    // The variations, around the game's line as the main line (a stored tree is one the table
    // checked; an unreadable one is left out rather than failing the export).
    MoveTree tree;
    if (const Json json = Json::parse(game.tree, nullptr, false);
        !game.tree.empty() && !json.is_discarded() && MoveTree::fromJson(json, tree) &&
        tree.makeMain(game.moves))
        tree.toPdn(pdn);
    return pdn;
}

std::string storedGamePdn(const StoredLascaGame& game, const std::string& round) {
    return lasca::writePdn(storedGamePdnGame(game, round));
}

}  // namespace web::lasca_tables
