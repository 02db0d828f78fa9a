#include "lasca/match/match.h"

#include <algorithm>
#include <map>
#include <memory>

#include "lasca/core/position.h"

namespace lasca::match {

namespace {

// Worker: one thread's pair of engine processes, restarted when they fail.
class Worker {
  public:
    Worker(const MatchConfig& config, int id) : config_(config), id_(id) {}

    GameRecord play(const GameSlot& slot) {
        const std::size_t whiteEngine = slot.firstIsWhite ? 0 : 1;
        const std::string lfen = config_.openings.empty()
                                     ? std::string(kStartLfen)
                                     : config_.openings[static_cast<std::size_t>(slot.opening)];
        std::array<Engine*, 2> byColour{};
        for (std::size_t c = 0; c < 2; ++c) {
            const std::size_t e = c == 0 ? whiteEngine : 1 - whiteEngine;
            std::string error;
            byColour[c] = ensure(e, error);
            if (!byColour[c]) {
                GameRecord record = forfeitGame(c == 0 ? Color::White : Color::Black, error);
                record.startLfen = lfen;
                return label(std::move(record), slot);
            }
        }
        const Position start = Position::fromLfen(lfen).value();
        return label(playGame(*byColour[0], *byColour[1], start, config_.game), slot);
    }

  private:
    Engine* ensure(std::size_t e, std::string& error) {
        if (engines_[e] && engines_[e]->alive()) return engines_[e].get();
        engines_[e].reset();
        const EngineSpec& spec = config_.engines[e];
        auto started = Engine::start(spec, config_.timeouts, logPath(e));
        if (!started) {
            error = started.error();
            return nullptr;
        }
        engines_[e] = std::move(started).value();
        return engines_[e].get();
    }

    std::string logPath(std::size_t e) const {
        if (config_.logDir.empty()) return {};
        return config_.logDir + "/" + std::to_string(e + 1) + "-" + config_.engines[e].name + "-w" +
               std::to_string(id_) + ".log";
    }

    GameRecord label(GameRecord record, const GameSlot& slot) const {
        record.index = slot.index;
        record.pair = slot.pair;
        record.opening = slot.opening;
        record.whiteIsFirst = slot.firstIsWhite;
        record.white = config_.engines[slot.firstIsWhite ? 0 : 1].name;
        record.black = config_.engines[slot.firstIsWhite ? 1 : 0].name;
        return record;
    }

    const MatchConfig& config_;
    int id_;
    std::array<std::unique_ptr<Engine>, 2> engines_;
};

}  // namespace

std::vector<GameSlot> schedule(int games, std::size_t openingCount, const Shard& shard) {
    std::vector<GameSlot> slots;
    for (int g = 0; g < games; ++g) {
        const int pair = g / 2;
        if (!shard.holds(pair)) continue;
        GameSlot slot;
        slot.index = g;
        slot.pair = pair;
        slot.opening =
            openingCount == 0 ? 0 : static_cast<int>(static_cast<std::size_t>(pair) % openingCount);
        slot.firstIsWhite = g % 2 == 0;
        slots.push_back(slot);
    }
    return slots;
}

double firstEnginePoints(const GameRecord& record) {
    if (record.outcome == Outcome::Draw) return 0.5;
    const bool whiteWon = record.outcome == Outcome::WhiteWins;
    return whiteWon == record.whiteIsFirst ? 1.0 : 0.0;
}

MatchTotals tally(const std::vector<GameRecord>& records) {
    MatchTotals totals;
    std::map<int, std::vector<double>> pairs;
    for (const auto& r : records) {
        const double p = firstEnginePoints(r);
        if (p == 1.0) ++totals.wdl.wins;
        if (p == 0.5) ++totals.wdl.draws;
        if (p == 0.0) ++totals.wdl.losses;
        pairs[r.pair].push_back(p);
    }
    for (const auto& [pair, points] : pairs) {
        if (points.size() != 2) continue;
        const auto halves = static_cast<std::size_t>(2 * (points[0] + points[1]) + 0.5);
        ++totals.pentanomial.counts[halves];
    }
    return totals;
}

std::vector<GameRecord> runMatch(const MatchConfig& config, std::vector<GameRecord> done,
                                 const GameCallback& onGame) {
    const auto slots = schedule(config.games, config.openings.size(), config.shard);
    auto makeWorker = [&config](int id) {
        return [worker = Worker(config, id)](const GameSlot& slot) mutable {
            return worker.play(slot);
        };
    };
    return common::runJobs(slots, std::move(done), config.concurrency, makeWorker, onGame);
}

}  // namespace lasca::match
