#include "web/torneio_tables/torneio_table.h"

#include <atomic>
#include <chrono>

#include <span>
#include <utility>

#include "common/logging.h"
#include "common/seed.h"
#include "common/text.h"
#include "torneio/play/player.h"
#include "torneio/referee/game.h"
#include "torneio/rules/action.h"
#include "torneio/rules/geometry.h"

namespace web::torneio_tables {

using store::StoredTorneioTable;

namespace {

// Hang guard for one decision of an AI seat (persons have none, see WebSeat).
constexpr std::chrono::minutes kAiDecisionGuard{2};

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

std::string firstWord(std::string_view line) {
    const auto tokens = common::splitWhitespace(line);
    return tokens.empty() ? std::string() : std::string(tokens[0]);
}

// StoppableSeat: an in-process AI seat that a closing table can cut off from the referee
// thread: once stop is set, sends fail and receives report the connection closed, so the
// referee ends the game quickly (the AI is disqualified, as a crashed program would be).
class StoppableSeat : public torneio::referee::Seat {
  public:
    StoppableSeat(std::unique_ptr<torneio::referee::Seat> inner,
                  std::shared_ptr<std::atomic<bool>> stop)
        : inner_(std::move(inner)), stop_(std::move(stop)) {}
    bool send(std::string_view line) override { return !*stop_ && inner_->send(line); }
    bool flush() override { return !*stop_ && inner_->flush(); }
    common::ReadStatus receive(std::string& line,
                               common::SteadyClock::time_point deadline) override {
        if (*stop_) return common::ReadStatus::Closed;
        return inner_->receive(line, deadline);
    }
    void close() override { inner_->close(); }
    bool open() const override { return !*stop_ && inner_->open(); }

  private:
    std::unique_ptr<torneio::referee::Seat> inner_;
    std::shared_ptr<std::atomic<bool>> stop_;
};

// ReplaySeat: a seat of a restored table while the referee replays the kept game from its
// start. Every line passes both ways, but each request the seat had answered is answered with
// the kept action: a person's seat is given it as the person's reply (WebSeat::submit), so that
// its view and pending request come out as they were; an AI's own reply is read and replaced
// (its knowledge comes from its own lines only, as in play). Past the seat's last kept decision
// it only passes lines.
class ReplaySeat : public torneio::referee::Seat {
  public:
    // live: called once a request goes out that no kept decision answers (the replay is done).
    ReplaySeat(torneio::referee::Seat* inner, WebSeat* person, std::deque<std::string> kept,
               std::function<void()> live)
        : inner_(inner), person_(person), kept_(std::move(kept)), live_(std::move(live)) {}
    bool send(std::string_view line) override {
        const bool request = firstWord(line) == "request";
        if (kept_.empty() || !request) {
            const bool sent = inner_->send(line);
            if (request) live_();
            return sent;
        }
        if (!person_) {  // an AI decides, and its reply is replaced
            replacing_ = true;
            return inner_->send(line);
        }
        if (auto refused = person_->sendAnswered(line, kept_.front())) {
            common::logger().error("web: torneio replay: kept decision '{}' refused: {}",
                                   kept_.front(), *refused);
            kept_.clear();  // the person decides from here
            const bool sent = inner_->send(line);
            live_();
            return sent;
        }
        kept_.pop_front();
        return true;
    }
    bool flush() override { return inner_->flush(); }
    common::ReadStatus receive(std::string& line,
                               common::SteadyClock::time_point deadline) override {
        const auto status = inner_->receive(line, deadline);
        if (status == common::ReadStatus::Line && replacing_) {
            line = std::move(kept_.front());
            kept_.pop_front();
            replacing_ = false;
        }
        return status;
    }
    void close() override { inner_->close(); }
    bool open() const override { return inner_->open(); }

  private:
    torneio::referee::Seat* inner_;
    WebSeat* person_;
    std::deque<std::string> kept_;
    std::function<void()> live_;
    bool replacing_ = false;
};

// The result of a finished game as the store keeps it: "win 2", "draw 1 3" (seats 1..N).
std::string resultText(const torneio::Outcome& outcome, int seats) {
    std::string text = outcome.kind == torneio::OutcomeKind::Draw ? "draw" : "win";
    for (int s = 0; s < seats; ++s)
        if (outcome.seats & (1u << s)) text += " " + std::to_string(s + 1);
    return text;
}

}  // namespace

// ---- WebSeat -----------------------------------------------------------------------------------

bool WebSeat::send(std::string_view line) {
    bool changed = false;
    {
        std::lock_guard lock(mutex_);
        if (closed_) return false;
        const auto word = firstWord(line);
        if (word == "torneio") {
            replies_.push_back("torneiook");
        } else if (word == "isready") {
            replies_.push_back("readyok");
        } else if (word == "quit") {
            closed_ = true;
        } else if (word == "newgame") {
            auto game = torneio::person::SeatView::start(line);
            if (!game) {
                common::logger().error("web: torneio seat: {}", game.error());
                return true;
            }
            game_ = std::move(game).value();
            random_.reseed(game_->seed());
            lines_.emplace_back(line);
            changed = true;
        } else if (word == "event" && game_) {
            if (auto taken = game_->takeEvent(line); !taken)
                common::logger().error("web: torneio seat: {}", taken.error());
            lines_.emplace_back(line);
            changed = true;
        } else if (word == "request" && game_) {
            auto request = game_->readRequest(line);
            if (request) {
                pending_ = std::move(request).value();
                pendingLine_ = std::string(line);
            } else {
                common::logger().error("web: torneio seat: {}", request.error());
            }
            lines_.emplace_back(line);
            changed = true;
        }
    }
    replied_.notify_all();
    if (changed) changed_();
    return true;
}

common::ReadStatus WebSeat::receive(std::string& line, common::SteadyClock::time_point) {
    std::unique_lock lock(mutex_);
    replied_.wait(lock, [this] { return !replies_.empty() || closed_; });
    if (replies_.empty()) return common::ReadStatus::Closed;
    line = std::move(replies_.front());
    replies_.pop_front();
    return common::ReadStatus::Line;
}

void WebSeat::close() {
    {
        std::lock_guard lock(mutex_);
        closed_ = true;
        pending_.reset();
    }
    replied_.notify_all();
}

bool WebSeat::open() const {
    std::lock_guard lock(mutex_);
    return !closed_;
}

std::optional<std::string> WebSeat::submit(std::string_view text) {
    {
        std::lock_guard lock(mutex_);
        if (!pending_ || !game_) return "no decision is asked of this seat now";
        const auto& geometry = game_->geometry();
        const auto& own = game_->knowledge().own();
        torneio::Action action;
        if (text == "random") {
            action = torneio::randomAction(*pending_, own, geometry, random_);
        } else {
            auto parsed = torneio::parseAction(text, geometry);
            if (!parsed) return parsed.error();
            action = parsed.value();
        }
        if (auto legal = torneio::checkAction(*pending_, own, geometry, action); !legal)
            return legal.error();
        replies_.push_back(torneio::formatAction(action, geometry));
        pending_.reset();
    }
    replied_.notify_all();
    changed_();
    return std::nullopt;
}

std::optional<std::string> WebSeat::sendAnswered(std::string_view requestLine,
                                                 std::string_view reply) {
    {
        std::lock_guard lock(mutex_);
        if (closed_) return "the seat is closed";
        if (!game_) return "no game";
        const auto request = game_->readRequest(requestLine);
        if (!request) return request.error();
        const auto& geometry = game_->geometry();
        auto action = torneio::parseAction(reply, geometry);
        if (!action) return action.error();
        if (auto legal = torneio::checkAction(request.value(), game_->knowledge().own(), geometry,
                                              action.value());
            !legal)
            return legal.error();
        lines_.emplace_back(requestLine);
        replies_.push_back(torneio::formatAction(action.value(), geometry));
    }
    replied_.notify_all();
    changed_();
    return std::nullopt;
}

std::size_t WebSeat::lineCount() const {
    std::lock_guard lock(mutex_);
    return lines_.size();
}

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
        log.push_back({{"round", entries[i].round}, {"text", entries[i].text}});
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

// ---- TorneioTable ------------------------------------------------------------------------------

common::Result<std::shared_ptr<TorneioTable>> TorneioTable::create(
    const std::vector<TorneioSeatChoice>& seats, int rounds, std::uint64_t seed,
    TorneioTableHooks hooks) {
    if (seats.size() < 2 || seats.size() > 4) return common::makeError("seats: 2 to 4 seats");
    auto params = torneio::defaultParams(static_cast<int>(seats.size()));
    params.maxRounds = rounds;
    auto table = make(seats, params, seed, std::move(hooks));
    if (!table) return table;
    table.value()->id_ = common::randomHex(6);
    for (std::size_t s = 0; s < seats.size(); ++s) {
        if (seats[s].kind != "person") continue;
        table.value()->newTokens_[s] = common::randomHex(16);
        table.value()->tokenHashes_[s] = common::hashSecret(table.value()->newTokens_[s]);
    }
    return table;
}

common::Result<std::shared_ptr<TorneioTable>> TorneioTable::restore(const StoredTorneioTable& kept,
                                                                    TorneioTableHooks hooks) {
    const auto params = torneio::parseParams(kept.params);
    if (!params) return common::makeError("table " + kept.id + ": " + params.error());
    if (static_cast<int>(kept.seats.size()) != params.value().seats)
        return common::makeError("table " + kept.id + ": the seats do not match its parameters");
    std::vector<TorneioSeatChoice> choices;
    for (const auto& seat : kept.seats) choices.push_back({seat.kind, seat.level});
    auto table = make(choices, params.value(), kept.seed, std::move(hooks));
    if (!table) return common::makeError("table " + kept.id + ": " + table.error());
    for (std::size_t s = 0; s < kept.seats.size(); ++s) {
        const bool person = kept.seats[s].kind == "person";
        if (person != !kept.seats[s].tokenHash.empty())
            return common::makeError("table " + kept.id + ": seat " + std::to_string(s + 1) +
                                     " has no token");
        table.value()->tokenHashes_[s] = kept.seats[s].tokenHash;
    }
    for (const auto& decision : kept.decisions)
        if (decision.seat < 0 || decision.seat >= params.value().seats)
            return common::makeError("table " + kept.id + ": a decision of no seat");
    table.value()->id_ = kept.id;
    table.value()->replay_ = kept.decisions;
    table.value()->replaying_->store(!kept.decisions.empty());
    table.value()->endKept_ = !kept.result.empty();
    return table;
}

common::Result<std::shared_ptr<TorneioTable>> TorneioTable::make(
    const std::vector<TorneioSeatChoice>& seats, const torneio::Params& params, std::uint64_t seed,
    TorneioTableHooks hooks) {
    if (seats.size() < 2 || seats.size() > 4) return common::makeError("seats: 2 to 4 seats");
    const auto valid = torneio::validateParams(params);
    if (!valid) return common::makeError(valid.error());
    std::shared_ptr<TorneioTable> table(new TorneioTable());
    table->choices_ = seats;
    table->params_ = valid.value();
    table->seed_ = seed;
    table->hooks_ = std::move(hooks);
    for (std::size_t s = 0; s < seats.size(); ++s) {
        const auto& choice = seats[s];
        const int seat = static_cast<int>(s);
        table->newTokens_.emplace_back();
        table->tokenHashes_.emplace_back();
        table->aiSeats_.push_back(nullptr);
        if (choice.kind == "person") {
            auto changed = table->hooks_.seatChanged;
            table->webSeats_.push_back(std::make_shared<WebSeat>([changed, seat] {
                if (changed) changed(seat);
            }));
            continue;
        }
        table->webSeats_.push_back(nullptr);
        if (!torneio::play::makePlayer(choice.kind))
            return common::makeError("seat " + std::to_string(s + 1) + ": unknown player kind '" +
                                     common::printable(choice.kind) + "'");
        if (choice.level < 0 ||
            choice.level >= static_cast<int>(std::size(torneio::play::kAiLevels)))
            return common::makeError("seat " + std::to_string(s + 1) + ": level out of range");
    }
    return table;
}

StoredTorneioTable TorneioTable::stored() const {
    StoredTorneioTable kept;
    kept.id = id_;
    kept.params = torneio::formatParams(params_);
    kept.seed = seed_;
    for (std::size_t s = 0; s < choices_.size(); ++s)
        kept.seats.push_back({choices_[s].kind, choices_[s].level, tokenHashes_[s]});
    return kept;
}

void TorneioTable::start() {
    thread_ = std::thread([this] { play(); });
}

TorneioTable::~TorneioTable() {
    stop_->store(true);  // first: the game's end by closed seats is not its end by the rules
    for (const auto& seat : webSeats_)
        if (seat) seat->close();
    if (thread_.joinable()) thread_.join();
}

void TorneioTable::play() {
    torneio::referee::Limits limits;
    limits.decision = kAiDecisionGuard;
    std::vector<torneio::referee::Seat*> seats;
    std::vector<std::string> names;
    for (std::size_t s = 0; s < choices_.size(); ++s) {
        const auto& choice = choices_[s];
        torneio::referee::SeatSpec spec;
        if (webSeats_[s]) {
            spec.name = "person-" + std::to_string(s + 1);
            spec.kind = torneio::referee::SeatKind::Human;
            seats.push_back(webSeats_[s].get());
        } else {
            spec.name = choice.kind + "-" + std::to_string(s + 1);
            spec.kind = torneio::referee::SeatKind::InProcess;
            // The seat's own seed comes in its `newgame` line (seatSeed, one-way).
            spec.options = {{"Player", choice.kind}};
            if (choice.kind == "ai")
                spec.options.emplace_back(
                    "Level", torneio::play::kAiLevels[static_cast<std::size_t>(choice.level)].name);
            auto opened = torneio::referee::openSeat(spec, "");
            if (opened) {
                aiSeats_[s] = std::make_unique<StoppableSeat>(std::move(opened).value(), stop_);
            }
            seats.push_back(aiSeats_[s].get());
        }
        names.push_back(spec.name);
        if (seats.back() && !torneio::referee::handshake(*seats.back(), spec, limits))
            seats.back() = nullptr;
    }
    // A restored table: each seat gives back its kept decisions while the game is replayed,
    // until a request goes out that none answers (or the game ends): the replay is done.
    auto replayed = [this] {
        if (replaying_->exchange(false) && hooks_.replayed) hooks_.replayed();
    };
    std::vector<std::unique_ptr<torneio::referee::Seat>> replaying;
    if (!replay_.empty()) {
        for (std::size_t s = 0; s < seats.size(); ++s) {
            if (!seats[s]) continue;
            std::deque<std::string> kept;
            for (const auto& decision : replay_)
                if (decision.seat == static_cast<int>(s)) kept.push_back(decision.action);
            replaying.push_back(std::make_unique<ReplaySeat>(seats[s], webSeats_[s].get(),
                                                             std::move(kept), replayed));
            seats[s] = replaying.back().get();
        }
    }
    const torneio::Geometry geometry(params_);
    torneio::referee::GameSetup setup{params_, seed_, names, {}, {}, {}, {}};
    setup.decided = [this, &geometry](int seat, const torneio::Action& action) {
        const std::size_t n = decisions_++;
        if (n < replay_.size() || !hooks_.decided) return;  // kept already
        hooks_.decided(n, {seat, torneio::formatAction(action, geometry)});
    };
    // The end is kept before a seat is told the game is over (the referee calls this first).
    setup.ended = [this](const torneio::Record& record) {
        if (!stop_->load() && !endKept_ && hooks_.ended)
            hooks_.ended(resultText(record.outcome, params_.seats), record);
    };
    auto result = torneio::referee::playGame(seats, setup, limits);
    replayed();
    {
        std::lock_guard lock(mutex_);
        record_ = std::move(result.record);
        finished_ = true;
    }
}

std::vector<std::string> TorneioTable::takeTokens() {
    return std::exchange(newTokens_, {});
}

std::optional<int> TorneioTable::seatOfToken(std::string_view token) const {
    const std::string hash = common::hashSecret(token);
    for (std::size_t s = 0; s < tokenHashes_.size(); ++s)
        if (!tokenHashes_[s].empty() && common::sameSecret(tokenHashes_[s], hash))
            return static_cast<int>(s);
    return std::nullopt;
}

Json TorneioTable::seatsJson() const {
    Json seats = Json::array();
    for (std::size_t s = 0; s < choices_.size(); ++s) {
        Json seat = {{"seat", s + 1}, {"kind", choices_[s].kind}};
        if (choices_[s].kind == "ai") seat["level"] = choices_[s].level;
        seats.push_back(seat);
    }
    return seats;
}

bool TorneioTable::finished() const {
    std::lock_guard lock(mutex_);
    return finished_;
}

std::optional<torneio::Record> TorneioTable::record() const {
    std::lock_guard lock(mutex_);
    return record_;
}

}  // namespace web::torneio_tables
