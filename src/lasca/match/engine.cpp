#include "lasca/match/engine.h"

#include <span>
#include <string_view>

#include "common/program_spec.h"
#include "common/text.h"
#include "lasca/engine/replies.h"

namespace lasca::match {

namespace {

constexpr std::chrono::milliseconds kQuitGrace{300};

// An engine's own limit (movetime=MS, nodes=N): a whole number in 1..10^12.
common::Result<std::int64_t> engineLimit(const std::string& key, const std::string& value) {
    const auto v = common::parseBoundedInteger(value, 1, 1'000'000'000'000);
    if (!v)
        return common::makeError(key + " must be a whole number from 1 to 10^12, not '" + value +
                                 "'");
    return *v;
}

}  // namespace

common::Result<EngineSpec> parseEngineSpec(const std::string& text, EngineLimits limits) {
    constexpr std::string_view kAllKeys[] = {"proto", "movetime", "nodes"};
    const std::span<const std::string_view> keys(kAllKeys, limits == EngineLimits::Allowed ? 3 : 1);
    auto parsed = common::parseProgramSpec(text, keys);
    if (!parsed) return common::makeError("engine '" + text + "': " + parsed.error());
    const common::ProgramSpec& p = parsed.value();
    EngineSpec e{p.name, p.path, p.args, p.options, Dialect::Uci};
    for (const auto& [key, value] : p.extra) {
        if (key == "proto") {
            if (value != "uci" && value != "ugi")
                return common::makeError("engine '" + text + "': proto must be uci or ugi");
            e.dialect = value == "ugi" ? Dialect::Ugi : Dialect::Uci;
            continue;
        }
        auto limit = engineLimit(key, value);
        if (!limit) return common::makeError("engine '" + text + "': " + limit.error());
        (key == "movetime" ? e.movetimeMs : e.nodes) = limit.value();
    }
    if (e.movetimeMs > 0 && e.nodes > 0)
        return common::makeError("engine '" + text + "': give only one of movetime and nodes");
    if (e.path.empty()) return common::makeError("engine '" + text + "' has no cmd");
    return e;
}

EngineListing readListing(common::ChildProcess& process, Dialect dialect,
                          common::SteadyClock::time_point deadline) {
    const bool ugi = dialect == Dialect::Ugi;
    process.writeLine(ugi ? "ugi" : "uci", deadline);
    EngineListing listing;
    std::string line;
    while ((listing.status = process.readLine(line, deadline)) == common::ReadStatus::Line) {
        const auto tokens = common::splitWhitespace(line);
        if (!tokens.empty() && tokens[0] == (ugi ? "ugiok" : "uciok")) break;
        if (auto option = engine::parseOption(line)) listing.options.push_back(*option);
    }
    return listing;
}

common::Result<std::unique_ptr<Engine>> Engine::start(const EngineSpec& spec,
                                                      const Timeouts& timeouts,
                                                      const std::string& stderrLog) {
    auto process = common::ChildProcess::start(spec.path, spec.args, stderrLog);
    if (!process) return common::makeError(process.error());
    std::unique_ptr<Engine> engine(new Engine(spec, timeouts, std::move(process).value()));
    auto ok = engine->handshake();
    if (!ok) return common::makeError(spec.name + ": " + ok.error());
    return engine;
}

Engine::~Engine() {
    quit();
}

common::Result<bool> Engine::handshake() {
    const bool ugi = spec_.dialect == Dialect::Ugi;
    const EngineListing listing =
        readListing(*process_, spec_.dialect, common::SteadyClock::now() + timeouts_.startup);
    if (listing.status != common::ReadStatus::Line) {
        alive_ = false;
        return common::makeError(std::string("no ") + (ugi ? "ugiok" : "uciok") + " within " +
                                 std::to_string(timeouts_.startup.count()) + " ms");
    }
    for (const auto& [name, value] : spec_.options)
        send("setoption name " + name + " value " + value, timeouts_.isready);
    send("isready", timeouts_.isready);
    if (!waitFor("readyok", timeouts_.isready))
        return common::makeError("no readyok within " + std::to_string(timeouts_.isready.count()) +
                                 " ms");
    return true;
}

bool Engine::waitFor(const std::string& token, std::chrono::milliseconds timeout) {
    const auto deadline = common::SteadyClock::now() + timeout;
    std::string line;
    for (;;) {
        const common::ReadStatus s = process_->readLine(line, deadline);
        if (s != common::ReadStatus::Line) {
            alive_ = false;
            return false;
        }
        const auto tokens = common::splitWhitespace(line);
        if (!tokens.empty() && tokens[0] == token) return true;
    }
}

bool Engine::newGame() {
    if (!alive_) return false;
    send(spec_.dialect == Dialect::Ugi ? "uginewgame" : "ucinewgame", timeouts_.isready);
    send("isready", timeouts_.isready);
    return waitFor("readyok", timeouts_.isready);
}

MoveReply Engine::requestMove(const std::string& positionCommand, const std::string& goCommand,
                              std::chrono::milliseconds deadline) {
    MoveReply reply;
    send(positionCommand, timeouts_.isready);
    // Synchronise first: anything the engine still had to say (a late or duplicate bestmove)
    // arrives before readyok and is dropped, so it cannot be taken for this move's answer.
    send("isready", timeouts_.isready);
    if (!waitFor("readyok", timeouts_.isready)) {
        reply.status = process_->wait(std::chrono::milliseconds(0)) ? ReplyStatus::Crashed
                                                                    : ReplyStatus::Timeout;
        return reply;
    }
    const auto sent = common::SteadyClock::now();
    const bool written = send(goCommand, deadline);
    std::string line;
    for (;;) {
        const common::ReadStatus s = process_->readLine(line, sent + deadline);
        reply.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
            common::SteadyClock::now() - sent);
        if (s == common::ReadStatus::Timeout) reply.status = ReplyStatus::Timeout;
        if (s == common::ReadStatus::Closed || (s == common::ReadStatus::Timeout && !written))
            reply.status = ReplyStatus::Crashed;
        if (s != common::ReadStatus::Line) {
            alive_ = false;
            return reply;
        }
        const auto best = engine::parseBestMove(line);
        if (!best) continue;
        reply.move = best->move;
        if (reply.move.empty()) reply.status = ReplyStatus::Garbled;
        return reply;
    }
}

void Engine::quit() {
    if (!process_) return;
    send("quit", kQuitGrace);
    if (!process_->wait(kQuitGrace)) process_->kill();
    process_.reset();
    alive_ = false;
}

bool Engine::send(std::string_view line, std::chrono::milliseconds wait) {
    return process_->writeLine(line, common::SteadyClock::now() + wait) ==
           common::WriteStatus::Written;
}

}  // namespace lasca::match
