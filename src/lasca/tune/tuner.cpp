#include "lasca/tune/tuner.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "common/text.h"
#include "lasca/core/game.h"
#include "lasca/core/movegen.h"

namespace lasca::tune {

namespace {

// A finished game's result for White: 1, 0.5 or 0.
double resultForWhite(Outcome outcome) {
    return outcome == Outcome::WhiteWins ? 1.0 : outcome == Outcome::Draw ? 0.5 : 0.0;
}

// sigmoid(K * score / 400) in base 10, as in Texel's tuning method.
double predicted(double score, double k) {
    return 1.0 / (1.0 + std::pow(10.0, -k * score / 400.0));
}

// The blended weight of a feature at a phase (as weightAt, without rounding).
double blend(const std::array<double, 2>& w, int phase) {
    return (w[0] * phase + w[1] * (eval::kPhaseMax - phase)) / eval::kPhaseMax;
}

}  // namespace

common::Result<std::vector<LabelledPosition>> extractPositions(const std::vector<PdnGame>& games,
                                                               const ExtractOptions& options) {
    std::vector<LabelledPosition> out;
    const DrawRules rules;
    std::set<std::pair<std::string, std::vector<std::string>>> seen;
    for (std::size_t g = 0; g < games.size(); ++g) {
        const PdnGame& pdn = games[g];
        const Outcome outcome = outcomeOf(pdn.result);
        if (outcome == Outcome::Ongoing) continue;
        const double result = resultForWhite(outcome);
        // Self-play at a fixed node count repeats a game when the colours swap: keep one.
        if (!seen.insert({pdn.tag("FEN").value_or(""), pdn.moves}).second) continue;
        auto start = startOf(pdn);
        if (!start)
            return common::makeError("game " + std::to_string(g + 1) + ": " + start.error());
        Game game(start.value());
        for (std::size_t ply = 0; ply <= pdn.moves.size(); ++ply) {
            const Position& pos = game.current();
            if (game.status(rules).over()) break;
            if (static_cast<int>(ply) >= options.skipPlies && !hasCapture(pos))
                out.push_back({pos.toLfen(), result});
            if (ply == pdn.moves.size()) break;
            auto played = game.playText(pdn.moves[ply]);
            if (!played)
                return common::makeError("game " + std::to_string(g + 1) + ", ply " +
                                         std::to_string(ply + 1) + ": " + played.error());
        }
    }
    return out;
}

const char* resultLabel(double result) {
    return result == 1.0 ? "1" : result == 0.0 ? "0" : "0.5";
}

std::optional<double> parseResultLabel(std::string_view label) {
    if (label == "1") return 1.0;
    if (label == "0") return 0.0;
    if (label == "0.5") return 0.5;
    return std::nullopt;
}

std::string formatPosition(const LabelledPosition& p) {
    return std::string(resultLabel(p.result)) + " " + p.lfen;
}

common::Result<LabelledPosition> parsePosition(std::string_view line) {
    const auto space = line.find(' ');
    if (space == std::string_view::npos) return common::makeError("expected '<result> <LFEN>'");
    const std::string_view label = line.substr(0, space);
    LabelledPosition p;
    const auto result = parseResultLabel(label);
    if (!result)
        return common::makeError("result must be 1, 0.5 or 0, not '" + std::string(label) + "'");
    p.result = *result;
    p.lfen = std::string(line.substr(space + 1));
    auto pos = Position::fromLfen(p.lfen);
    if (!pos) return common::makeError("LFEN: " + pos.error());
    return p;
}

Sample toSample(const Position& pos, double result) {
    const eval::EvalFeatures f = eval::extractFeatures(pos);
    Sample s;
    for (std::size_t i = 0; i < eval::kFeatureCount; ++i)
        s.diff[i] = static_cast<std::int16_t>(f.count[0][i] - f.count[1][i]);
    s.phase = static_cast<std::int16_t>(f.phase);
    s.result = static_cast<float>(result);
    return s;
}

RealWeights toReal(const eval::EvalWeights& w) {
    RealWeights r{};
    for (std::size_t i = 0; i < eval::kFeatureCount; ++i) r[i] = {double(w[i].mg), double(w[i].eg)};
    return r;
}

eval::EvalWeights rounded(const RealWeights& w) {
    eval::EvalWeights r{};
    for (std::size_t i = 0; i < eval::kFeatureCount; ++i)
        r[i] = {static_cast<Score>(std::lround(w[i][0])), static_cast<Score>(std::lround(w[i][1]))};
    return r;
}

double whiteScore(const Sample& s, const RealWeights& w) {
    double score = 0;
    for (std::size_t i = 0; i < eval::kFeatureCount; ++i) score += blend(w[i], s.phase) * s.diff[i];
    return score;
}

double meanError(const std::vector<Sample>& samples, const RealWeights& w, double k) {
    if (samples.empty()) return 0;
    double sum = 0;
    for (const Sample& s : samples) {
        const double e = s.result - predicted(whiteScore(s, w), k);
        sum += e * e;
    }
    return sum / static_cast<double>(samples.size());
}

double fitScale(const std::vector<Sample>& samples, const RealWeights& w) {
    // The error is unimodal in K in practice: golden-section search.
    double lo = 0.05, hi = 5.0;
    const double ratio = (std::sqrt(5.0) - 1) / 2;
    double a = hi - ratio * (hi - lo), b = lo + ratio * (hi - lo);
    double ea = meanError(samples, w, a), eb = meanError(samples, w, b);
    for (int i = 0; i < 40; ++i) {
        if (ea < eb) {
            hi = b;
            b = a;
            eb = ea;
            a = hi - ratio * (hi - lo);
            ea = meanError(samples, w, a);
        } else {
            lo = a;
            a = b;
            ea = eb;
            b = lo + ratio * (hi - lo);
            eb = meanError(samples, w, b);
        }
    }
    return (lo + hi) / 2;
}

RealWeights fitWeights(const std::vector<Sample>& samples, RealWeights w, double k,
                       const FitOptions& options, FitReport& report,
                       const std::function<void(int, double)>& progress) {
    report.k = k;
    report.startError = meanError(samples, w, k);
    std::array<bool, eval::kFeatureCount> frozen{};
    for (eval::EvalFeature f : options.frozen) frozen[static_cast<std::size_t>(f)] = true;

    // Adam (Kingma and Ba) with the usual moment decay rates.
    constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEpsilon = 1e-12;
    RealWeights m{}, v{};
    const double n = static_cast<double>(std::max<std::size_t>(samples.size(), 1));
    const double slope = std::log(10.0) * k / 400.0;
    for (int epoch = 1; epoch <= options.epochs; ++epoch) {
        RealWeights grad{};
        for (const Sample& s : samples) {
            const double p = predicted(whiteScore(s, w), k);
            // d(error)/d(score) for this sample; the score is linear in the weights.
            const double g = -2.0 * (s.result - p) * p * (1 - p) * slope / n;
            const double mgShare = static_cast<double>(s.phase) / eval::kPhaseMax;
            for (std::size_t i = 0; i < eval::kFeatureCount; ++i) {
                if (s.diff[i] == 0) continue;
                grad[i][0] += g * s.diff[i] * mgShare;
                grad[i][1] += g * s.diff[i] * (1 - mgShare);
            }
        }
        const double mCorrection = 1 - std::pow(kBeta1, epoch);
        const double vCorrection = 1 - std::pow(kBeta2, epoch);
        for (std::size_t i = 0; i < eval::kFeatureCount; ++i) {
            if (frozen[i]) continue;
            for (std::size_t j = 0; j < 2; ++j) {
                m[i][j] = kBeta1 * m[i][j] + (1 - kBeta1) * grad[i][j];
                v[i][j] = kBeta2 * v[i][j] + (1 - kBeta2) * grad[i][j] * grad[i][j];
                const double mHat = m[i][j] / mCorrection;
                const double vHat = v[i][j] / vCorrection;
                w[i][j] -= options.learningRate * mHat / (std::sqrt(vHat) + kEpsilon);
            }
        }
        if (progress && epoch % 100 == 0) progress(epoch, meanError(samples, w, k));
    }
    report.epochs = options.epochs;
    report.endError = meanError(samples, w, k);
    return w;
}

std::string weightsSource(const eval::EvalWeights& w, const std::vector<std::string>& header) {
    std::ostringstream out;
    for (const std::string& line : header) out << "// " << line << "\n";
    out << "// One {middlegame, endgame} pair per EvalFeature, in its order.\n";
    for (std::size_t i = 0; i < eval::kFeatureCount; ++i) {
        const std::string pair =
            "{" + std::to_string(w[i].mg) + ", " + std::to_string(w[i].eg) + "},";
        out << pair << std::string(pair.size() < 13 ? 13 - pair.size() : 1, ' ') << "// "
            << eval::featureName(static_cast<eval::EvalFeature>(i)) << "\n";
    }
    return out.str();
}

}  // namespace lasca::tune
