// The human seat: the only part of terminal play that reads and writes the terminal
// (human_seat.h); what it shows and how it reads typed lines is terminal.h's.
#include <deque>
#include <istream>
#include <optional>
#include <ostream>

#include "common/logging.h"
#include "common/random.h"
#include "common/text.h"
#include "torneio/person/terminal.h"
#include "torneio/play/seat_command.h"
#include "torneio/referee/human_seat.h"

namespace torneio::referee {

namespace {

using common::ReadStatus;

constexpr std::size_t kMaxTypedLine = 4096;  // longer lines are refused and asked again

// HumanSeat: one person's seat.
//   in_, out_   where the person types and reads
//   game_       the seat's game, rebuilt from its newgame and event lines: all that is shown
//   request_    the request waiting for the person's answer
//   replies_    lines for the referee (the handshake's, readyok, the person's action)
//   random_     for `random`, seeded with the seat's seed of each game
//   shownLog_   entries of game_'s log already shown
//   open_       false once the person quit (or the input ended) or the referee closed the seat
class HumanSeat final : public Seat {
  public:
    HumanSeat(std::istream& in, std::ostream& out) : in_(in), out_(out) {}

    bool send(std::string_view line) override {
        if (!open_) return false;
        switch (play::seatCommand(line)) {
            case play::SeatCommand::Torneio:
                replies_.insert(replies_.end(), {"id name human",
                                                 "id author the person at the "
                                                 "terminal",
                                                 "torneiook"});
                break;
            case play::SeatCommand::IsReady:
                replies_.emplace_back("readyok");
                break;
            case play::SeatCommand::NewGame:
                newGame(line);
                break;
            case play::SeatCommand::Event:
                event(line);
                break;
            case play::SeatCommand::Request:
                request(line);
                break;
            case play::SeatCommand::Quit:
                open_ = false;
                break;
            default:  // setoption and anything else: nothing to do
                break;
        }
        return true;
    }

    // The deadline does not apply: a person may think as long as they like.
    ReadStatus receive(std::string& line, common::SteadyClock::time_point) override {
        if (!replies_.empty()) {
            line = std::move(replies_.front());
            replies_.pop_front();
            return ReadStatus::Line;
        }
        if (!open_) return ReadStatus::Closed;
        if (!game_ || !request_) return ReadStatus::Timeout;  // nothing asked, nothing to say
        return ask(line);
    }

    void close() override {
        open_ = false;
        replies_.clear();
    }
    bool open() const override { return open_; }
    bool personLeft() const override { return !open_; }

  private:
    void newGame(std::string_view line) {
        auto started = person::SeatView::start(line);
        if (!started) {
            replies_.push_back(common::errorLine(started.error()));
            return;
        }
        game_.emplace(std::move(started).value());
        random_.reseed(game_->seed());
        request_.reset();
        shownLog_ = 0;
    }

    void event(std::string_view line) {
        if (!game_) return;
        const int me = game_->seat();
        const bool wasOut = game_->knowledge().eliminated(me);
        auto taken = game_->takeEvent(line);
        if (!taken) {
            common::logger().warn("human seat: cannot follow '{}': {}", line, taken.error());
            return;
        }
        if (game_->knowledge().over()) {
            show(person::drawEnd(*game_, shownLog_));
        } else if (!wasOut && game_->knowledge().eliminated(me) && survivors() >= 2) {
            show(person::drawLog(*game_, shownLog_, game_->log().size()) +
                 "You are out of the game. The others play on; the result comes at the end.\n");
        }
    }

    int survivors() const {
        int count = 0;
        for (int s = 0; s < game_->geometry().seats(); ++s)
            count += game_->knowledge().eliminated(s) ? 0 : 1;
        return count;
    }

    void request(std::string_view line) {
        if (!game_) return;
        auto parsed = game_->readRequest(line);
        if (!parsed) {
            replies_.push_back(common::errorLine(parsed.error()));
            return;
        }
        request_ = std::move(parsed).value();
    }

    void show(const std::string& text) {
        out_ << text << std::flush;
        shownLog_ = game_->log().size();
    }

    // Puts the request to the person until a line settles it.
    ReadStatus ask(std::string& line) {
        const person::Dialog dialog(*game_, *request_, shownLog_);
        show(dialog.screen());
        common::BoundedLine typed;
        while (common::readBoundedLine(in_, kMaxTypedLine, typed)) {
            if (typed.tooLong(kMaxTypedLine)) {
                out_ << "  That line is too long.\n" << dialog.prompt().marker << std::flush;
                continue;
            }
            const person::Dialog::Answer answer = dialog.answer(typed.text, random_);
            out_ << answer.text << std::flush;
            if (answer.quit) return leave();
            if (answer.action) {
                line = formatAction(*answer.action, game_->geometry());
                request_.reset();
                return ReadStatus::Line;
            }
        }
        out_ << "\nThe input ended: you leave the game.\n" << std::flush;
        return leave();
    }

    ReadStatus leave() {
        open_ = false;
        request_.reset();
        return ReadStatus::Closed;
    }

    std::istream& in_;
    std::ostream& out_;
    std::optional<person::SeatView> game_;
    std::optional<Request> request_;
    std::deque<std::string> replies_;
    common::Random random_;
    std::size_t shownLog_ = 0;
    bool open_ = true;
};

}  // namespace

std::unique_ptr<Seat> makeHumanSeat(std::istream& in, std::ostream& out) {
    return std::make_unique<HumanSeat>(in, out);
}

}  // namespace torneio::referee
