// libFuzzer harness: what a browser tab sends the server, read as the server reads it. Each
// line of the input is one of:
//   E <line>    a line from the table's engine (LascaTable::onEngineLine; the engine is a fake
//               that takes every command)
//   C           the engine's output closed (onEngineClosed)
//   R <line>    a line from the Torneio referee to a person's seat (WebSeat::send)
//   S <text>    the person's reply at that seat (WebSeat::submit), as `torneio.act` carries it
//   else        a WebSocket message of the Lasca page (LascaTable::handleText: parseMessage,
//               then the handler), also read by every field helper
// Properties: nothing crashes or throws; every reply is a JSON object with a string "type"
// that the server can write; a message answered by an error gets that one reply and changes
// nothing; the table's position stays valid and its stored form is made; the field helpers keep
// their ranges; a reply the seat accepts is passed on as one action line; the seat's view is
// made.
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/logging.h"
#include "lasca/core/position.h"
#include "web/lasca_tables/lasca_table.h"
#include "web/messages/messages.h"
#include "web/torneio_tables/torneio_table.h"

namespace {

using web::lasca_tables::Json;

class FakeEngine final : public web::lasca_tables::EngineChannel {
  public:
    bool search(const web::lasca_tables::EngineRequest&) override { return true; }
    void stop() override {}
};

web::lasca_tables::EngineFactory fakeFactory() {
    return []() -> common::Result<std::unique_ptr<web::lasca_tables::EngineChannel>> {
        return std::unique_ptr<web::lasca_tables::EngineChannel>(std::make_unique<FakeEngine>());
    };
}

void checkReplies(const std::vector<Json>& replies) {
    for (const Json& reply : replies) {
        if (!reply.is_object()) std::abort();
        const auto type = reply.find("type");
        if (type == reply.end() || !type->is_string()) std::abort();
        // As the server writes each reply (websocket_session.cpp).
        (void)reply.dump(-1, ' ', false, Json::error_handler_t::replace);
    }
}

// Every field helper on every field of a parsed message.
void checkFields(const Json& message) {
    (void)web::messages::messageType(message);
    (void)web::messages::checkFields(message, {"ply", "move", "moves"});
    for (const auto& [key, value] : message.items()) {
        const auto i = web::messages::intField(message, key.c_str(), -5, 3000);
        if (i && (i.value() < -5 || i.value() > 3000)) std::abort();
        if (!i && i.error().empty()) std::abort();
        const auto s = web::messages::stringField(message, key.c_str(), 16);
        if (s && s.value().size() > 16) std::abort();
        if (!s && s.error().empty()) std::abort();
        const auto b = web::messages::boolField(message, key.c_str());
        if (!b && b.error().empty()) std::abort();
    }
}

struct TableSnapshot {
    std::string id;
    std::string lfen;
    std::vector<std::string> moves;
    int view;
    bool operator==(const TableSnapshot&) const = default;
};

TableSnapshot snapshot(const web::lasca_tables::LascaTable& table) {
    return {table.gameId(), table.position().toLfen(), table.moves(), table.viewPly()};
}

void pageMessage(web::lasca_tables::LascaTable& table, std::string_view text) {
    if (const auto parsed = web::messages::parseMessage(text); parsed) checkFields(parsed.value());
    const TableSnapshot before = snapshot(table);
    const auto replies = table.handleText(text);
    checkReplies(replies);
    bool error = false;
    for (const Json& reply : replies) error = error || reply["type"] == "error";
    if (error && (replies.size() != 1 || !(snapshot(table) == before))) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool quiet = common::initLogging("off", "").ok();
    (void)quiet;
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    int counter = 0;
    web::lasca_tables::LascaTable table(fakeFactory(),
                                        [&counter] { return "game" + std::to_string(++counter); });
    checkReplies(table.hello());
    web::torneio_tables::WebSeat seat([] {});
    std::size_t start = 0;
    while (start < input.size()) {
        std::size_t end = input.find('\n', start);
        if (end == std::string_view::npos) end = input.size();
        const std::string_view line = input.substr(start, end - start);
        start = end + 1;
        if (line.starts_with("E ")) {
            checkReplies(table.onEngineLine(line.substr(2)));
        } else if (line == "C") {
            checkReplies(table.onEngineClosed());
        } else if (line.starts_with("R ")) {
            (void)seat.send(line.substr(2));
            // The seat answers `torneio` and `isready` itself: take those replies (receive
            // would wait for a person's otherwise).
            const std::string_view word = line.substr(2, line.find(' ', 2) - 2);
            if (word == "torneio" || word == "isready") {
                std::string reply;
                (void)seat.receive(reply, common::SteadyClock::now());
            }
        } else if (line.starts_with("S ")) {
            if (!seat.submit(line.substr(2))) {
                std::string reply;
                if (seat.receive(reply, common::SteadyClock::now()) != common::ReadStatus::Line)
                    std::abort();
                // The formatted action (formatAction): one line starting with its kind.
                static const std::vector<std::string_view> kinds = {
                    "setup ", "move ", "combat ", "pass", "order ", "withdraw ", "reward "};
                bool known = false;
                for (const auto kind : kinds) known = known || reply.starts_with(kind);
                if (!known || reply.find('\n') != std::string::npos) std::abort();
            }
        } else {
            pageMessage(table, line);
        }
        if (!table.position().validate().empty()) std::abort();
        (void)table.stored();
        (void)table.unsavedChange();
        (void)seat.view(0, 0).dump(-1, ' ', false, Json::error_handler_t::replace);
    }
    return 0;
}
