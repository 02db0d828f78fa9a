#include <optional>

#include "common/logging.h"
#include "common/text.h"
#include "torneio/referee/game.h"
#include "torneio/rules/state.h"

namespace torneio::referee {

namespace {

using common::ReadStatus;
using common::SteadyClock;

// Failure: why a player's line did not come, or is not acceptable.
struct Failure {
    Fault fault = Fault::Crash;
    std::string detail;
};

bool isInfoLine(std::string_view line) {
    const auto tokens = common::splitWhitespace(line);
    return !tokens.empty() && tokens[0] == "info";
}

bool isExactly(std::string_view line, std::string_view word) {
    const auto tokens = common::splitWhitespace(line);
    return tokens.size() == 1 && tokens[0] == word;
}

std::string quoted(std::string_view line) {
    return "'" + common::printable(line, 80) + "'";
}

// The next line of a player that is not an `info` line (those may come at any time and are
// only logged), or why there is none before the deadline.
std::optional<Failure> readLine(Seat& seat, SteadyClock::time_point deadline,
                                std::chrono::milliseconds limit, std::size_t maxLine,
                                std::string& line) {
    for (;;) {
        switch (seat.receive(line, deadline)) {
            case ReadStatus::Timeout:
                return Failure{Fault::Timeout,
                               "no reply within " + std::to_string(limit.count()) + " ms"};
            case ReadStatus::Closed:
                if (seat.personLeft()) return Failure{Fault::Left, "the person left the game"};
                return Failure{Fault::Crash, "the player's output closed"};
            case ReadStatus::Line:
                break;
        }
        common::logger().debug("from player: {}", common::printable(line, 200));
        if (line.size() > maxLine) {
            // A child process's reader cuts a line at its own bound: longer lines are known to
            // be longer than that, not how long.
            const std::string length = line.size() >= common::ChildProcess::kLongestLine
                                           ? "at least " + std::to_string(line.size())
                                           : std::to_string(line.size());
            return Failure{Fault::TooLong, "a line of " + length + " bytes (at most " +
                                               std::to_string(maxLine) + ")"};
        }
        if (!isInfoLine(line)) return std::nullopt;
    }
}

// What waitFor does with the lines before the answer:
//   Dropped    reads and drops them (the id and option lines of the handshake)
//   Refused    any but a harmless info line (an `info string error: ...` is not harmless) is an
//              error
//   Discarded  reads, logs and drops them (lines a player sent between two games)
enum class Before { Dropped, Refused, Discarded };

// Sends `ask` and reads until the line `answer`.
common::Result<bool> waitFor(Seat& seat, std::string_view ask, std::string_view answer,
                             std::chrono::milliseconds limit, Before before) {
    seat.limitWrites(limit);
    if (!seat.send(ask) || !seat.flush())
        return common::makeError(seat.stuck() ? "it takes no input" : "its input is closed");
    const auto deadline = SteadyClock::now() + limit;
    const std::string expected = "no " + std::string(answer) + " to " + std::string(ask) + ": ";
    std::string line;
    for (;;) {
        const ReadStatus status = seat.receive(line, deadline);
        if (status == ReadStatus::Timeout)
            return common::makeError(expected + "nothing within " + std::to_string(limit.count()) +
                                     " ms");
        if (status == ReadStatus::Closed) return common::makeError(expected + "its output closed");
        if (isExactly(line, answer)) return true;
        const bool harmless = isInfoLine(line) && line.find("error") == std::string::npos;
        if (before == Before::Refused && !harmless)
            return common::makeError(expected + quoted(line) + " came first");
        if (before == Before::Discarded)
            common::logger().warn("a line between games discarded: {}", quoted(line));
    }
}

// GameReferee: the state of one game being refereed.
//   state_      the truth; forwarded_ counts its events already sent to the seats
//   live_[s]    seat s still receives lines (false once disqualified or never started)
class GameReferee {
  public:
    GameReferee(std::span<Seat* const> seats, const GameSetup& setup, const Limits& limits)
        : seats_(seats.begin(), seats.end()),
          setup_(setup),
          limits_(limits),
          state_(State::create(setup.params).value()),
          live_(seats.size(), true) {
        for (Seat* seat : seats_)
            if (seat) seat->limitWrites(limits.decision);
    }

    GameResult run() {
        for (int s = 0; s < seatCount(); ++s)
            if (!seat(s)) disqualify(s, Fault::NoStart, "it did not start or answer");
        for (int s = 0; s < seatCount(); ++s) {
            if (live(s) && !sendTo(s, newGameLine(s, seedOf(s), setup_.params))) inputFailed(s);
        }
        while (forwardEvents(), !state_.over()) decideNext();
        reportEnd();
        for (int s = 0; s < seatCount(); ++s)
            if (live(s)) seat(s)->flush();  // the end event
        return GameResult{record(), std::move(faults_)};
    }

  private:
    int seatCount() const { return static_cast<int>(seats_.size()); }

    Record record() const {
        Record r = recordOf(state_, setup_.seed, setup_.names);
        r.matchSeed = setup_.matchSeed;
        return r;
    }

    // Once the game is over, before the first event of its end goes out: setup_.ended.
    void reportEnd() {
        if (endReported_ || !state_.over()) return;
        endReported_ = true;
        if (setup_.ended) setup_.ended(record());
    }

    std::uint64_t seedOf(int s) const {
        const auto given = static_cast<std::size_t>(seatCount());
        return setup_.seatSeeds.size() == given ? setup_.seatSeeds[static_cast<std::size_t>(s)]
                                                : seatSeed(setup_.seed, s);
    }

    // Every line to a seat goes through here (logged at debug level).
    bool sendTo(int s, const std::string& line) {
        common::logger().debug("to seat {}: {}", seatText(s), line);
        return seat(s)->send(line);
    }
    Seat* seat(int s) const { return seats_[static_cast<std::size_t>(s)]; }
    bool live(int s) const { return live_[static_cast<std::size_t>(s)]; }

    // Seat s is out: closed, sent nothing more. A seat eliminated by the rules is only dropped
    // (it has no decision left, and the record has its elimination); any other is disqualified.
    void disqualify(int s, Fault fault, const std::string& detail) {
        if (!live(s)) return;
        live_[static_cast<std::size_t>(s)] = false;
        if (seat(s)) seat(s)->close();
        if (state_.over()) return;
        if (state_.eliminated(s)) {
            common::logger().info("seat {} ({}), eliminated, dropped: {}", seatText(s),
                                  setup_.names[static_cast<std::size_t>(s)], detail);
            return;
        }
        common::logger().info("seat {} ({}) disqualified, {}: {}", seatText(s),
                              setup_.names[static_cast<std::size_t>(s)], faultName(fault), detail);
        faults_.push_back(SeatFault{s, fault, detail});
        (void)state_.disqualify(s, fault);
    }

    // Why seat s's input failed (send or flush false): a seat that did not take its lines
    // within the decision time is out for time, one whose input is closed has crashed.
    Failure inputFailure(int s) const {
        if (seat(s)->stuck())
            return Failure{Fault::Timeout, "its input took no lines within " +
                                               std::to_string(limits_.decision.count()) + " ms"};
        return Failure{Fault::Crash, "its input closed"};
    }
    void inputFailed(int s) {
        const Failure failure = inputFailure(s);
        disqualify(s, failure.fault, failure.detail);
    }

    // Sends every new event to the seats that may see it (D8), one line each. A seat whose
    // input fails is out (inputFailed); its disqualification is one more event to send.
    void forwardEvents() {
        while (forwarded_ < state_.events().size()) {
            // A copy: a disqualification below appends to events() and may move its storage.
            reportEnd();
            const Event event = state_.events()[forwarded_++];
            const std::string line = formatEvent(event, state_.geometry());
            for (int s = 0; s < seatCount(); ++s)
                if (live(s) && visibleTo(event, s) && !sendTo(s, line)) inputFailed(s);
        }
    }

    // One decision: `isready` (every line before `readyok` but info lines is out of turn), the
    // request, the reply; judged by checkAction. A `readyok` as the reply answers no `isready`:
    // out of turn (a second `readyok` the seat sent earlier, read as the answer to this `isready`).
    // The lines are flushed before each wait, so that a failing input is told from a silence.
    void decideNext() {
        const int s = state_.toDecide();
        const Request& request = state_.request();
        const auto deadline = SteadyClock::now() + limits_.decision;
        std::string line;
        std::optional<Failure> failure;
        if (!sendTo(s, "isready") || !seat(s)->flush()) failure = inputFailure(s);
        if (!failure)
            failure = readLine(*seat(s), deadline, limits_.decision, limits_.maxLine, line);
        if (!failure && !isExactly(line, "readyok"))
            failure = Failure{Fault::OutOfTurn, quoted(line) + " when no reply was due"};
        if (!failure &&
            (!sendTo(s, formatRequest(request, state_.geometry())) || !seat(s)->flush()))
            failure = inputFailure(s);
        if (!failure)
            failure = readLine(*seat(s), deadline, limits_.decision, limits_.maxLine, line);
        if (!failure && isExactly(line, "readyok"))
            failure = Failure{Fault::OutOfTurn, quoted(line) + " when no readyok was due"};
        if (!failure) failure = judge(s, line);
        if (failure) disqualify(s, failure->fault, failure->detail);
    }

    // Applies a reply line, or says why it is not acceptable.
    std::optional<Failure> judge(int s, const std::string& line) {
        auto action = parseAction(line, state_.geometry());
        if (!action) return Failure{Fault::Malformed, quoted(line) + ": " + action.error()};
        auto applied = state_.apply(s, action.value());  // checkAction, then the rules
        if (!applied) return Failure{Fault::Illegal, quoted(line) + ": " + applied.error()};
        if (setup_.decided) setup_.decided(s, action.value());
        return std::nullopt;
    }

    std::vector<Seat*> seats_;
    const GameSetup& setup_;
    const Limits& limits_;
    State state_;
    std::vector<bool> live_;
    std::size_t forwarded_ = 0;
    bool endReported_ = false;
    std::vector<SeatFault> faults_;
};

}  // namespace

std::string newGameLine(int seat, std::uint64_t seed, const Params& params) {
    return "newgame seat " + seatText(seat) + " seed " + std::to_string(seed) + " " +
           formatParams(params);
}

common::Result<bool> handshake(Seat& seat, const SeatSpec& spec, const Limits& limits) {
    auto hello = waitFor(seat, "torneio", "torneiook", limits.start, Before::Dropped);
    if (!hello) return hello;
    for (const auto& [name, value] : spec.options)
        if (!seat.send("setoption name " + name + " value " + value))
            return common::makeError("its input is closed");
    // An option the player refuses gets an error line before readyok: the handshake fails.
    return waitFor(seat, "isready", "readyok", limits.start, Before::Refused);
}

common::Result<bool> resync(Seat& seat, const Limits& limits) {
    return waitFor(seat, "isready", "readyok", limits.start, Before::Discarded);
}

GameResult playGame(std::span<Seat* const> seats, const GameSetup& setup, const Limits& limits) {
    return GameReferee(seats, setup, limits).run();
}

}  // namespace torneio::referee
