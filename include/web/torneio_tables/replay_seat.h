// ReplaySeat: the seat of a restored Torneio table while the referee replays its kept game
// (TorneioTable::restore, torneio_table.h).
#pragma once

#include <deque>
#include <functional>
#include <string>
#include <string_view>

#include "torneio/referee/seat.h"
#include "web/torneio_tables/torneio_table.h"

namespace web::torneio_tables {

// ReplaySeat: a seat of a restored table while the referee replays the kept game from its
// start. Every line passes both ways, but each request the seat had answered is answered with
// the kept action: a person's seat is given it as the person's reply (WebSeat::sendAnswered), so
// that its view and pending request come out as they were; an AI's own reply is read and
// replaced (its knowledge comes from its own lines only, as in play). Past the seat's last kept
// decision it only passes lines.
//   inner_      the seat itself; person_ the same seat as a WebSeat (nullptr for an AI)
//   kept_       the seat's kept decisions not yet given, oldest first
//   live_       called once a request goes out that no kept decision answers
//   replacing_  an AI's reply to a kept decision's request is awaited (and replaced)
class ReplaySeat : public torneio::referee::Seat {
  public:
    // live: called once a request goes out that no kept decision answers (the replay is done).
    ReplaySeat(torneio::referee::Seat* inner, WebSeat* person, std::deque<std::string> kept,
               std::function<void()> live)
        : inner_(inner), person_(person), kept_(std::move(kept)), live_(std::move(live)) {}
    bool send(std::string_view line) override;
    bool flush() override { return inner_->flush(); }
    common::ReadStatus receive(std::string& line,
                               common::SteadyClock::time_point deadline) override;
    void close() override { inner_->close(); }
    bool open() const override { return inner_->open(); }

  private:
    torneio::referee::Seat* inner_;
    WebSeat* person_;
    std::deque<std::string> kept_;
    std::function<void()> live_;
    bool replacing_ = false;
};

}  // namespace web::torneio_tables
