// LascaTable: the messages from the page (protocol.md, "The web page's WebSocket messages").
#include <algorithm>
#include <cstdio>
#include <sstream>
#include <utility>

#include "common/text.h"
#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"
#include "lasca/core/pdn.h"
#include "lasca_table_internal.h"
#include "web/lasca_tables/lasca_table.h"
#include "web/messages/messages.h"

namespace web::lasca_tables {

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

std::string withOneEval(const std::string& comment, std::optional<int> white) {
    static constexpr std::string_view kTag = "[%eval ";
    std::string rest, kept;
    bool found = false;
    std::size_t at = 0;
    while (at < comment.size()) {
        const auto tag = comment.find(kTag, at);
        const auto end = tag == std::string::npos ? tag : comment.find(']', tag);
        if (end == std::string::npos) {
            rest += comment.substr(at);
            break;
        }
        rest += comment.substr(at, tag - at);
        kept = comment.substr(tag + kTag.size(), end - tag - kTag.size());
        found = true;
        at = end + 1;
    }
    if (!white && !found) return comment;  // no evaluation, none to write
    if (white) {
        char text[32];
        std::snprintf(text, sizeof text, "%.2f", *white / 100.0);
        kept = text;
    }
    std::string words;  // the rest with its spaces closed up
    std::istringstream in(rest);
    for (std::string word; in >> word;) words += (words.empty() ? "" : " ") + word;
    if (kept.empty()) return words;
    return "[%eval " + kept + "]" + (words.empty() ? "" : " " + words);
}

std::optional<Say> LascaTable::onNew(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {"engine", "level"})) return refused(*e);
    TableSettings settings = settings_;
    if (auto e = readSettings(m, settings)) return refused(*e);
    settings_ = settings;
    startNewGame(MoveTree(), {});
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

std::optional<Say> LascaTable::onSettings(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {"engine", "level"})) return refused(*e);
    TableSettings settings = settings_;
    if (auto e = readSettings(m, settings)) return refused(*e);
    if (settings.engineColour != settings_.engineColour || settings.level != settings_.level)
        unsaved_ = true;
    settings_ = settings;
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

std::optional<Say> LascaTable::onMove(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {"ply", "move"})) return refused(*e);
    const auto ply = intField(m, "ply", 0, static_cast<std::int64_t>(moves_.size()));
    if (!ply) return refused(ply.error());
    const auto text = stringField(m, "move", kMaxMoveText);
    if (!text) return refused(text.error());
    if (moves_.size() >= kMaxGamePlies)
        return Say{"server.lasca.gameTooLong", {{"count", kMaxGamePlies}}};
    const auto kept = static_cast<std::size_t>(ply.value());
    const MoveNode& at = nodeAt(static_cast<int>(kept));
    if (at.status.over()) return Say{"server.lasca.gameOver"};
    if (settings_.engineColour && at.position.sideToMove() == *settings_.engineColour)
        return Say{"server.lasca.engineTurn"};
    const auto move = lasca::parseMove(at.position, text.value());
    if (!move) return moveRefusal(at.position, text.value());
    MoveLine line(moves_.begin(), moves_.begin() + static_cast<std::ptrdiff_t>(kept));
    line.push_back(lasca::formatMove(move.value()));
    if (!tree_.contains(line) && tree_.size() >= kMaxTreeMoves)
        return Say{"server.lasca.tooManyMoves", {{"count", kMaxTreeMoves}}};
    // Against the engine a move in the past replaces the rest of the line (the page asked);
    // on the analysis board it starts a variation, or follows one already there.
    bool changed = false;
    if (settings_.engineColour && kept < moves_.size()) {
        changed = tree_.remove(
            MoveLine(moves_.begin(), moves_.begin() + static_cast<std::ptrdiff_t>(kept) + 1));
    }
    if (!tree_.contains(line)) {
        changed = true;
        tree_.add(line);  // legal: parsed above; the one position the move makes
    }
    if (changed) {
        unsaved_ = true;
        treeChanged();
    }
    showLine(tree_.continuation(line), static_cast<int>(line.size()));
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

std::optional<Say> LascaTable::onTakeback(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {})) return refused(*e);
    if (moves_.empty()) return Say{"server.lasca.noTakeback"};
    std::size_t keep = moves_.size() - 1;
    if (settings_.engineColour) {
        // Back to a position where the person is to move (or the start).
        while (keep > 0 &&
               nodeAt(static_cast<int>(keep)).position.sideToMove() == *settings_.engineColour)
            --keep;
    }
    // The moves from `keep` on leave the tree (the other lines stay); nothing is replayed.
    tree_.remove(MoveLine(moves_.begin(), moves_.begin() + static_cast<std::ptrdiff_t>(keep) + 1));
    movesChanged(keep);
    moves_.resize(keep);
    evals_.resize(keep + 1);
    treeChanged();
    viewPly_ = static_cast<int>(keep);
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

// The line a `line`, `promote` or `delete` message names: its only field, a line of the tree.
// The refusal, or nothing and `line` set.
std::optional<Say> LascaTable::lineInTree(const Json& m, MoveLine& line) const {
    if (auto e = checkFields(m, {"moves"})) return refused(*e);
    auto read = lineField(m, "moves");
    if (!read) return refused(read.error());
    if (!tree_.contains(read.value())) return Say{"server.lasca.lineGone"};
    line = std::move(read).value();
    return std::nullopt;
}

// A line of the tree shown (a click on a move of a variation): to the end of its branch, at
// the clicked move.
std::optional<Say> LascaTable::onLine(const Json& m, Replies& out) {
    MoveLine line;
    if (auto refusal = lineInTree(m, line)) return refusal;
    showLine(tree_.continuation(line), static_cast<int>(line.size()));
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

// A variation one step up among the alternatives (the first alternative becomes the main line).
std::optional<Say> LascaTable::onPromote(const Json& m, Replies& out) {
    MoveLine line;
    if (auto refusal = lineInTree(m, line)) return refusal;
    if (!tree_.promote(line)) return Say{"server.lasca.alreadyMainLine"};
    treeChanged();
    unsaved_ = true;
    out.push_back(stateMessage());
    return std::nullopt;
}

// A move and all that follows it removed; a shown line through it goes back to its parent.
std::optional<Say> LascaTable::onDelete(const Json& m, Replies& out) {
    MoveLine line;
    if (auto refusal = lineInTree(m, line)) return refusal;
    if (line.empty()) return Say{"server.lasca.deleteStart"};
    const bool shown =
        line.size() <= moves_.size() && std::equal(line.begin(), line.end(), moves_.begin());
    tree_.remove(line);
    treeChanged();  // moves_ may leave the tree here: shown again just below
    unsaved_ = true;
    if (shown) {
        const MoveLine parent(line.begin(), line.end() - 1);
        showLine(tree_.continuation(parent), std::min(viewPly_, static_cast<int>(parent.size())));
    }
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

// After the engine failed kMaxEngineFailures times within kEngineFailureWindow: try it again.
std::optional<Say> LascaTable::onRetry(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {})) return refused(*e);
    engineFailures_.clear();
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

std::optional<Say> LascaTable::onView(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {"ply"})) return refused(*e);
    const auto ply = intField(m, "ply", 0, static_cast<std::int64_t>(moves_.size()));
    if (!ply) return refused(ply.error());
    viewPly_ = static_cast<int>(ply.value());
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

std::optional<Say> LascaTable::onAnalyse(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {"on", "multipv"})) return refused(*e);
    const auto on = boolField(m, "on");
    if (!on) return refused(on.error());
    int multiPv = multiPv_;
    if (m.contains("multipv")) {
        const auto v = intField(m, "multipv", 1, kMaxMultiPv);
        if (!v) return refused(v.error());
        multiPv = static_cast<int>(v.value());
    }
    if (analysing_ != on.value() || multiPv_ != multiPv) unsaved_ = true;
    analysing_ = on.value();
    multiPv_ = multiPv;
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

std::optional<Say> LascaTable::onPreview(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {"ply", "moves"})) return refused(*e);
    const auto ply = intField(m, "ply", 0, static_cast<std::int64_t>(moves_.size()));
    if (!ply) return refused(ply.error());
    if (!m.contains("moves") || !m["moves"].is_array()) return refused("moves must be an array");
    const Json& moves = m["moves"];
    if (moves.size() > kMaxPreviewMoves) return refused("moves: at most 64");
    lasca::Game game(nodeAt(static_cast<int>(ply.value())).position);  // a copy for the preview
    Json lastMove = Json::array();
    Json played = Json::array();
    for (const Json& move : moves) {
        if (!move.is_string() || move.get_ref<const std::string&>().size() > kMaxMoveText)
            return refused("moves must be move texts");
        const auto result = game.playText(move.get_ref<const std::string&>());
        if (!result) return moveRefusal(game.current(), move.get_ref<const std::string&>());
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

std::optional<Say> LascaTable::onLfen(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {"lfen"})) return refused(*e);
    const auto text = stringField(m, "lfen", kMaxLfen);
    if (!text) return refused(text.error());
    const auto pos = lasca::Position::fromLfen(text.value());
    if (!pos) return Say{"server.lasca.badLfen"};
    startNewGame(MoveTree(pos.value()), {});
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}

std::optional<Say> LascaTable::onPdnExport(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {})) return refused(*e);
    // The marks go with the moves, and one evaluation per move in its comment: the last
    // whole-game annotation's for this very game ("c3-d4?! {[%eval 0.35]}"), else the one an
    // imported comment carried. The scores the engine reported while it played or analysed are
    // not written: an evaluation in PDN is the annotation's.
    auto pdn = storedGamePdnGame(stored());
    const Json marks = marksJson();
    const bool annotated = !moves_.empty() && marks_.moves == moves_;
    pdn.comments.resize(moves_.size());
    for (std::size_t i = 0; i < moves_.size(); ++i) {
        pdn.annotations.push_back(marks[i].get<std::string>());
        pdn.comments[i] =
            withOneEval(pdn.comments[i], annotated ? marks_.white[i + 1] : std::nullopt);
    }
    out.push_back({{"type", "pdn"}, {"pdn", lasca::writePdn(pdn)}});
    return std::nullopt;
}

std::optional<Say> LascaTable::onPdnImport(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {"pdn"})) return refused(*e);
    const auto text = stringField(m, "pdn", kMaxPdn);
    if (!text) return refused(text.error());
    std::istringstream in(text.value());
    const auto games = lasca::readPdn(in);
    if (!games) return Say{"server.lasca.pdn.unreadable"};
    if (games.value().empty()) return Say{"server.lasca.pdn.noGame"};
    const auto& pdn = games.value().front();
    const auto start = lasca::startOf(pdn);
    if (!start) return Say{"server.lasca.pdn.badStart"};
    if (pdn.moves.size() > kMaxGamePlies)
        return Say{"server.lasca.pdn.tooLong", {{"count", kMaxGamePlies}}};
    // The tree makes each move once. Only when it refuses the game is its main line played
    // again, move by move, to name the bad move's number; a main line that plays means the
    // refused move is in a variation.
    auto full = MoveTree::fromPdn(start.value(), pdn);
    if (!full) {
        lasca::Game game(start.value());
        for (std::size_t i = 0; i < pdn.moves.size(); ++i) {
            if (game.status(lasca::DrawRules{}).over())
                return Say{"server.lasca.pdn.afterEnd", {{"number", i + 1}}};
            const auto move = game.playText(pdn.moves[i]);
            if (!move)
                return Say{"server.lasca.pdn.badMove",
                           {{"number", i + 1}, {"move", common::printable(pdn.moves[i])}}};
        }
        return Say{"server.lasca.pdn.badVariation"};
    }
    if (full.value().size() > kMaxTreeMoves)
        return Say{"server.lasca.pdn.tooManyMoves", {{"count", kMaxTreeMoves}}};
    const MoveLine moves = full.value().mainLine();
    startNewGame(std::move(full).value(), moves);
    reschedule(out);
    out.push_back(stateMessage());
    return std::nullopt;
}
}  // namespace web::lasca_tables
