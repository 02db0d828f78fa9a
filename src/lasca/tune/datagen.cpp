#include "lasca/tune/datagen.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "common/random.h"
#include "common/text.h"
#include "lasca/core/movegen.h"
#include "lasca/tune/tuner.h"

namespace lasca::tune {

namespace {

double resultForWhite(Outcome outcome) {
    return outcome == Outcome::WhiteWins ? 1.0 : outcome == Outcome::BlackWins ? 0.0 : 0.5;
}

// With options.randomMovePercent's chance, a uniformly random legal move of `pos` (which has
// one: the game is not over); otherwise none. Draws from the stream only when the share is set,
// so that runs without it are the games they always were.
std::optional<Move> randomMove(const Position& pos, const DatagenOptions& options,
                               common::Random& random) {
    if (options.randomMovePercent <= 0 || !random.chance(options.randomMovePercent / 100.0))
        return std::nullopt;
    MoveList legal;
    generateMoves(pos, legal);
    return legal[random.index(legal.size())];
}

// Up to randomPlies uniformly random legal moves (fewer if the game ends).
void playRandomPlies(Game& game, const DatagenOptions& options, common::Random& random) {
    for (int ply = 0; ply < options.randomPlies; ++ply) {
        if (game.status(options.rules).over()) return;
        MoveList legal;
        generateMoves(game.current(), legal);
        game.play(legal[random.index(legal.size())]);
    }
}

// GameQueue: what the worker threads of generateData share, guarded by mutex.
//   games      the shard's game numbers, ascending; games[next] is the first not handed out
//   done       games finished but not delivered yet, by their place in `games`
//   delivered  games[0..delivered) have gone to onGame, in order
//   stopped    onGame asked to stop
// Unlike common::runJobs it keeps no finished game once delivered: a run writes millions of
// positions, and only the few games finished out of order wait here.
struct GameQueue {
    std::mutex mutex;
    std::vector<int> games;
    std::size_t next = 0;
    std::map<std::size_t, DataGame> done;
    std::size_t delivered = 0;
    bool stopped = false;

    // The place of the next game to play, or false when there is none (or the run stopped).
    bool take(std::size_t& place) {
        std::lock_guard lock(mutex);
        if (stopped || next >= games.size()) return false;
        place = next++;
        return true;
    }

    // Files a finished game and delivers every game now due, in order.
    void finish(std::size_t place, DataGame game,
                const std::function<bool(const DataGame&)>& onGame) {
        std::lock_guard lock(mutex);
        done.emplace(place, std::move(game));
        for (auto due = done.find(delivered); !stopped && due != done.end();
             due = done.find(delivered)) {
            if (!onGame(due->second)) stopped = true;
            done.erase(due);
            ++delivered;
        }
    }
};

// The shard's game numbers, ascending.
std::vector<int> shardGames(const DatagenOptions& options) {
    std::vector<int> games;
    for (int g = 0; g < options.games; ++g)
        if (options.shard.holds(g)) games.push_back(g);
    return games;
}

// A score field: an optional '-' and decimal digits, inside the mate bounds.
common::Result<Score> parseScore(std::string_view text) {
    Score score = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, score);
    if (text.empty() || ec != std::errc() || ptr != end || score <= -kMateBound ||
        score >= kMateBound)
        return common::makeError("bad score '" + common::printable(text) + "'");
    return score;
}

}  // namespace

search::SearchSettings dataSearchSettings(const DrawRules& rules,
                                          std::shared_ptr<const eval::nnue::Network> network) {
    search::SearchSettings settings;  // one thread, the tuned weights
    settings.moveOverheadMs = 0;
    settings.rules = rules;
    settings.network = std::move(network);
    return settings;
}

DataGame playDataGame(int index, const DatagenOptions& options, search::TranspositionTable& tt,
                      search::Search& search) {
    tt.clear();
    search.clear();
    DataGame out;
    out.index = index;
    common::Random random(common::mixSeed(options.seed, static_cast<std::uint64_t>(index)));
    Game game;
    // Step 1: the opening, random moves drawn from the game's own stream.
    playRandomPlies(game, options, random);

    // Step 2: the engine plays both sides; the quiet positions with a non-mate score are kept.
    const search::SearchSettings settings = dataSearchSettings(options.rules, options.network);
    search::SearchLimits limits;
    limits.nodes = options.nodes;
    GameStatus status = game.status(options.rules);
    while (!status.over() && static_cast<int>(game.moves().size()) < options.maxPlies) {
        const Position& pos = game.current();
        const search::SearchResult r = search.run(pos, game.repetitionHistory(), limits, settings);
        out.nodes += r.nodes;
        if (!hasCapture(pos) && !search::isMateScore(r.score))
            out.positions.push_back({pos.toLfen(), r.score});
        game.play(randomMove(game.current(), options, random).value_or(r.best));
        status = game.status(options.rules);
    }
    out.plies = static_cast<int>(game.moves().size());
    out.termination = status.termination;
    out.result = resultForWhite(status.outcome);
    return out;
}

common::Result<int> generateData(const DatagenOptions& options,
                                 const std::function<bool(const DataGame&)>& onGame) {
    GameQueue queue;
    queue.games = shardGames(options);
    const int threads =
        std::clamp(options.jobs, 1, std::max(1, static_cast<int>(queue.games.size())));
    // Every worker's hash is allocated before any game starts, so that a size the machine
    // cannot give is an error and not a half-played run.
    std::vector<std::unique_ptr<search::TranspositionTable>> tables;
    for (int i = 0; i < threads; ++i) {
        tables.push_back(std::make_unique<search::TranspositionTable>());
        auto resized = tables.back()->resize(options.hashMb);
        if (!resized) return common::makeError(resized.error());
    }
    auto work = [&](search::TranspositionTable& tt) {
        search::Search search(tt);
        std::size_t place = 0;
        while (queue.take(place))
            queue.finish(place, playDataGame(queue.games[place], options, tt, search), onGame);
    };
    std::vector<std::thread> pool;
    for (auto& tt : tables) pool.emplace_back(work, std::ref(*tt));
    for (auto& t : pool) t.join();
    return static_cast<int>(queue.delivered);
}

std::string formatDataLine(const DataLine& line) {
    return std::string(resultLabel(line.result)) + " " + std::to_string(line.score) + " " +
           line.lfen + "\n";
}

std::string formatDataGame(const DataGame& game) {
    std::string text;
    for (const DataPosition& p : game.positions)
        text += formatDataLine(DataLine{game.result, p.score, p.lfen});
    return text;
}

common::Result<DataLine> parseDataLine(std::string_view line) {
    const auto first = line.find(' ');
    const auto second = first == std::string_view::npos ? first : line.find(' ', first + 1);
    if (second == std::string_view::npos)
        return common::makeError("expected '<result> <score> <LFEN>'");
    DataLine out;
    const std::string_view label = line.substr(0, first);
    const auto result = parseResultLabel(label);
    if (!result)
        return common::makeError("bad result '" + common::printable(label) +
                                 "' (expected 1, 0.5 or 0)");
    out.result = *result;
    auto score = parseScore(line.substr(first + 1, second - first - 1));
    if (!score) return common::makeError(score.error());
    out.score = score.value();
    out.lfen = std::string(line.substr(second + 1));
    auto pos = Position::fromLfen(out.lfen);
    if (!pos) return common::makeError("bad LFEN: " + pos.error());
    return out;
}

}  // namespace lasca::tune
