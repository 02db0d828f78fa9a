// LascaTable and its engine: which search should run, the engine's lines read, its move
// played, the analysis shown, the whole-game annotation, and the engine's failures.
#include <algorithm>
#include <utility>

#include "common/logging.h"
#include "common/text.h"
#include "lasca/analysis/analysis.h"
#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"
#include "lasca/engine/replies.h"
#include "lasca_table_internal.h"
#include "web/lasca_tables/lasca_table.h"
#include "web/messages/messages.h"

namespace web::lasca_tables {

namespace {

// The score for White in centi-soldiers, a mate counting as +-kMateScore.
int whiteScore(const lasca::engine::InfoReply& info, lasca::Color sideToMove) {
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

// An `engine` notice: {"type":"engine","event":...} and its words ({"key","params","text"}).
Json engineNotice(const char* event, const Say& say) {
    Json notice = {{"type", "engine"}, {"event", event}};
    notice.update(messages::said(say));
    return notice;
}

}  // namespace

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
        if (nodeAt(viewPly_).status.over()) return std::nullopt;
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
        if (engine_) engine_->stop();
    }
    if (wanted) startJob(*wanted, out);
}

bool LascaTable::ensureEngine(Replies& out) {
    if (engine_) return true;
    if (const int failures = recentEngineFailures(); failures >= kMaxEngineFailures) {
        out.push_back(errorMessage(Say{"server.lasca.engineUnavailable", {{"count", failures}}}));
        return false;
    }
    auto engine = engineFactory_();
    if (!engine) {
        engineFailed();
        common::logger().error("web: the engine does not start: {}", engine.error());
        out.push_back(errorMessage(Say{"server.lasca.engineNoStart"}));
        return false;
    }
    engine_ = std::move(engine).value();
    jobs_.clear();
    return true;
}

bool LascaTable::startJob(const SearchJob& job, Replies& out) {
    if (!ensureEngine(out)) return false;
    EngineRequest request;
    request.startLfen = tree_.start().toLfen();
    request.moves = job.history;
    if (job.play) {
        request.purpose = EnginePurpose::Move;
        request.nodes = kLevels[static_cast<std::size_t>(settings_.level)].nodes;
    } else if (job.annotate) {
        request.purpose = EnginePurpose::Annotation;
        request.nodes = annotation_->nodes;
    } else {
        request.purpose = EnginePurpose::Analysis;
        request.multiPv = job.multiPv;
    }
    engine_->search(request);
    jobs_.push_back(job);
    lasca::MoveList legal;
    lasca::generateMoves(nodeAt(job.ply).position, legal);
    jobs_.back().legal = static_cast<int>(legal.size());
    analysisLines_.clear();
    return true;
}

std::vector<Json> LascaTable::onEngineLine(std::string_view line) {
    Replies out;
    if (const auto best = lasca::engine::parseBestMove(line))
        onBestMove(*best, out);
    else if (const auto info = lasca::engine::parseInfo(line))
        onInfo(*info, out);
    else if (const auto note = lasca::engine::parseInfoString(line);
             note && note->starts_with("table ") && !jobs_.empty())
        jobs_.front().table = note->substr(6);
    return out;
}

void LascaTable::onInfo(const lasca::engine::InfoReply& reply, Replies& out) {
    if (jobs_.empty() || jobs_.front().cancelled) return;
    const SearchJob& job = jobs_.front();
    if (job.ply >= static_cast<int>(path_.size())) return;
    const auto* info = &reply;
    if (info->bounded() || info->multiPv < 1 || info->multiPv > job.multiPv) return;
    const auto side = nodeAt(job.ply).position.sideToMove();
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
    const int ranks = std::min(job.multiPv, job.legal);
    analysisLines_.resize(static_cast<std::size_t>(job.multiPv));
    analysisLines_[static_cast<std::size_t>(info->multiPv - 1)] = entry;
    if (info->multiPv < ranks) return;  // the depth's other lines are on their way
    Json lines = Json::array();
    for (const auto& l : analysisLines_)
        if (!l.is_null()) lines.push_back(l);
    Json analysis = {{"type", "analysis"},   {"ply", job.ply},   {"depth", info->depth},
                     {"nodes", info->nodes}, {"nps", info->nps}, {"lines", lines}};
    if (!job.table.empty()) analysis["table"] = job.table;
    out.push_back(std::move(analysis));
}

void LascaTable::onBestMove(const lasca::engine::BestMoveReply& best, Replies& out) {
    if (jobs_.empty()) return;
    const SearchJob job = jobs_.front();
    jobs_.pop_front();
    if (job.annotate && !job.cancelled && annotation_ && job.ply == annotation_->next) {
        annotationStep(best.move, out);
        return;
    }
    if (job.cancelled || !job.play) return;
    if (best.move.empty() || best.move == "0000") return;
    std::string text(best.move);
    const lasca::Position& current = path_.back()->position;
    const Level& level = kLevels[static_cast<std::size_t>(settings_.level)];
    if (level.randomPercent > 0) {
        // A weakened level: the engine's move may give way to another legal move (levelMove).
        lasca::MoveList list;
        lasca::generateMoves(current, list);
        std::vector<std::string> legal;
        for (const lasca::Move& m : list) legal.push_back(lasca::formatMove(m));
        const auto engineMove = lasca::parseMove(current, text);
        const auto at = engineMove ? std::find(legal.begin(), legal.end(),
                                               lasca::formatMove(engineMove.value()))
                                   : legal.end();
        if (!legal.empty() && at != legal.end()) {
            const auto index = levelMove(
                level, current.key(), static_cast<std::size_t>(at - legal.begin()), legal.size());
            text = legal[index];
        }
    }
    const auto move = lasca::parseMove(current, text);
    if (!move) {
        out.push_back(errorMessage(
            Say{"server.lasca.engineIllegalMove", {{"move", common::printable(text)}}}));
        return;
    }
    movesChanged(moves_.size());
    moves_.push_back(lasca::formatMove(move.value()));
    tree_.add(moves_);  // the one position the move makes
    treeChanged();
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
        out.push_back(engineNotice("restarted", Say{"server.lasca.engineRestarted"}));
    else if (recentEngineFailures() < kMaxEngineFailures)
        out.push_back(errorMessage(Say{"server.lasca.engineStopped"}));
    out.push_back(stateMessage());
    return out;
}

// The search the table asked for waits behind `ahead` others on a shared engine (0: its turn
// came). Nothing when no search of the table waits any more.
std::vector<Json> LascaTable::onEngineBusy(int ahead) {
    if (!activeJob()) return {};
    auto notice = ahead <= 0
                      ? engineNotice("serving", Say{"server.lasca.engineServing"})
                      : engineNotice("busy", Say{"server.lasca.engineBusy", {{"count", ahead}}});
    notice["ahead"] = std::max(ahead, 0);
    return {notice};
}

// ---- Whole-game annotation -------------------------------------------------------------------

// {"type":"annotate","nodes":N} searches every position of the game at N nodes, then marks each
// move; {"type":"annotate","cancel":true} stops it. Progress: {"type":"annotate","event":...}.
std::optional<Say> LascaTable::onAnnotate(const Json& m, Replies& out) {
    if (auto e = checkFields(m, {"nodes", "cancel"})) return refused(*e);
    if (m.contains("cancel")) {
        if (!m["cancel"].is_boolean() || !m["cancel"].get<bool>())
            return refused("cancel must be true");
        if (!annotation_) return Say{"server.lasca.noAnnotation"};
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
    if (!nodes) return refused(nodes.error());
    if (moves_.empty()) return Say{"server.lasca.nothingToAnnotate"};
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
        const auto& status = nodeAt(a.next).status;
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
    marks_.white = a.white;
    for (std::size_t i = 0; i < a.moves.size(); ++i) {
        if (a.white[i]) evals_[i] = a.white[i];
        const lasca::Position& before = nodeAt(static_cast<int>(i)).position;
        const auto mover = before.sideToMove();
        if (!a.white[i] || !a.white[i + 1]) continue;
        const int sign = mover == lasca::Color::White ? 1 : -1;
        const double chanceBefore = lasca::analysis::winningChance(sign * *a.white[i]);
        const double chanceAfter = lasca::analysis::winningChance(sign * *a.white[i + 1]);
        const auto best = lasca::parseMove(before, a.best[i]);
        const bool playedBest = best && lasca::formatMove(best.value()) == a.moves[i];
        const double drop = playedBest ? 0.0 : std::max(0.0, chanceBefore - chanceAfter);
        marks_.marks[i] = lasca::analysis::markGlyph(lasca::analysis::classifyDrop(drop));
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

// One more failure; the engine is given up at kMaxEngineFailures within kEngineFailureWindow
// (it stays given up, time alone does not bring it back: a retry or a new game does).
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

}  // namespace web::lasca_tables
