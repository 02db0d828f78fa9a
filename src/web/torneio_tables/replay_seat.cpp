#include "web/torneio_tables/replay_seat.h"

#include <utility>

#include "common/logging.h"
#include "torneio/play/seat_command.h"

namespace web::torneio_tables {

bool ReplaySeat::send(std::string_view line) {
    const bool request = torneio::play::seatCommand(line) == torneio::play::SeatCommand::Request;
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
        common::logger().error("web: torneio replay: kept decision '{}' refused: {}", kept_.front(),
                               *refused);
        kept_.clear();  // the person decides from here
        const bool sent = inner_->send(line);
        live_();
        return sent;
    }
    kept_.pop_front();
    return true;
}

common::ReadStatus ReplaySeat::receive(std::string& line,
                                       common::SteadyClock::time_point deadline) {
    const auto status = inner_->receive(line, deadline);
    if (status == common::ReadStatus::Line && replacing_) {
        line = std::move(kept_.front());
        kept_.pop_front();
        replacing_ = false;
    }
    return status;
}

}  // namespace web::torneio_tables
