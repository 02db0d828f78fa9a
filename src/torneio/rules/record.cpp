#include "torneio/rules/record.h"

#include <bit>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "common/seed.h"
#include "common/text.h"

namespace torneio {

namespace {

using common::makeError;
using json = nlohmann::ordered_json;

constexpr std::string_view kFormat = "torneio-record";
constexpr int kVersion = 1;

// ---- Writing ---------------------------------------------------------------------------------

json paramsJson(const Params& p) {
    return json{{"seats", p.seats},
                {"board", p.boardSize},
                {"depth", p.zoneDepth},
                {"trim", p.zoneTrim},
                {"strength", p.strengthTotal},
                {"minstrength", p.minStrength},
                {"rounds", p.maxRounds},
                {"pass", p.pass == PassRule::Always ? "always" : "stuck"}};
}

json startJson(const StartPosition& start, const Geometry& geometry) {
    json seats = json::array();
    for (int seat = 0; seat < geometry.seats(); ++seat) {
        json pieces = json::array();
        for (const Piece& p : start.pieces[static_cast<std::size_t>(seat)].pieces) {
            json square = p.square == kNoSquare ? json(nullptr) : json(geometry.name(p.square));
            pieces.push_back(
                json{{"square", square}, {"strength", p.strength}, {"alive", p.alive}});
        }
        seats.push_back(pieces);
    }
    return json{{"turn", start.turnSeat + 1}, {"round", start.round}, {"pieces", seats}};
}

json seatsJson(unsigned mask) {
    json seats = json::array();
    for (int seat = 0; seat < kMaxSeats; ++seat)
        if ((mask >> seat & 1u) != 0) seats.push_back(seat + 1);
    return seats;
}

std::string_view outcomeWord(OutcomeKind kind) {
    switch (kind) {
        case OutcomeKind::Ongoing:
            return "ongoing";
        case OutcomeKind::Win:
            return "win";
        case OutcomeKind::Draw:
            return "draw";
    }
    return "ongoing";
}

// ---- Reading ---------------------------------------------------------------------------------

std::optional<int> intField(const json& object, const char* key, int low, int high) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number_integer()) return std::nullopt;
    const auto value = it->get<std::int64_t>();
    if (value < low || value > high) return std::nullopt;
    return static_cast<int>(value);
}

std::optional<std::string> stringField(const json& object, const char* key) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
}

common::Result<Params> readParams(const json& object) {
    if (!object.is_object()) return makeError("params must be an object");
    // The same keys as formatParams: read them back through parseParams so that the checks are
    // the same.
    std::string text;
    for (const char* key :
         {"seats", "board", "depth", "trim", "strength", "minstrength", "rounds"}) {
        const auto value = intField(object, key, 0, kMaxRoundsLimit);
        if (!value) return makeError(std::string("params.") + key + " missing or out of range");
        text += std::string(key) + "=" + std::to_string(*value) + " ";
    }
    const auto pass = stringField(object, "pass");
    if (!pass) return makeError("params.pass missing");
    text += "pass=" + *pass;
    return parseParams(text);
}

common::Result<StartPosition> readStart(const json& object, const Geometry& geometry) {
    StartPosition start;
    const auto turn = intField(object, "turn", 1, geometry.seats());
    const auto round = intField(object, "round", 1, geometry.params().maxRounds);
    const auto pieces = object.find("pieces");
    if (!turn || !round || pieces == object.end() || !pieces->is_array() ||
        pieces->size() != static_cast<std::size_t>(geometry.seats()))
        return makeError("start must have turn, round and pieces per seat");
    start.turnSeat = *turn - 1;
    start.round = *round;
    for (std::size_t seat = 0; seat < pieces->size(); ++seat) {
        const json& list = (*pieces)[seat];
        if (!list.is_array() || list.size() != kPiecesPerSeat)
            return makeError("start: 4 pieces per seat");
        for (std::size_t i = 0; i < kPiecesPerSeat; ++i) {
            const json& p = list[i];
            const auto strength = intField(p, "strength", 0, 1'000'000);
            const auto alive = p.find("alive");
            const auto square = p.find("square");
            if (!p.is_object() || !strength || alive == p.end() || !alive->is_boolean() ||
                square == p.end())
                return makeError("start: a piece needs square, strength and alive");
            Piece& piece = start.pieces[seat].pieces[i];
            piece.strength = *strength;
            piece.alive = alive->get<bool>();
            if (square->is_null()) {
                piece.square = kNoSquare;
            } else if (square->is_string()) {
                auto parsed = geometry.parse(square->get<std::string>());
                if (!parsed) return makeError("start: " + parsed.error());
                piece.square = parsed.value();
            } else {
                return makeError("start: a square is a name or null");
            }
        }
    }
    return start;
}

// "all" or a seat 1..N.
common::Result<int> readAudience(const json& object, int seats) {
    const auto it = object.find("to");
    if (it != object.end() && it->is_string() && it->get<std::string>() == "all") return kPublic;
    const auto seat = intField(object, "to", 1, seats);
    if (!seat) return makeError("an event's \"to\" must be \"all\" or a seat");
    return *seat - 1;
}

common::Result<RecordEntry> readEntry(const json& object, const Geometry& geometry) {
    RecordEntry entry;
    const auto type = stringField(object, "type");
    const auto text = stringField(object, "text");
    if (!type || !text) return makeError("an entry needs type and text");
    if (*type == "action") {
        const auto seat = intField(object, "seat", 1, geometry.seats());
        if (!seat)
            return makeError("an action's seat must be 1.." + std::to_string(geometry.seats()));
        auto action = parseAction(*text, geometry);
        if (!action) return makeError(action.error());
        entry.kind = RecordEntry::Kind::Action;
        entry.seat = *seat - 1;
        entry.action = action.value();
        return entry;
    }
    if (*type == "event") {
        auto audience = readAudience(object, geometry.seats());
        if (!audience) return makeError(audience.error());
        auto event = parseEvent(*text, audience.value(), geometry);
        if (!event) return makeError(event.error());
        if (event.value().audience != audience.value())
            return makeError("the event's audience does not fit its kind (D8)");
        entry.kind = RecordEntry::Kind::Event;
        entry.event = event.value();
        return entry;
    }
    return makeError("unknown entry type '" + common::printable(*type) + "'");
}

common::Result<Outcome> readOutcome(const json& object, const Geometry& geometry) {
    Outcome outcome;
    const auto word = stringField(object, "outcome");
    const auto round = intField(object, "round", 0, geometry.params().maxRounds);
    const auto seats = object.find("seats");
    if (!word || !round || seats == object.end() || !seats->is_array())
        return makeError("a result needs outcome, seats and round");
    if (*word == "win") {
        outcome.kind = OutcomeKind::Win;
    } else if (*word == "draw") {
        outcome.kind = OutcomeKind::Draw;
    } else if (*word != "ongoing") {
        return makeError("outcome must be ongoing, win or draw");
    }
    outcome.round = *round;
    for (const json& seat : *seats) {
        if (!seat.is_number_integer() || seat.get<std::int64_t>() < 1 ||
            seat.get<std::int64_t>() > geometry.seats())
            return makeError("result seats must be 1.." + std::to_string(geometry.seats()));
        outcome.seats |= 1u << (seat.get<int>() - 1);
    }
    return outcome;
}

// A 64-bit number written as a decimal string (exact beyond 2^53); nothing if absent or not one.
std::optional<std::uint64_t> decimalField(const json& object, const char* key) {
    const auto text = stringField(object, key);
    if (!text) return std::nullopt;
    return common::parseSeed(*text);
}

common::Result<Record> readHeader(const json& header) {
    Record record;
    if (!header.is_object() ||
        stringField(header, "type") != std::optional<std::string>("header") ||
        stringField(header, "format") != std::optional<std::string>(std::string(kFormat)))
        return makeError("the first line must be a torneio-record header");
    if (intField(header, "version", kVersion, kVersion) != kVersion)
        return makeError("unsupported record version");
    const auto params = header.find("params");
    if (params == header.end()) return makeError("the header has no params");
    auto parsedParams = readParams(*params);
    if (!parsedParams) return makeError(parsedParams.error());
    record.params = parsedParams.value();
    const Geometry geometry(record.params);

    const auto seed = decimalField(header, "seed");
    if (!seed) return makeError("seed must be a decimal string");
    record.seed = *seed;
    if (header.contains("matchSeed")) {
        record.matchSeed = decimalField(header, "matchSeed");
        if (!record.matchSeed) return makeError("matchSeed must be a decimal string");
    }

    if (const auto players = header.find("players"); players != header.end()) {
        if (!players->is_array()) return makeError("players must be a list of names");
        for (const json& name : *players) {
            if (!name.is_string()) return makeError("players must be a list of names");
            record.players.push_back(name.get<std::string>());
        }
    }
    if (const auto view = header.find("view"); view != header.end() && !view->is_null()) {
        const auto seat = intField(header, "view", 1, record.params.seats);
        if (!seat) return makeError("view must be null or a seat");
        record.viewSeat = *seat - 1;
    }
    if (const auto start = header.find("start"); start != header.end() && !start->is_null()) {
        auto parsedStart = readStart(*start, geometry);
        if (!parsedStart) return makeError(parsedStart.error());
        record.start = parsedStart.value();
    }
    return record;
}

}  // namespace

std::uint64_t seatSeed(std::uint64_t gameSeed, int seat) {
    return common::deriveSeed(gameSeed, "torneio seat", static_cast<std::uint64_t>(seat + 1));
}

Record recordOf(const State& state, std::uint64_t seed, std::vector<std::string> players) {
    Record record;
    record.params = state.params();
    record.seed = seed;
    record.players = std::move(players);
    record.start = state.start();
    const std::vector<Event>& events = state.events();
    const std::vector<Decision>& history = state.history();
    const auto addEvents = [&](std::size_t first, std::size_t last) {
        for (std::size_t i = first; i < last && i < events.size(); ++i) {
            RecordEntry entry;
            entry.kind = RecordEntry::Kind::Event;
            entry.event = events[i];
            record.entries.push_back(entry);
        }
    };
    addEvents(0, history.empty() ? events.size() : history.front().firstEvent);
    for (std::size_t d = 0; d < history.size(); ++d) {
        RecordEntry entry;
        entry.kind = RecordEntry::Kind::Action;
        entry.seat = history[d].seat;
        entry.action = history[d].action;
        record.entries.push_back(entry);
        addEvents(history[d].firstEvent,
                  d + 1 < history.size() ? history[d + 1].firstEvent : events.size());
    }
    record.outcome = state.outcome();
    return record;
}

Record seatRecord(const Record& record, int seat) {
    Record seen = record;
    seen.viewSeat = seat;
    seen.seed = seatSeed(record.seed, seat);
    seen.matchSeed.reset();
    seen.entries.clear();
    for (const RecordEntry& entry : record.entries) {
        const bool visible = entry.kind == RecordEntry::Kind::Action ? entry.seat == seat
                                                                     : visibleTo(entry.event, seat);
        if (visible) seen.entries.push_back(entry);
    }
    if (seen.start) {  // other seats' pieces of a start position are hidden facts
        for (int s = 0; s < kMaxSeats; ++s)
            if (s != seat) seen.start->pieces[static_cast<std::size_t>(s)] = OwnPieces{};
    }
    return seen;
}

std::string formatRecord(const Record& record) {
    const Geometry geometry(record.params);
    std::string text;
    json header{{"type", "header"},
                {"format", kFormat},
                {"version", kVersion},
                {"params", paramsJson(record.params)},
                {"seed", std::to_string(record.seed)},
                {"players", record.players},
                {"view", record.viewSeat < 0 ? json(nullptr) : json(record.viewSeat + 1)},
                {"start", record.start ? startJson(*record.start, geometry) : json(nullptr)}};
    if (record.matchSeed) header["matchSeed"] = std::to_string(*record.matchSeed);
    text += header.dump() + "\n";
    for (const RecordEntry& entry : record.entries) {
        json line;
        if (entry.kind == RecordEntry::Kind::Action) {
            line = json{{"type", "action"},
                        {"seat", entry.seat + 1},
                        {"text", formatAction(entry.action, geometry)}};
        } else {
            const int audience = entry.event.audience;
            line = json{{"type", "event"},
                        {"to", audience == kPublic ? json("all") : json(audience + 1)},
                        {"text", formatEvent(entry.event, geometry)}};
        }
        text += line.dump() + "\n";
    }
    json result{{"type", "result"},
                {"outcome", outcomeWord(record.outcome.kind)},
                {"seats", seatsJson(record.outcome.seats)},
                {"round", record.outcome.round}};
    text += result.dump() + "\n";
    return text;
}

common::Result<Record> parseRecord(std::string_view text) {
    std::vector<std::string_view> lines;
    for (std::size_t start = 0; start < text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.push_back(line);
        start = end + 1;
    }
    while (!lines.empty() && lines.back().empty()) lines.pop_back();
    if (lines.empty()) return makeError("empty record");
    const auto lineError = [](std::size_t index, const std::string& what) {
        return makeError("line " + std::to_string(index + 1) + ": " + what);
    };
    const auto parseLine = [](std::string_view line) {
        return json::parse(line.begin(), line.end(), nullptr, false);
    };

    auto headerResult = readHeader(parseLine(lines[0]));
    if (!headerResult) return lineError(0, headerResult.error());
    Record record = std::move(headerResult).value();
    const Geometry geometry(record.params);
    bool resultSeen = false;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const json object = parseLine(lines[i]);
        if (object.is_discarded() || !object.is_object()) return lineError(i, "not a JSON object");
        if (resultSeen) return lineError(i, "nothing may follow the result");
        if (stringField(object, "type") == std::optional<std::string>("result")) {
            auto outcome = readOutcome(object, geometry);
            if (!outcome) return lineError(i, outcome.error());
            record.outcome = outcome.value();
            resultSeen = true;
            continue;
        }
        auto entry = readEntry(object, geometry);
        if (!entry) return lineError(i, entry.error());
        record.entries.push_back(entry.value());
    }
    return record;
}

common::Result<bool> writeRecord(const std::string& path, const Record& record) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return makeError("cannot write " + path);
    out << formatRecord(record);
    out.close();
    if (!out) return makeError("cannot write " + path);
    return true;
}

common::Result<Record> readRecord(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return makeError("cannot read " + path);
    std::ostringstream text;
    text << in.rdbuf();
    auto record = parseRecord(text.str());
    if (!record) return makeError(path + ": " + record.error());
    return record;
}

common::Result<Summary> replayRecord(const Record& record) {
    if (record.viewSeat >= 0) return makeError("a seat's record cannot be replayed");
    auto created = record.start ? State::fromPosition(record.params, *record.start)
                                : State::create(record.params);
    if (!created) return makeError(created.error());
    State state = std::move(created).value();
    const Geometry& geometry = state.geometry();
    std::size_t matched = 0;  // events of the state already found in the record
    std::size_t decisions = 0;
    const auto entryError = [](std::size_t index, const std::string& what) {
        return makeError("entry " + std::to_string(index + 1) + ": " + what);
    };
    for (std::size_t i = 0; i < record.entries.size(); ++i) {
        const RecordEntry& entry = record.entries[i];
        if (entry.kind == RecordEntry::Kind::Event) {
            if (entry.event.kind == EventKind::Disqualified && matched == state.events().size()) {
                // The referee's act, not a decision: do it again where the record has it.
                auto out =
                    state.disqualify(entry.event.seat, static_cast<Fault>(entry.event.value));
                if (!out) return entryError(i, out.error());
            }
            if (matched >= state.events().size())
                return entryError(i, "the rules give no event here, the record has '" +
                                         formatEvent(entry.event, geometry) + "'");
            const Event& expected = state.events()[matched];
            if (!(expected == entry.event))
                return entryError(
                    i, "the rules give '" + formatEvent(expected, geometry) + "' (to " +
                           (expected.audience == kPublic ? std::string("all")
                                                         : seatText(expected.audience)) +
                           "), the record has '" + formatEvent(entry.event, geometry) + "'");
            ++matched;
            continue;
        }
        if (matched != state.events().size())
            return entryError(i, "the record leaves out '" +
                                     formatEvent(state.events()[matched], geometry) + "'");
        auto applied = state.apply(entry.seat, entry.action);
        if (!applied)
            return entryError(i, "'" + formatAction(entry.action, geometry) + "' by seat " +
                                     seatText(entry.seat) + ": " + applied.error());
        ++decisions;
    }
    if (matched != state.events().size())
        return makeError("the record ends before '" +
                         formatEvent(state.events()[matched], geometry) + "'");
    if (!(state.outcome() == record.outcome))
        return makeError("the recorded result is not the rules' result");
    return Summary{state.outcome(), decisions, matched};
}

std::string recordListing(const Record& record) {
    const Geometry geometry(record.params);
    std::string out =
        "torneio game: " + formatParams(record.params) + " seed=" + std::to_string(record.seed);
    if (record.matchSeed) out += " match-seed=" + std::to_string(*record.matchSeed);
    for (std::size_t i = 0; i < record.players.size(); ++i)
        out += " seat" + seatText(static_cast<int>(i)) + "=" + record.players[i];
    if (record.viewSeat >= 0) out += " (as seen by seat " + seatText(record.viewSeat) + ")";
    out += '\n';
    for (const RecordEntry& entry : record.entries) {
        if (entry.kind == RecordEntry::Kind::Action) {
            out +=
                "seat " + seatText(entry.seat) + ": " + formatAction(entry.action, geometry) + '\n';
            continue;
        }
        out += "    " + formatEvent(entry.event, geometry);
        if (entry.event.audience != kPublic)
            out += "  (to seat " + seatText(entry.event.audience) + ")";
        out += '\n';
    }
    const Outcome& o = record.outcome;
    std::string seats;
    for (int seat = 0; seat < record.params.seats; ++seat)
        if (o.seats & (1u << seat)) seats += " " + seatText(seat);
    switch (o.kind) {
        case OutcomeKind::Win:
            out += "result: seat" + seats + " wins in round " + std::to_string(o.round) + '\n';
            break;
        case OutcomeKind::Draw:
            out += "result: draw among seats" + seats + " after round " + std::to_string(o.round) +
                   '\n';
            break;
        case OutcomeKind::Ongoing:
            out += "result: not finished\n";
            break;
    }
    return out;
}

}  // namespace torneio
