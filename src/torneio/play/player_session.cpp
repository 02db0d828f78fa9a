#include "torneio/play/player_session.h"

#include <istream>
#include <ostream>

#include "common/logging.h"
#include "common/random.h"
#include "common/text.h"
#include "torneio/play/ai/ai_options.h"
#include "torneio/play/seat_command.h"

namespace torneio::play {

namespace {

using Tokens = std::vector<std::string_view>;

std::string joinFrom(const Tokens& tokens, std::size_t from) {
    std::string text;
    for (std::size_t i = from; i < tokens.size(); ++i) {
        if (!text.empty()) text += ' ';
        text += tokens[i];
    }
    return text;
}

std::vector<std::string> one(std::string line) {
    return {std::move(line)};
}

std::vector<std::string> errorReply(const std::string& message) {
    return one(common::errorLine(message));
}

// Why a well-formed request cannot be meant for this seat as its knowledge stands, if so.
std::optional<std::string> mismatch(const Request& request, const Knowledge& k) {
    if (k.eliminated(k.seat())) return "I am out of the game";
    const bool setUp = k.setUp();
    switch (request.kind) {
        case RequestKind::SetUp:
            if (setUp) return std::string("I have set up already");
            break;
        case RequestKind::Withdraw: {
            const Piece& piece = k.own()[request.piece];
            if (!piece.alive || piece.square != request.from)
                return "my warrior " + std::to_string(request.piece) + " is not on " +
                       k.geometry().name(request.from);
            break;
        }
        case RequestKind::RetreatOrder:
            if (request.loser == k.seat()) return std::string("I cannot order my own piece");
            break;
        default:
            if (!setUp) return std::string("I have not set up");
            break;
    }
    return std::nullopt;
}

}  // namespace

PlayerSession::PlayerSession() {
    common::Option player{
        "Player", common::OptionType::Combo, std::string(kDefaultPlayerKind), 0, 0, {}, {}};
    for (const PlayerKind& kind : playerKinds()) player.choices.emplace_back(kind.name);
    options_.add(player);
    options_.add({"Seed", common::OptionType::Spin, "0", 0, kMaxSeedOption, {}, {}});
    addAiOptions(options_);  // the `ai` kind's settings (ai_options.h)
}

std::vector<std::string> PlayerSession::identify() const {
    std::vector<std::string> lines{
        std::string("id name ") + kPlayerProgramName + " " + kPlayerVersion,
        std::string("id author ") + kPlayerAuthor};
    for (const common::Option& option : options_.all())
        lines.push_back(common::Options::describe(option));
    lines.emplace_back("torneiook");
    return lines;
}

std::optional<std::string> PlayerSession::setOption(std::string_view line) {
    const auto option = common::parseSetOption(line);
    if (!option) return "setoption needs: setoption name <id> [value <x>]";
    auto set = options_.set(option->name, option->value);
    if (!set) return set.error();
    return std::nullopt;
}

// newgame seat <n> seed <s> <params>: a fresh Knowledge and a fresh player of the Player kind.
std::optional<std::string> PlayerSession::newGame(const Tokens& t) {
    if (t.size() < 6 || t[1] != "seat" || t[3] != "seed")
        return "newgame needs: newgame seat <n> seed <s> seats=<n> [<key>=<value> ...]";
    const auto seed = common::parseSeed(t[4]);
    if (!seed) return "newgame: seed must be a number in 0..18446744073709551615";
    auto params = parseParams(joinFrom(t, 5));
    if (!params) return "newgame: " + params.error();
    auto seat = parseSeat(t[2], params.value().seats);
    if (!seat) return "newgame: " + seat.error();
    auto player = makePlayer(options_.stringValue("Player"));
    if (!player) return "no player kind '" + options_.stringValue("Player") + "'";
    knowledge_.emplace(params.value(), seat.value());
    setUpAsked_ = false;
    player_ = std::move(player);
    player_->configure(options_);
    const auto optionSeed = static_cast<std::uint64_t>(options_.intValue("Seed"));
    player_->newGame(*knowledge_, common::mixSeed(optionSeed, *seed));
    return std::nullopt;
}

std::optional<std::string> PlayerSession::event(std::string_view line) {
    if (!knowledge_) return "no game: send newgame first";
    auto parsed = parseEvent(line, knowledge_->seat(), knowledge_->geometry());
    if (!parsed) return parsed.error();
    if (parsed.value().kind == EventKind::SetUp && !setUpAsked_)
        return "a set-up event before my set-up was asked for";
    auto updated = knowledge_->update(parsed.value());  // no change on an error
    if (!updated) return updated.error();
    player_->observe(parsed.value(), *knowledge_);
    return std::nullopt;
}

// A request: the player's reply, or an error line when the request has no legal reply with the
// seat's own pieces (the referee and the player disagree about them).
std::string PlayerSession::request(std::string_view line) {
    if (!knowledge_) return common::errorLine("no game: send newgame first");
    if (knowledge_->over()) return common::errorLine("the game is over");
    const Knowledge& k = *knowledge_;
    auto parsed = parseRequest(line, k.seat(), k.geometry());
    if (!parsed) return common::errorLine(parsed.error());
    if (auto wrong = mismatch(parsed.value(), k)) return common::errorLine(*wrong);
    if (parsed.value().kind == RequestKind::SetUp) setUpAsked_ = true;
    if (countLegalActions(parsed.value(), k.own(), k.geometry()) == 0)
        return common::errorLine("no legal reply to '" + common::printable(line) +
                                 "' with my pieces");
    Action action = player_->decide(parsed.value(), k);
    if (!isLegal(parsed.value(), k.own(), k.geometry(), action)) {
        common::logger().error("player {} chose an illegal reply; a random one is sent",
                               options_.stringValue("Player"));
        common::Random fallback(static_cast<std::uint64_t>(k.round()));
        action = randomAction(parsed.value(), k.own(), k.geometry(), fallback);
    }
    return formatAction(action, k.geometry());
}

std::vector<std::string> PlayerSession::handle(std::string_view line) {
    const Tokens t = common::splitWhitespace(line);
    std::optional<std::string> error;
    switch (seatCommand(line)) {
        case SeatCommand::Empty:
            return errorReply("empty line");
        case SeatCommand::Torneio:
            return identify();
        case SeatCommand::IsReady:
            return one("readyok");
        case SeatCommand::Request:
            return one(request(line));
        case SeatCommand::Event:
            error = event(line);
            break;
        case SeatCommand::SetOption:
            error = setOption(line);
            break;
        case SeatCommand::NewGame:
            error = newGame(t);
            break;
        case SeatCommand::Quit:
            quit_ = true;
            break;
        case SeatCommand::Unknown:
            error = "unknown command '" + common::printable(t[0]) + "'";
            break;
    }
    if (error) return errorReply(*error);
    return {};
}

int runPlayerLoop(std::istream& in, std::ostream& out) {
    PlayerSession session;
    common::BoundedLine line;
    while (!session.quit() && common::readBoundedLine(in, kMaxInputLine, line)) {
        common::logger().debug("<< {}", common::printable(line.text, 200));
        const std::vector<std::string> replies =
            line.tooLong(kMaxInputLine)
                ? errorReply("line too long (" + std::to_string(line.length) + " bytes, at most " +
                             std::to_string(kMaxInputLine) + ")")
                : session.handle(line.text);
        for (const std::string& reply : replies) {
            out << reply << '\n' << std::flush;
            common::logger().debug(">> {}", reply);
        }
    }
    return 0;
}

}  // namespace torneio::play
