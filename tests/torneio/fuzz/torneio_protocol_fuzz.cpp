// libFuzzer harness: the lines of the Torneio player protocol (protocol.md), both ways, and the
// game records. The first byte picks what the rest of the input is:
//   0  player    lines from a referee to the `torneio` player's PlayerSession (kind random or
//                heuristic). Properties: every reply is one line, an action reply to a request
//                is a legal reply to it with the seat's own pieces (as the session knew them).
//   1  referee   lines from a player to the referee: one seat of a game (2-4 seats, few
//                rounds) answers with the input's lines, the others are in-process random
//                players. Properties: the game ends; only the fuzzed seat is ever at fault; the
//                record replays through the rules to the same outcome and reads back the same.
//   2  parsers   each line read by every parser of the protocol's words (action, set-up,
//                request, event, params, seat, square, fault) for a geometry chosen by the
//                second byte. Property: what reads writes back as text that reads the same.
//   3  record    a game record file (JSON lines). Property: a record that reads writes back as
//                text that reads the same record; a full record replays or gives an error.
// Errors must be values with a non-empty text; nothing may crash, throw or hang.
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/logging.h"
#include "common/text.h"
#include "torneio/play/player_session.h"
#include "torneio/referee/game.h"
#include "torneio/referee/seat.h"
#include "torneio/rules/action.h"
#include "torneio/rules/event.h"
#include "torneio/rules/geometry.h"
#include "torneio/rules/params.h"
#include "torneio/rules/record.h"

namespace {

std::vector<std::string> linesOf(std::string_view text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        lines.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

template <class T>
void failed(const common::Result<T>& result) {
    if (result.error().empty()) std::abort();
}

// A `setoption` naming the player kind picks random or heuristic only (the ai is slow).
std::string tame(const std::string& line) {
    const auto tokens = common::splitWhitespace(line);
    if (!tokens.empty() && tokens[0] == "setoption")
        return line.find("heuristic") != std::string::npos ? "setoption name Player value heuristic"
                                                           : "setoption name Player value random";
    return line;
}

void player(std::string_view text) {
    torneio::play::PlayerSession session;
    (void)session.handle("setoption name Player value random");
    for (const std::string& raw : linesOf(text)) {
        const std::string line = tame(raw);
        // The request as the session reads it, and the own pieces it decides with.
        std::optional<torneio::Request> request;
        std::optional<torneio::OwnPieces> own;
        const auto tokens = common::splitWhitespace(line);
        if (session.knowledge() && !tokens.empty() && tokens[0] == "request") {
            const auto& k = *session.knowledge();
            if (auto r = torneio::parseRequest(line, k.seat(), k.geometry())) {
                request = r.value();
                own = k.own();
            }
        }
        for (const std::string& reply : session.handle(line)) {
            if (reply.empty() || reply.find_first_of("\r\n") != std::string::npos) std::abort();
            const auto words = common::splitWhitespace(reply);
            if (words[0] == "info" || words[0] == "id" || words[0] == "option" ||
                words[0] == "torneiook" || words[0] == "readyok")
                continue;
            if (!request || !session.knowledge()) std::abort();  // an action with no request
            const auto& geometry = session.knowledge()->geometry();
            const auto action = torneio::parseAction(reply, geometry);
            if (!action || !torneio::isLegal(*request, *own, geometry, action.value()))
                std::abort();
        }
        if (session.quit()) break;
    }
}

// FuzzSeat: a player whose lines are the input's, in order, whatever it is sent; at their end
// its output closes.
class FuzzSeat final : public torneio::referee::Seat {
  public:
    explicit FuzzSeat(std::vector<std::string> lines) : lines_(lines.begin(), lines.end()) {}
    bool send(std::string_view) override { return open_; }
    common::ReadStatus receive(std::string& line, common::SteadyClock::time_point) override {
        if (!open_ || lines_.empty()) return common::ReadStatus::Closed;
        line = std::move(lines_.front());
        lines_.pop_front();
        return common::ReadStatus::Line;
    }
    void close() override { open_ = false; }
    bool open() const override { return open_; }

  private:
    std::deque<std::string> lines_;
    bool open_ = true;
};

void referee(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return;
    const int seats = 2 + data[0] % 3;
    torneio::Params params = torneio::defaultParams(seats);
    params.maxRounds = 1 + data[1] % 12;
    const std::vector<std::string> lines =
        linesOf(std::string_view(reinterpret_cast<const char*>(data + 2), size - 2));
    torneio::referee::Limits limits;
    limits.start = limits.decision = std::chrono::milliseconds(1000);
    FuzzSeat fuzzed(lines);
    torneio::referee::SeatSpec spec;
    spec.kind = torneio::referee::SeatKind::InProcess;
    spec.options = {{"Player", "random"}};
    std::vector<std::unique_ptr<torneio::referee::Seat>> others;
    std::vector<torneio::referee::Seat*> table{
        torneio::referee::handshake(fuzzed, spec, limits) ? &fuzzed : nullptr};
    std::vector<std::string> names{"fuzzed"};
    for (int s = 1; s < seats; ++s) {
        auto seat = torneio::referee::openSeat(spec, "");
        if (!seat || !torneio::referee::handshake(*seat.value(), spec, limits)) std::abort();
        others.push_back(std::move(seat).value());
        table.push_back(others.back().get());
        names.push_back("random");
    }
    torneio::referee::GameSetup setup;
    setup.params = params;
    setup.seed = data[0] * 256u + data[1];
    setup.names = names;
    const auto result = torneio::referee::playGame(table, setup, limits);
    if (result.record.outcome.kind == torneio::OutcomeKind::Ongoing) std::abort();
    for (const auto& fault : result.faults)
        if (fault.seat != 0 || fault.detail.empty()) std::abort();
    const auto replayed = torneio::replayRecord(result.record);
    if (!replayed || !(replayed.value().outcome == result.record.outcome)) std::abort();
    const auto reread = torneio::parseRecord(torneio::formatRecord(result.record));
    if (!reread || !(reread.value() == result.record)) std::abort();
}

// Parses `line` with parse; when it reads, format(value) must read back to the same value.
template <class Parse, class Format>
void roundTrip(std::string_view line, const Parse& parse, const Format& format) {
    const auto parsed = parse(line);
    if (!parsed) {
        failed(parsed);
        return;
    }
    const auto again = parse(format(parsed.value()));
    if (!again || !(again.value() == parsed.value())) std::abort();
}

void parsers(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return;
    const int seats = 2 + data[0] % 3;
    torneio::Params params = torneio::defaultParams(seats);
    if (data[0] & 0x80) params.boardSize = 8;  // a board of other square names
    const auto made = torneio::makeGeometry(params);
    if (!made) return;
    const torneio::Geometry& g = made.value();
    const int receiver = (data[0] >> 2) % seats;
    for (const std::string& line :
         linesOf(std::string_view(reinterpret_cast<const char*>(data + 1), size - 1))) {
        roundTrip(
            line, [&](std::string_view t) { return torneio::parseAction(t, g); },
            [&](const torneio::Action& a) { return torneio::formatAction(a, g); });
        roundTrip(
            line, [&](std::string_view t) { return torneio::parseSetUp(t, g); },
            [&](const torneio::SetUp& s) { return torneio::formatSetUp(s, g); });
        roundTrip(
            line, [&](std::string_view t) { return torneio::parseRequest(t, receiver, g); },
            [&](const torneio::Request& r) { return torneio::formatRequest(r, g); });
        roundTrip(
            line, [&](std::string_view t) { return torneio::parseEvent(t, receiver, g); },
            [&](const torneio::Event& e) { return torneio::formatEvent(e, g); });
        roundTrip(
            line, [&](std::string_view t) { return torneio::parseParams(t); },
            [&](const torneio::Params& p) { return torneio::formatParams(p); });
        roundTrip(
            line, [&](std::string_view t) { return torneio::parseSeat(t, seats); },
            [&](int s) { return torneio::seatText(s); });
        roundTrip(
            line, [&](std::string_view t) { return torneio::parseSquare(t, g.size()); },
            [&](torneio::Square s) { return torneio::squareName(s, g.size()); });
        roundTrip(
            line, [&](std::string_view t) { return torneio::parseFault(t); },
            [&](torneio::Fault f) { return std::string(torneio::faultName(f)); });
    }
}

void record(std::string_view text) {
    const auto parsed = torneio::parseRecord(text);
    if (!parsed) {
        failed(parsed);
        return;
    }
    const std::string written = torneio::formatRecord(parsed.value());
    const auto again = torneio::parseRecord(written);
    if (!again || !(again.value() == parsed.value())) std::abort();
    if (torneio::formatRecord(again.value()) != written) std::abort();
    if (parsed.value().viewSeat < 0) {
        const auto replayed = torneio::replayRecord(parsed.value());
        if (!replayed) failed(replayed);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool quiet = common::initLogging("off", "").ok();
    (void)quiet;
    if (size == 0) return 0;
    const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
    switch (data[0] % 4) {
        case 0:
            player(rest);
            break;
        case 1:
            referee(data + 1, size - 1);
            break;
        case 2:
            parsers(data + 1, size - 1);
            break;
        default:
            record(rest);
            break;
    }
    return 0;
}
