// WebSeat::view (torneio_table.h): a person's seat as its page shows it, as JSON: built from the
// seat's SeatView (what the referee sent it) alone; each log entry with its catalogue key
// (web_seat_words.h).
#include "torneio/rules/action.h"
#include "torneio/rules/geometry.h"
#include "web/torneio_tables/torneio_table.h"
#include "web/torneio_tables/web_seat_words.h"

namespace web::torneio_tables {

namespace {

const char* requestKindName(torneio::RequestKind kind) {
    switch (kind) {
        case torneio::RequestKind::SetUp:
            return "setup";
        case torneio::RequestKind::Turn:
            return "turn";
        case torneio::RequestKind::RetreatOrder:
            return "order";
        case torneio::RequestKind::Withdraw:
            return "withdraw";
        case torneio::RequestKind::Reward:
            return "reward";
    }
    return "";
}

}  // namespace

Json WebSeat::choicesJson() const {
    Json choices = Json::array();
    if (!pending_ || pending_->kind == torneio::RequestKind::SetUp) return choices;
    const auto& geometry = game_->geometry();
    for (const auto& action : torneio::legalActions(*pending_, game_->knowledge().own(), geometry))
        choices.push_back(torneio::formatAction(action, geometry));
    return choices;
}

Json WebSeat::view(std::size_t linesFrom, std::size_t logFrom) const {
    std::lock_guard lock(mutex_);
    Json view = {{"type", "torneio.view"}, {"linesFrom", linesFrom}, {"logFrom", logFrom}};
    Json lines = Json::array();
    for (std::size_t i = linesFrom; i < lines_.size(); ++i) lines.push_back(lines_[i]);
    view["lines"] = lines;
    view["lineCount"] = lines_.size();
    if (!game_) {
        view["started"] = false;
        view["log"] = Json::array();
        view["logCount"] = 0;
        return view;
    }
    const auto& k = game_->knowledge();
    const auto& geometry = game_->geometry();
    const auto& params = geometry.params();
    const int seats = params.seats;
    Json own = Json::array();
    for (int p = 0; p < torneio::kPiecesPerSeat; ++p) {
        const auto& piece = k.own()[p];
        own.push_back({{"piece", p},
                       {"square", piece.alive ? geometry.name(piece.square) : ""},
                       {"strength", piece.strength},
                       {"alive", piece.alive}});
    }
    Json others = Json::array();
    for (int s = 0; s < seats; ++s)
        others.push_back({{"seat", s + 1},
                          {"out", k.eliminated(s)},
                          {"gained", k.pointsGained(s)},
                          {"moves", game_->moves(s)},
                          {"side", torneio::sideName(torneio::sideOfSeat(seats, s))}});
    Json sightings = Json::array();
    for (const auto& s : game_->sightings())
        sightings.push_back({{"seat", s.seat + 1},
                             {"square", geometry.name(s.square)},
                             {"strength", s.strength},
                             {"round", s.round},
                             {"movesSince", game_->movesSince(s)},
                             {"withdrew", s.withdrew}});
    Json zone = Json::array();
    for (const auto sq : geometry.zone(k.seat())) zone.push_back(geometry.name(sq));
    Json log = Json::array();
    const auto& entries = game_->log();
    for (std::size_t i = logFrom; i < entries.size(); ++i)
        log.push_back(logEntryJson(entries[i], k.seat(), geometry));
    Json request = nullptr;
    if (pending_)
        request = {{"line", pendingLine_},
                   {"kind", requestKindName(pending_->kind)},
                   {"choices", choicesJson()}};
    Json outcome = nullptr;
    if (k.over()) {
        Json winners = Json::array();
        for (int s = 0; s < seats; ++s)
            if (k.outcome().seats & (1u << s)) winners.push_back(s + 1);
        outcome = {{"draw", k.outcome().kind == torneio::OutcomeKind::Draw}, {"seats", winners}};
    }
    view.update({{"started", true},
                 {"seat", k.seat() + 1},
                 {"seats", seats},
                 {"boardSize", geometry.size()},
                 {"strengthTotal", params.strengthTotal},
                 {"minStrength", params.minStrength},
                 {"maxRounds", params.maxRounds},
                 {"round", k.round()},
                 {"turnSeat", k.turnSeat() + 1},
                 {"own", own},
                 {"players", others},
                 {"sightings", sightings},
                 {"zone", zone},
                 {"log", log},
                 {"logCount", entries.size()},
                 {"request", request},
                 {"over", k.over()},
                 {"outcome", outcome}});
    return view;
}

}  // namespace web::torneio_tables
