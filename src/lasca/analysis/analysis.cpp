#include "lasca/analysis/analysis.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/progress.h"
#include "lasca/core/notation.h"
#include "lasca/egtb/egtb.h"

namespace lasca::analysis {

namespace {

using Json = nlohmann::ordered_json;

Score forWhite(Score score, Color side) {
    return side == Color::White ? score : -score;
}

// The score of a position whose game is over, for the side to move there.
Score verdictScore(const GameStatus& status) {
    return status.termination == Termination::NoLegalMove ? -kMate : kDraw;
}

Score capped(Score score) {
    return std::clamp(score, -kLossCap, kLossCap);
}

// The move number shown before ply `ply` of a game starting at `start`.
int moveNumberAt(const Position& start, int ply) {
    const int offset = start.sideToMove() == Color::Black ? 1 : 0;
    return start.moveNumber() + (ply + offset) / 2;
}

// Replays the record's moves from its start: every move legal, none after the game's end.
common::Result<std::vector<Move>> replayMoves(const PdnGame& pdn, const Position& start,
                                              const DrawRules& rules) {
    Game game(start);
    std::vector<Move> moves;
    for (std::size_t i = 0; i < pdn.moves.size(); ++i) {
        const std::string ply = "ply " + std::to_string(i + 1) + ": ";
        if (game.status(rules).over())
            return common::makeError(ply + "move '" + pdn.moves[i] + "' after the game ended");
        auto played = game.playText(pdn.moves[i]);
        if (!played) return common::makeError(ply + played.error());
        moves.push_back(played.value());
    }
    return moves;
}

// Judges one move from the searches of the positions before and after it.
MoveAnalysis judgeMove(int ply, Color mover, const Move& played, PositionAnalysis before,
                       Score afterForMover, int afterDepth, bool overAfter,
                       const AnalysisOptions& options) {
    MoveAnalysis m;
    m.ply = ply;
    m.mover = mover;
    m.played = played;
    m.before = std::move(before);
    m.afterScore = afterForMover;
    m.afterDepth = afterDepth;
    m.gameOverAfter = overAfter;
    const Score best = m.before.best().score;
    m.chanceBefore = winningChance(best, options.scale);
    m.chanceAfter = winningChance(afterForMover, options.scale);
    if (!m.playedBest()) {
        m.drop = std::max(0.0, m.chanceBefore - m.chanceAfter);
        m.cpLoss = std::max(0, capped(best) - capped(afterForMover));
    }
    m.mark = classifyDrop(m.drop, options.thresholds);
    return m;
}

std::string percent(double chance) {
    return std::to_string(static_cast<int>(std::lround(100 * chance)));
}

// "e3-f4 (0.10)": a line's first move and its score for White (`side` is to move).
std::string lineText(const PvLine& line, Color side) {
    return formatMove(line.pv.front()) + " (" + formatEval(line.score, side) + ")";
}

// The comment after a move: eval and depth of the position reached, then the mark, the better
// move and the other lines.
std::string moveComment(const MoveAnalysis& m) {
    std::string text;
    if (!m.gameOverAfter)
        text = "[%eval " + formatEval(-m.afterScore, ~m.mover) + "] [%depth " +
               std::to_string(m.afterDepth) + "]";
    std::vector<std::string> notes;
    if (!m.tableAfter.empty()) notes.push_back("table: " + m.tableAfter);
    if (m.mark != Mark::None)
        notes.push_back(std::string(markName(m.mark)) + " (-" + percent(m.drop) + "%)");
    if (!m.playedBest()) notes.push_back("best " + lineText(m.before.best(), m.mover));
    if (m.before.lines.size() > 1) {
        std::string lines = "lines";
        for (const PvLine& line : m.before.lines) lines += " " + lineText(line, m.mover);
        notes.push_back(lines);
    }
    for (std::size_t i = 0; i < notes.size(); ++i) {
        if (!text.empty()) text += i == 0 ? " " : ", ";
        text += notes[i];
    }
    return text;
}

void setTag(PdnGame& game, const std::string& name, const std::string& value) {
    for (auto& [n, v] : game.tags)
        if (n == name) {
            v = value;
            return;
        }
    game.tags.emplace_back(name, value);
}

// `value` to `digits` decimals, as the nearest double (0.0185, not 0.018500000000000003).
double rounded(double value, int digits) {
    const double scale = std::pow(10.0, digits);
    return std::round(value * scale) / scale;
}

// A score of a position (for the side to move there) as JSON, from White's point of view: eval
// in soldiers, or mate in moves as formatEval counts them; the other is null.
void putScore(Json& j, const std::string& prefix, Score score, Color sideToMove) {
    const bool mate = search::isMateScore(score);
    j[prefix + "eval"] = mate ? Json() : Json(forWhite(score, sideToMove) / 100.0);
    j[prefix + "mate"] = mate ? Json(forWhite(search::mateInMoves(score), sideToMove)) : Json();
}

Json pvJson(const std::vector<Move>& pv) {
    Json moves = Json::array();
    for (const Move& m : pv) moves.push_back(formatMove(m));
    return moves;
}

Json moveJson(const GameAnalysis& game, const MoveAnalysis& m, const Position& before) {
    Json j;
    j["type"] = "move";
    j["game"] = game.index + 1;
    j["ply"] = m.ply + 1;
    j["move_number"] = moveNumberAt(game.start, m.ply);
    j["side"] = colorName(m.mover);
    j["fen"] = before.toLfen();
    j["move"] = formatMove(m.played);
    j["game_over"] = m.gameOverAfter;
    if (m.gameOverAfter) {
        j["eval"] = Json();
        j["mate"] = Json();
    } else {
        putScore(j, "", -m.afterScore, ~m.mover);
    }
    j["depth"] = m.afterDepth;
    j["table"] = m.tableAfter.empty() ? Json() : Json(m.tableAfter);
    j["best"] = formatMove(m.before.bestMove());
    putScore(j, "best_", m.before.best().score, m.mover);
    j["best_depth"] = m.before.best().depth;
    j["nodes"] = m.before.nodes;
    j["chance_before"] = rounded(m.chanceBefore, 4);
    j["chance_after"] = rounded(m.chanceAfter, 4);
    j["drop"] = rounded(m.drop, 4);
    j["cp_loss"] = m.cpLoss;
    j["mark"] = markGlyph(m.mark);
    Json lines = Json::array();
    for (const PvLine& line : m.before.lines) {
        Json l;
        l["move"] = formatMove(line.pv.front());
        putScore(l, "", line.score, m.mover);
        l["depth"] = line.depth;
        l["pv"] = pvJson(line.pv);
        lines.push_back(l);
    }
    j["lines"] = lines;
    return j;
}

Json summaryJson(const PlayerSummary& s) {
    Json j;
    j["moves"] = s.moves;
    j["average_loss"] = rounded(s.averageDrop(), 4);
    j["average_cp_loss"] = rounded(s.averageCpLoss(), 1);
    j["inaccuracies"] = s.count(Mark::Inaccuracy);
    j["mistakes"] = s.count(Mark::Mistake);
    j["blunders"] = s.count(Mark::Blunder);
    return j;
}

Json gameJson(const GameAnalysis& game) {
    Json j;
    j["type"] = "game";
    j["game"] = game.index + 1;
    j["white"] = game.pdn.tag("White").value_or("?");
    j["black"] = game.pdn.tag("Black").value_or("?");
    j["result"] = game.pdn.result;
    j["plies"] = game.moves.size();
    j["positions"] = game.positions;
    j["nodes"] = game.nodes;
    j["summary"] = {{"white", summaryJson(game.players[0])},
                    {"black", summaryJson(game.players[1])}};
    return j;
}

std::string plural(int count, const char* one, const char* many) {
    return std::to_string(count) + " " + (count == 1 ? one : many);
}

}  // namespace

double winningChance(Score score, double scale) {
    if (score >= kMateBound) return 1.0;
    if (score <= -kMateBound) return 0.0;
    return 1.0 / (1.0 + std::exp(-static_cast<double>(score) / scale));
}

Mark classifyDrop(double drop, const MarkThresholds& t) {
    if (drop >= t.blunder) return Mark::Blunder;
    if (drop >= t.mistake) return Mark::Mistake;
    if (drop >= t.inaccuracy) return Mark::Inaccuracy;
    return Mark::None;
}

const char* markGlyph(Mark mark) {
    constexpr const char* kGlyphs[] = {"", "?!", "?", "??"};
    return kGlyphs[static_cast<std::size_t>(mark)];
}

const char* markName(Mark mark) {
    constexpr const char* kNames[] = {"", "inaccuracy", "mistake", "blunder"};
    return kNames[static_cast<std::size_t>(mark)];
}

std::string formatEval(Score score, Color sideToMove) {
    // The distance in moves counts from the side to move; only its sign changes for White.
    if (search::isMateScore(score))
        return "#" + std::to_string(forWhite(search::mateInMoves(score), sideToMove));
    return common::formatFixed(forWhite(score, sideToMove) / 100.0, 2);
}

void PlayerSummary::add(const MoveAnalysis& move) {
    ++moves;
    totalDrop += move.drop;
    totalCpLoss += move.cpLoss;
    ++marks[static_cast<std::size_t>(move.mark)];
}

void PlayerSummary::add(const PlayerSummary& other) {
    moves += other.moves;
    totalDrop += other.totalDrop;
    totalCpLoss += other.totalCpLoss;
    for (std::size_t i = 0; i < marks.size(); ++i) marks[i] += other.marks[i];
}

double PlayerSummary::averageDrop() const {
    return moves == 0 ? 0.0 : totalDrop / moves;
}

double PlayerSummary::averageCpLoss() const {
    return moves == 0 ? 0.0 : static_cast<double>(totalCpLoss) / moves;
}

std::string summaryText(const PlayerSummary& s) {
    return "average loss " + common::formatFixed(100 * s.averageDrop(), 1) + "% (" +
           common::formatFixed(s.averageCpLoss(), 0) + " cs), " +
           plural(s.count(Mark::Inaccuracy), "inaccuracy", "inaccuracies") + ", " +
           plural(s.count(Mark::Mistake), "mistake", "mistakes") + ", " +
           plural(s.count(Mark::Blunder), "blunder", "blunders");
}

common::Result<GameAnalysis> analyseGame(int gameIndex, const PdnGame& pdn, Analyser& analyser,
                                         const AnalysisOptions& options) {
    auto start = startOf(pdn);
    if (!start) return common::makeError(start.error());
    const DrawRules rules = analyser.settings().rules;
    auto moves = replayMoves(pdn, start.value(), rules);
    if (!moves) return common::makeError(moves.error());

    GameAnalysis out;
    out.index = gameIndex;
    out.pdn = pdn;
    out.start = start.value();
    analyser.clear();
    // Every position in order, start first: its search, or the rules' verdict at the end.
    std::vector<PositionAnalysis> searches;
    std::vector<Score> sideScores;
    Game game(out.start);
    for (std::size_t i = 0; i <= moves.value().size(); ++i) {
        const GameStatus status = game.status(rules);
        searches.push_back(status.over() ? PositionAnalysis{} : analyser.analyse(game));
        sideScores.push_back(status.over() ? verdictScore(status) : searches.back().best().score);
        out.whiteScores.push_back(forWhite(sideScores.back(), game.current().sideToMove()));
        if (!status.over()) {
            ++out.positions;
            out.nodes += searches.back().nodes;
        }
        if (i < moves.value().size()) game.play(moves.value()[i]);
    }
    Color mover = out.start.sideToMove();
    for (std::size_t i = 0; i < moves.value().size(); ++i, mover = ~mover) {
        const bool overAfter = !searches[i + 1].hasMove();
        const int depthAfter = overAfter ? 0 : searches[i + 1].best().depth;
        out.moves.push_back(judgeMove(static_cast<int>(i), mover, moves.value()[i],
                                      std::move(searches[i]), -sideScores[i + 1], depthAfter,
                                      overAfter, options));
        if (const auto& table = searches[i + 1].table)
            out.moves.back().tableAfter = egtb::verdictText(*table, ~mover);
        out.players[static_cast<std::size_t>(index(mover))].add(out.moves.back());
    }
    return out;
}

PdnGame annotatedPdn(const GameAnalysis& game, const std::string& annotator) {
    PdnGame pdn = game.pdn;
    setTag(pdn, "Annotator", annotator);
    pdn.comment =
        "White: " + summaryText(game.players[0]) + ". Black: " + summaryText(game.players[1]) + ".";
    pdn.annotations.clear();
    // The marks are the analysis's: a move-assessment glyph read with the game ($1..$6, or a
    // mark) gives way to it; other glyphs stay.
    for (Nags& glyphs : pdn.nags)
        std::erase_if(glyphs, [](int nag) { return nag >= 1 && nag <= 6; });
    for (const MoveAnalysis& m : game.moves) {
        const std::string comment = moveComment(m);
        std::string annotation = markGlyph(m.mark);
        if (!comment.empty()) annotation += " {" + comment + "}";
        pdn.annotations.push_back(annotation);
    }
    return pdn;
}

std::vector<std::string> jsonLines(const GameAnalysis& game) {
    std::vector<std::string> lines;
    Game replay(game.start);
    for (const MoveAnalysis& m : game.moves) {
        lines.push_back(moveJson(game, m, replay.current()).dump());
        replay.play(m.played);
    }
    lines.push_back(gameJson(game).dump());
    return lines;
}

std::vector<ChancePoint> chanceCurve(const GameAnalysis& game, double scale) {
    std::vector<ChancePoint> points;
    for (std::size_t i = 0; i < game.whiteScores.size(); ++i)
        points.push_back({winningChance(game.whiteScores[i], scale),
                          i == 0 ? 0 : static_cast<int>(game.moves[i - 1].mark)});
    return points;
}

}  // namespace lasca::analysis
