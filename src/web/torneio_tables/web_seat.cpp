// WebSeat (torneio_table.h): a person's seat of a web table as the referee sees it; its view for
// the page is web_seat_view.cpp's, its words (log entries, refusals) web_seat_words.cpp's.
#include <utility>

#include "common/logging.h"
#include "common/text.h"
#include "torneio/play/seat_command.h"
#include "torneio/rules/action.h"
#include "web/torneio_tables/torneio_table.h"
#include "web/torneio_tables/web_seat_words.h"

namespace web::torneio_tables {

bool WebSeat::send(std::string_view line) {
    bool changed = false;
    {
        std::lock_guard lock(mutex_);
        if (closed_) return false;
        switch (torneio::play::seatCommand(line)) {
            case torneio::play::SeatCommand::Torneio:
                replies_.push_back("torneiook");
                break;
            case torneio::play::SeatCommand::IsReady:
                replies_.push_back("readyok");
                break;
            case torneio::play::SeatCommand::Quit:
                closed_ = true;
                break;
            case torneio::play::SeatCommand::NewGame: {
                auto game = torneio::person::SeatView::start(line);
                if (!game) {
                    common::logger().error("web: torneio seat: {}", game.error());
                    return true;
                }
                game_ = std::move(game).value();
                random_.reseed(game_->seed());
                lines_.emplace_back(line);
                changed = true;
                break;
            }
            case torneio::play::SeatCommand::Event:
                if (!game_) break;
                if (auto taken = game_->takeEvent(line); !taken)
                    common::logger().error("web: torneio seat: {}", taken.error());
                lines_.emplace_back(line);
                changed = true;
                break;
            case torneio::play::SeatCommand::Request:
                if (!game_) break;
                if (auto request = game_->readRequest(line); request) {
                    pending_ = std::move(request).value();
                    pendingLine_ = std::string(line);
                } else {
                    common::logger().error("web: torneio seat: {}", request.error());
                }
                lines_.emplace_back(line);
                changed = true;
                break;
            default:  // setoption and anything else: nothing to do
                break;
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

std::optional<messages::Say> WebSeat::submit(std::string_view text) {
    {
        std::lock_guard lock(mutex_);
        if (!pending_ || !game_) return messages::Say{"server.torneio.refused.notAsked"};
        const auto& geometry = game_->geometry();
        const auto& own = game_->knowledge().own();
        torneio::Action action;
        if (text == "random") {
            action = torneio::randomAction(*pending_, own, geometry, random_);
        } else {
            auto parsed = torneio::parseAction(text, geometry);
            if (!parsed)
                return messages::Say{"server.torneio.refused.unreadable",
                                     {{"action", common::printable(text)}}};
            action = parsed.value();
        }
        if (!torneio::isLegal(*pending_, own, geometry, action))
            return refusalSay(*pending_, own, geometry, action);
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

}  // namespace web::torneio_tables
