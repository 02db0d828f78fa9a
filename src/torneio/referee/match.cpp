#include <algorithm>
#include <bit>
#include <cstdio>
#include <filesystem>
#include <map>

#include "common/logging.h"
#include "common/seed.h"
#include "torneio/referee/match.h"

namespace torneio::referee {

namespace {

namespace fs = std::filesystem;

constexpr int kIndexDigits = 6;

// Worker: one thread's seats, one per player, opened (and handshaken) when first needed and
// again after a game that closed them (a fault) or after which they do not answer `isready`
// (a player that ended, or hangs; resync).
class Worker {
  public:
    Worker(const MatchConfig& config, int id)
        : config_(config), id_(id), seats_(config.players.size()) {}

    GameSummary play(const GameSlot& slot) {
        const std::size_t count = config_.players.size();
        std::vector<Seat*> bySeat(count, nullptr);
        GameSetup setup{config_.params, slot.seed, {}, config_.seed, {}, {}, {}};
        for (std::size_t s = 0; s < count; ++s) {
            const auto player = static_cast<std::size_t>(slot.playerAt[s]);
            bySeat[s] = ensure(player);
            setup.names.push_back(config_.players[player].name);
        }
        GameResult result = playGame(bySeat, setup, config_.limits);
        for (const SeatFault& f : result.faults)
            common::logger().warn("game {}: seat {} ({}) disqualified, {}: {}", slot.index + 1,
                                  seatText(f.seat), setup.names[static_cast<std::size_t>(f.seat)],
                                  faultName(f.fault), f.detail);
        if (!config_.recordDir.empty()) save(slot.index, result.record);
        return summarize(slot.index, result.record);
    }

  private:
    // The player's seat, opened and handshaken, or in step again after its last game (the
    // lines it sent since discarded); nullptr when it does not start or answer.
    Seat* ensure(std::size_t player) {
        std::unique_ptr<Seat>& seat = seats_[player];
        const SeatSpec& spec = config_.players[player];
        if (seat && seat->open()) {
            auto synced = resync(*seat, config_.limits);
            if (synced) return seat.get();
            common::logger().warn("player {} is started again: {}", spec.name, synced.error());
        }
        seat.reset();
        auto opened = openSeat(spec, logPath(player));
        if (!opened) {
            common::logger().warn("player {} does not start: {}", spec.name, opened.error());
            return nullptr;
        }
        auto greeted = handshake(*opened.value(), spec, config_.limits);
        if (!greeted) {
            common::logger().warn("player {} does not answer: {}", spec.name, greeted.error());
            return nullptr;
        }
        seat = std::move(opened).value();
        return seat.get();
    }

    std::string logPath(std::size_t player) const {
        if (config_.logDir.empty()) return {};
        return config_.logDir + "/" + std::to_string(player + 1) + "-" +
               config_.players[player].name + "-w" + std::to_string(id_) + ".log";
    }

    // Written under a temporary name and renamed, so that a record file is always whole.
    void save(int index, const Record& record) const {
        const std::string path = recordPath(config_.recordDir, index);
        const std::string partial = path + ".part";
        auto written = writeRecord(partial, record);
        std::error_code error;
        if (written) fs::rename(partial, path, error);
        if (!written || error)
            common::logger().error("game {}: the record is not saved: {}", index + 1,
                                   written ? error.message() : written.error());
    }

    const MatchConfig& config_;
    int id_;
    std::vector<std::unique_ptr<Seat>> seats_;
};

// The index of a record file name "game-000123.jsonl" (122), or nothing for other names.
std::optional<int> recordIndex(const std::string& name) {
    constexpr std::string_view kPrefix = "game-", kSuffix = ".jsonl";
    if (name.size() != kPrefix.size() + kIndexDigits + kSuffix.size() ||
        !name.starts_with(kPrefix) || !name.ends_with(kSuffix))
        return std::nullopt;
    int number = 0;
    for (std::size_t i = kPrefix.size(); i < kPrefix.size() + kIndexDigits; ++i) {
        if (name[i] < '0' || name[i] > '9') return std::nullopt;
        number = number * 10 + (name[i] - '0');
    }
    if (number < 1) return std::nullopt;
    return number - 1;
}

}  // namespace

std::uint64_t gameSeed(std::uint64_t matchSeed, int index) {
    return common::deriveSeed(matchSeed, "torneio game", static_cast<std::uint64_t>(index));
}

std::vector<GameSlot> schedule(int games, int seats, std::uint64_t seed,
                               const common::Shard& shard) {
    std::vector<GameSlot> slots;
    for (int g = 0; g < games; ++g) {
        const int cycle = g / seats;
        if (!shard.holds(cycle)) continue;
        GameSlot slot{g, cycle, {}, gameSeed(seed, g)};
        for (int s = 0; s < seats; ++s) slot.playerAt.push_back((s + g) % seats);
        slots.push_back(std::move(slot));
    }
    return slots;
}

GameSummary summarize(int index, const Record& record) {
    GameSummary summary{index, record.players, record.outcome, {}};
    summary.players.resize(static_cast<std::size_t>(record.params.seats), "?");
    summary.faults.resize(static_cast<std::size_t>(record.params.seats));
    for (const RecordEntry& entry : record.entries)
        if (entry.kind == RecordEntry::Kind::Event && entry.event.kind == EventKind::Disqualified)
            summary.faults[static_cast<std::size_t>(entry.event.seat)] =
                static_cast<Fault>(entry.event.value);
    return summary;
}

double seatScore(const GameSummary& game, int seat) {
    if ((game.outcome.seats >> seat & 1u) == 0) return 0;
    if (game.outcome.kind == OutcomeKind::Win) return 1;
    if (game.outcome.kind == OutcomeKind::Draw) return 1.0 / std::popcount(game.outcome.seats);
    return 0;
}

std::vector<PlayerTotals> tally(const std::vector<GameSummary>& games,
                                std::vector<std::string> names) {
    for (const GameSummary& game : games)
        for (const std::string& name : game.players)
            if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    std::vector<PlayerTotals> totals;
    for (const std::string& name : names) {
        PlayerTotals t;
        t.name = name;
        std::map<double, double> scoreCounts;
        for (const GameSummary& game : games) {
            for (std::size_t s = 0; s < game.players.size(); ++s) {
                if (game.players[s] != name) continue;
                const double score = seatScore(game, static_cast<int>(s));
                ++t.games;
                t.faults += game.faults[s] ? 1 : 0;
                if (score == 1 && game.outcome.kind == OutcomeKind::Win)
                    ++t.wins;
                else if (score > 0)
                    ++t.draws;
                else
                    ++t.losses;
                t.points += score;
                ++scoreCounts[score];
            }
        }
        std::vector<double> scores, counts;
        for (const auto& [score, count] : scoreCounts) {
            scores.push_back(score);
            counts.push_back(count);
        }
        t.rate = common::wilson95(common::momentsOf(scores, counts));
        totals.push_back(std::move(t));
    }
    return totals;
}

std::string recordPath(const std::string& dir, int index) {
    char name[32];
    std::snprintf(name, sizeof name, "game-%06d.jsonl", index + 1);
    return (fs::path(dir) / name).string();
}

common::Result<RecordFolder> readRecords(const std::string& dir) {
    RecordFolder folder;
    std::error_code error;
    fs::directory_iterator it(dir, error);
    if (error) return common::makeError("cannot read folder " + dir + ": " + error.message());
    for (const fs::directory_entry& entry : it) {
        const std::string name = entry.path().filename().string();
        const auto index = recordIndex(name);
        if (!index) {
            folder.skipped.push_back(name);
            continue;
        }
        auto record = readRecord(entry.path().string());
        if (!record) return common::makeError(record.error());
        folder.games.emplace_back(*index, std::move(record).value());
    }
    std::sort(folder.games.begin(), folder.games.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::sort(folder.skipped.begin(), folder.skipped.end());
    return folder;
}

std::vector<GameSummary> runMatch(const MatchConfig& config, std::vector<GameSummary> done,
                                  const GameCallback& onGame) {
    const auto slots =
        schedule(config.games, static_cast<int>(config.players.size()), config.seed, config.shard);
    auto makeWorker = [&config](int id) {
        return [worker = Worker(config, id)](const GameSlot& slot) mutable {
            return worker.play(slot);
        };
    };
    return common::runJobs(slots, std::move(done), config.concurrency, makeWorker, onGame);
}

}  // namespace torneio::referee
