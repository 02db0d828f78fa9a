// The thread of a Torneio web table (TorneioTable::play, torneio_table.h): the handshakes, the
// seats of a restored table's replay (replay_seat.h), and the referee's game.
#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "torneio/play/ai/ai_options.h"
#include "torneio/referee/game.h"
#include "torneio/rules/action.h"
#include "torneio/rules/geometry.h"
#include "web/torneio_tables/replay_seat.h"
#include "web/torneio_tables/torneio_table.h"

namespace web::torneio_tables {

namespace {

// Hang guard for one decision of an AI seat (persons have none, see WebSeat).
constexpr std::chrono::minutes kAiDecisionGuard{2};

// StoppableSeat: an in-process AI seat that a closing table can cut off from the referee
// thread: once stop is set, sends fail and receives report the connection closed, so the
// referee ends the game quickly (the AI is disqualified, as a crashed program would be).
// `closed` is told when the referee closes the seat, with the fault its last exchange points to
// (the referee's own judgement is not seen here: a timeout, an input or output that closed, or
// else a reply it refused, Illegal being the likeliest); the record of the end says the truth.
class StoppableSeat : public torneio::referee::Seat {
  public:
    StoppableSeat(std::unique_ptr<torneio::referee::Seat> inner,
                  std::shared_ptr<std::atomic<bool>> stop,
                  std::function<void(torneio::Fault)> closed)
        : inner_(std::move(inner)), stop_(std::move(stop)), closed_(std::move(closed)) {}
    bool send(std::string_view line) override {
        const bool sent = !*stop_ && inner_->send(line);
        if (!sent) fault_ = torneio::Fault::Crash;
        return sent;
    }
    bool flush() override {
        const bool flushed = !*stop_ && inner_->flush();
        if (!flushed) fault_ = torneio::Fault::Crash;
        return flushed;
    }
    common::ReadStatus receive(std::string& line,
                               common::SteadyClock::time_point deadline) override {
        if (*stop_) return common::ReadStatus::Closed;
        const auto status = inner_->receive(line, deadline);
        fault_ = status == common::ReadStatus::Timeout  ? torneio::Fault::Timeout
                 : status == common::ReadStatus::Closed ? torneio::Fault::Crash
                                                        : torneio::Fault::Illegal;
        return status;
    }
    void close() override {
        inner_->close();
        if (closed_) closed_(fault_);
    }
    bool open() const override { return !*stop_ && inner_->open(); }

  private:
    std::unique_ptr<torneio::referee::Seat> inner_;
    std::shared_ptr<std::atomic<bool>> stop_;
    std::function<void(torneio::Fault)> closed_;
    torneio::Fault fault_ = torneio::Fault::Crash;
};

// The result of a finished game as the store keeps it: "win 2", "draw 1 3" (seats 1..N).
std::string resultText(const torneio::Outcome& outcome, int seats) {
    std::string text = outcome.kind == torneio::OutcomeKind::Draw ? "draw" : "win";
    for (int s = 0; s < seats; ++s)
        if (outcome.seats & (1u << s)) text += " " + std::to_string(s + 1);
    return text;
}

}  // namespace

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
                aiSeats_[s] = std::make_unique<StoppableSeat>(
                    std::move(opened).value(), stop_,
                    [this, seat = static_cast<int>(s)](torneio::Fault fault) {
                        aiSeatClosed(seat, fault);
                    });
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
    // A decision is kept (unless it was kept already), then its public events are the
    // watchers', before any seat is told.
    setup.decided = [this, &geometry](int seat, const torneio::Action& action) {
        const std::size_t n = decisions_++;
        if (n >= replay_.size() && hooks_.decided)
            hooks_.decided(n, {seat, torneio::formatAction(action, geometry)});
        if (public_->decided(seat, action) && hooks_.publicChanged) hooks_.publicChanged();
    };
    // The end is kept before a seat is told the game is over (the referee calls this first);
    // the watchers' events are then the record's own.
    setup.ended = [this](const torneio::Record& record) {
        if (!stop_->load() && !endKept_ && hooks_.ended)
            hooks_.ended(resultText(record.outcome, params_.seats), record);
        if (public_->ended(record) && hooks_.publicChanged) hooks_.publicChanged();
    };
    // The seats that could not start are out before the set-ups, in seat order, as the
    // referee puts them out (torneio/referee/game.h, playGame).
    for (std::size_t s = 0; s < seats.size(); ++s)
        if (!seats[s] && public_->disqualified(static_cast<int>(s), torneio::Fault::NoStart) &&
            hooks_.publicChanged)
            hooks_.publicChanged();
    auto result = torneio::referee::playGame(seats, setup, limits);
    replayed();
    {
        std::lock_guard lock(mutex_);
        record_ = std::move(result.record);
        finished_ = true;
    }
    finishedChanged_.notify_all();
}

}  // namespace web::torneio_tables
