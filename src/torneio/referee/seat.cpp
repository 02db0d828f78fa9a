#include <deque>
#include <iostream>

#include "common/program_spec.h"
#include "torneio/play/player_session.h"
#include "torneio/referee/human_seat.h"
#include "torneio/referee/seat.h"

namespace torneio::referee {

namespace {

using common::makeError;

constexpr std::chrono::milliseconds kQuitGrace{300};

// ChildSeat: a player program as a child process. Lines are held back until the referee waits
// for an answer (or flushes), then written with one system call: a decision's events, `isready`
// and the request wake the program once. No write waits longer than writeLimit_.
//   pending_   lines not yet written, each with its '\n'
//   stuck_     a write timed out: the program stopped reading (its input is closed since)
class ChildSeat final : public Seat {
  public:
    explicit ChildSeat(std::unique_ptr<common::ChildProcess> process)
        : process_(std::move(process)) {}
    ~ChildSeat() override { close(); }

    bool send(std::string_view line) override {
        if (!process_ || stuck_) return false;
        pending_.append(line);
        pending_ += '\n';
        return pending_.size() < kHoldBytes || flush();
    }
    bool flush() override {
        if (!process_ || stuck_) return false;
        if (pending_.empty()) return true;
        const auto status = process_->write(pending_, common::SteadyClock::now() + writeLimit_);
        pending_.clear();
        stuck_ = status == common::WriteStatus::Timeout;
        return status == common::WriteStatus::Written;
    }
    void limitWrites(std::chrono::milliseconds wait) override { writeLimit_ = wait; }
    bool stuck() const override { return stuck_; }
    common::ReadStatus receive(std::string& line,
                               common::SteadyClock::time_point deadline) override {
        if (!process_) return common::ReadStatus::Closed;
        if (!flush()) return stuck_ ? common::ReadStatus::Timeout : common::ReadStatus::Closed;
        // A program that closes its input with our lines unread cannot answer them: it has
        // crashed, whatever its output does.
        return process_->readLine(line, deadline, common::UnreadInput::Closed);
    }
    void close() override {
        if (!process_) return;
        pending_.clear();
        if (!stuck_) process_->writeLine("quit", common::SteadyClock::now());
        if (!process_->wait(kQuitGrace)) process_->kill();
        process_.reset();
    }
    bool open() const override { return process_ != nullptr; }

  private:
    static constexpr std::size_t kHoldBytes = 1 << 16;
    std::unique_ptr<common::ChildProcess> process_;
    std::string pending_;
    std::chrono::milliseconds writeLimit_{10000};
    bool stuck_ = false;
};

// InProcessSeat: the `torneio` program's session in this process. Its replies are ready as
// soon as a line is sent, so receive never waits: an empty queue is a time-out at once.
class InProcessSeat final : public Seat {
  public:
    bool send(std::string_view line) override {
        if (!open_) return false;
        for (std::string& reply : session_.handle(line)) replies_.push_back(std::move(reply));
        if (session_.quit()) open_ = false;
        return true;
    }
    common::ReadStatus receive(std::string& line, common::SteadyClock::time_point) override {
        if (replies_.empty())
            return open_ ? common::ReadStatus::Timeout : common::ReadStatus::Closed;
        line = std::move(replies_.front());
        replies_.pop_front();
        return common::ReadStatus::Line;
    }
    void close() override {
        open_ = false;
        replies_.clear();
    }
    bool open() const override { return open_; }

  private:
    play::PlayerSession session_;
    std::deque<std::string> replies_;
    bool open_ = true;
};

}  // namespace

common::Result<SeatSpec> parseSeatSpec(std::string_view text) {
    constexpr std::string_view kKinds[] = {"inprocess", "human"};
    auto parsed = common::parseProgramSpec(text, kKinds);
    if (!parsed) return makeError(parsed.error());
    const common::ProgramSpec& p = parsed.value();
    SeatSpec spec{p.name, SeatKind::Program, p.path, p.args, p.options};
    for (const auto& [key, value] : p.extra) {
        if (!value.empty()) return makeError("'" + key + "' takes no value");
        spec.kind = key == "human" ? SeatKind::Human : SeatKind::InProcess;
        if (spec.name.empty()) spec.name = key;
    }
    if (spec.kind == SeatKind::Program && spec.path.empty()) return makeError("no cmd");
    if (spec.kind != SeatKind::Program && !spec.path.empty())
        return makeError("an inprocess or human seat runs no program");
    return spec;
}

common::Result<std::unique_ptr<Seat>> openSeat(const SeatSpec& spec, const std::string& stderrLog) {
    switch (spec.kind) {
        case SeatKind::Program: {
            auto process = common::ChildProcess::start(spec.path, spec.args, stderrLog);
            if (!process) return makeError(process.error());
            return std::unique_ptr<Seat>(std::make_unique<ChildSeat>(std::move(process).value()));
        }
        case SeatKind::InProcess:
            return std::unique_ptr<Seat>(std::make_unique<InProcessSeat>());
        case SeatKind::Human:  // the person at the terminal: the referee's stdin and stdout
            return makeHumanSeat(std::cin, std::cout);
    }
    return makeError("unknown seat kind");
}

}  // namespace torneio::referee
