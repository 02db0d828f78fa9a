#include "lasca/engine/engine.h"

#include <chrono>

#include "common/text.h"
#include "lasca/core/notation.h"

namespace lasca::engine {

namespace {
constexpr std::int64_t kDefaultHashMb = 16;
constexpr std::int64_t kMaxHashMb = 32768;

// ParamOption: one tunable number of the search (SearchParams) or of the time manager
// (TimeParams, timeman.h) as an engine option: its name, the field it sets and its range; the
// default is the field's default. The search's ranges keep it sound (a divisor above zero,
// reductions only where a reduced depth exists, reductions far below the int8 table's limit);
// the time manager's keep every budget within planTime's ceilings and its divisions defined.
// Both are wide enough for any sensible tuning.
template <class Params>
struct ParamOption {
    const char* name;
    int Params::*field;
    int min;
    int max;
};
constexpr ParamOption<search::SearchParams> kSearchParamOptions[] = {
    {"RfpMargin", &search::SearchParams::rfpMargin, 1, 1000},
    {"RfpDepth", &search::SearchParams::rfpDepth, 0, 20},
    {"LmrBase", &search::SearchParams::lmrBase, 0, 400},
    {"LmrDivisor", &search::SearchParams::lmrDivisor, 50, 1000},
    {"LmrMinDepth", &search::SearchParams::lmrMinDepth, 2, 20},
    {"LmrMinMove", &search::SearchParams::lmrMinMove, 1, 63},
    {"AspirationDelta", &search::SearchParams::aspirationDelta, 5, 1000},
    {"AspirationGrowth", &search::SearchParams::aspirationGrowth, 10, 400},
    {"AspirationDepth", &search::SearchParams::aspirationDepth, 1, search::kMaxDepth},
    {"HistoryBonusMax", &search::SearchParams::historyBonusMax, 1, 16384},
};
constexpr ParamOption<search::TimeParams> kTimeParamOptions[] = {
    {"TimeMovesToGo", &search::TimeParams::movesToGo, 1, 200},
    {"TimeIncrementPercent", &search::TimeParams::incrementPercent, 0, 100},
    {"TimeSoftMaxPercent", &search::TimeParams::softMaxPercent, 1, 100},
    {"TimeHardPercent", &search::TimeParams::hardPercent, 100, 2000},
    {"TimeHardMaxDivisor", &search::TimeParams::hardMaxDivisor, 150, 2000},
    {"TimeIterationPercent", &search::TimeParams::iterationPercent, 10, 100},
};

// Declares the options of `table`, defaults from a default-constructed Params.
template <class Params, std::size_t N>
void addParamOptions(common::Options& options, const ParamOption<Params> (&table)[N]) {
    const Params defaults;
    for (const ParamOption<Params>& p : table)
        options.add({p.name,
                     common::OptionType::Spin,
                     std::to_string(defaults.*p.field),
                     p.min,
                     p.max,
                     {},
                     {}});
}

// Reads the options of `table` into `params`.
template <class Params, std::size_t N>
void readParamOptions(const common::Options& options, const ParamOption<Params> (&table)[N],
                      Params& params) {
    for (const ParamOption<Params>& p : table)
        params.*p.field = static_cast<int>(options.intValue(p.name));
}
}  // namespace

const bool Engine::kUseNnueByDefault = true;

Engine::Engine(EngineCallbacks callbacks) : callbacks_(std::move(callbacks)), search_(tt_) {
    declareOptions();
}

Engine::~Engine() {
    search_.stop();
    search_.wait();
}

void Engine::declareOptions() {
    options_.add({"Hash",
                  common::OptionType::Spin,
                  std::to_string(kDefaultHashMb),
                  1,
                  kMaxHashMb,
                  [this](const common::Option& o) -> common::Result<bool> {
                      auto resized = tt_.resize(static_cast<std::size_t>(o.asInt()));
                      if (!resized) return common::makeError(resized.error());
                      return true;
                  },
                  {}});
    options_.add({"Threads", common::OptionType::Spin, "1", 1, search::kMaxThreads, {}, {}});
    options_.add({"MultiPV", common::OptionType::Spin, "1", 1, search::kMaxMultiPV, {}, {}});
    options_.add({"MoveOverhead", common::OptionType::Spin, "30", 0, 5000, {}, {}});
    options_.add({"Ponder", common::OptionType::Check, "false", 0, 0, {}, {}});
    options_.add({"RepetitionDraw", common::OptionType::Check, "true", 0, 0, {}, {}});
    options_.add({"NoProgressDraw", common::OptionType::Check, "true", 0, 0, {}, {}});
    // A measuring baseline: the untuned evaluation that counts commanders only. Changing it
    // clears the hash, whose entries hold static evaluations.
    options_.add({"EvalMaterialOnly",
                  common::OptionType::Check,
                  "false",
                  0,
                  0,
                  [this](const common::Option&) -> common::Result<bool> {
                      tt_.clear();
                      return true;
                  },
                  {}});
    // The learned evaluation (nnue.h): on by default when it measured stronger at
    // equal time (docs/strength.md); EvalFile loads another network ("" = the embedded one). A
    // file that does not load is an error and the network in use stays. Both clear the hash.
    options_.add({"UseNNUE",
                  common::OptionType::Check,
                  kUseNnueByDefault ? "true" : "false",
                  0,
                  0,
                  [this](const common::Option&) -> common::Result<bool> {
                      tt_.clear();
                      return true;
                  },
                  {}});
    options_.add({"EvalFile",
                  common::OptionType::String,
                  "",
                  0,
                  0,
                  [this](const common::Option& o) -> common::Result<bool> {
                      if (o.value.empty()) {
                          network_ = eval::nnue::defaultNetwork();
                      } else {
                          auto loaded = eval::nnue::loadNetwork(o.value);
                          if (!loaded) return common::makeError(loaded.error());
                          network_ = loaded.value();
                      }
                      tt_.clear();
                      return true;
                  },
                  {}});
    // Exact endgame tables (docs/egtb.md): the folder of lasca-1v1-<N>.egtb and
    // lasca-2v1-<N>.egtb files ("" = none).
    // A folder or file that does not load is an error and the tables in use stay.
    options_.add({"EgtbPath",
                  common::OptionType::String,
                  "",
                  0,
                  0,
                  [this](const common::Option& o) -> common::Result<bool> {
                      if (o.value.empty()) {
                          tablebase_.reset();
                      } else {
                          auto opened = egtb::Tablebase::open(o.value);
                          if (!opened) return common::makeError(opened.error());
                          tablebase_ =
                              std::make_shared<const egtb::Tablebase>(std::move(opened).value());
                      }
                      tt_.clear();
                      return true;
                  },
                  {}});
    options_.add({"Debug Log File",
                  common::OptionType::String,
                  "",
                  0,
                  0,
                  [this](const common::Option& o) -> common::Result<bool> {
                      if (!callbacks_.onLogFile) return true;
                      return callbacks_.onLogFile(o.value);
                  },
                  {}});
    // The search's and the time manager's tunable numbers: read into SearchParams and
    // TimeParams at each `go`; listed last, as tuning parameters (protocol.md).
    addParamOptions(options_, kSearchParamOptions);
    addParamOptions(options_, kTimeParamOptions);
}

search::SearchSettings Engine::searchSettings() const {
    search::SearchSettings s;
    s.threads = static_cast<int>(options_.intValue("Threads"));
    s.multiPV = static_cast<int>(options_.intValue("MultiPV"));
    s.moveOverheadMs = options_.intValue("MoveOverhead");
    s.rules = drawRules();
    s.weights = &evalWeights();
    s.network = network();
    s.tablebase = tablebase_;
    readParamOptions(options_, kSearchParamOptions, s.params);
    readParamOptions(options_, kTimeParamOptions, s.time);
    return s;
}

std::shared_ptr<const eval::nnue::Network> Engine::defaultEvalNetwork() {
    return kUseNnueByDefault ? eval::nnue::defaultNetwork() : nullptr;
}

std::shared_ptr<const eval::nnue::Network> Engine::network() const {
    if (options_.boolValue("EvalMaterialOnly") || !options_.boolValue("UseNNUE")) return nullptr;
    return network_;
}

const eval::EvalWeights& Engine::evalWeights() const {
    return options_.boolValue("EvalMaterialOnly") ? eval::materialWeights() : eval::tunedWeights();
}

DrawRules Engine::drawRules() const {
    return DrawRules{options_.boolValue("RepetitionDraw"), options_.boolValue("NoProgressDraw")};
}

PositionOutcome Engine::setPosition(const Position& start, const std::vector<std::string>& moves) {
    Game game(start);
    PositionOutcome outcome;
    forfeitBy_.reset();
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const Color mover = game.current().sideToMove();
        if (!game.playText(moves[i]).ok()) {
            outcome.ok = false;
            outcome.illegalPly = static_cast<int>(i) + 1;
            outcome.error =
                "illegal move " + common::printable(moves[i]) + " at ply " + std::to_string(i + 1);
            forfeitBy_ = mover;
            break;
        }
    }
    game_ = std::move(game);
    return outcome;
}

void Engine::newGame() {
    search_.stop();
    search_.wait();
    tt_.clear();
    search_.clear();
    game_ = Game();
    forfeitBy_.reset();
}

GameStatus Engine::status() const {
    if (forfeitBy_)
        return {*forfeitBy_ == Color::White ? Outcome::BlackWins : Outcome::WhiteWins,
                Termination::NoLegalMove};
    return game_.status(drawRules());
}

std::optional<egtb::Probe> Engine::tableResult() const {
    if (!tablebase_) return std::nullopt;
    return tablebase_->probeUnder(game_.current(), drawRules());
}

void Engine::go(const search::SearchLimits& limits) {
    search::SearchCallbacks cb;
    cb.onInfo = callbacks_.onInfo;
    cb.onBestMove = callbacks_.onBestMove;
    search_.start(game_.current(), game_.repetitionHistory(), limits, searchSettings(),
                  std::move(cb));
}

// ---------------------------------------------------------------------------------------------
// bench

const std::vector<std::string>& Engine::benchPositions() {
    static const std::vector<std::string> positions = {
        std::string(kStartLfen),
#include "bench_positions.inc"
    };
    return positions;
}

Engine::BenchResult Engine::bench(int depth, std::shared_ptr<const eval::nnue::Network> network) {
    BenchResult result;
    search::TranspositionTable tt;
    search::Search search(tt);
    search::SearchSettings settings;  // one thread, default rules
    settings.network = std::move(network);
    search::SearchLimits limits;
    limits.depth = depth;
    const auto start = std::chrono::steady_clock::now();
    for (const std::string& lfen : benchPositions()) {
        tt.clear();
        search.clear();
        const search::SearchResult r =
            search.run(Position::fromLfen(lfen).value(), {}, limits, settings);
        result.nodes += r.nodes;
        result.bestMoves.push_back(r.best);
    }
    result.timeMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    return result;
}

}  // namespace lasca::engine
