#include "lasca/match/stats.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "common/progress.h"
#include "common/stats.h"

namespace lasca::match {

namespace {

constexpr double kRegularise = 1e-3;

// The Elo estimate of a mean score and its 95% interval (bounds 0 when there is no game).
EloEstimate estimate(const common::Moments& m) {
    EloEstimate e;
    e.elo = scoreToElo(m.mean);
    if (m.n <= 0) return e;
    const common::Interval i = common::interval95(m);
    e.low = scoreToElo(i.low);
    e.high = scoreToElo(i.high);
    return e;
}

constexpr std::array<double, 5> kPairScores = {0, 0.25, 0.5, 0.75, 1};

}  // namespace

double Wdl::score() const {
    const auto n = games();
    return n == 0 ? 0.5
                  : (static_cast<double>(wins) + 0.5 * static_cast<double>(draws)) /
                        static_cast<double>(n);
}

std::int64_t Pentanomial::pairs() const {
    std::int64_t n = 0;
    for (auto c : counts) n += c;
    return n;
}

double scoreToElo(double score) {
    if (score <= 0) return -kEloClamp;
    if (score >= 1) return kEloClamp;
    return std::clamp(-400.0 * std::log10(1.0 / score - 1.0), -kEloClamp, kEloClamp);
}

double eloToScore(double elo) {
    return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0));
}

EloEstimate eloFromWdl(const Wdl& wdl) {
    const std::array<double, 3> scores = {0, 0.5, 1};
    const std::array<double, 3> counts = {static_cast<double>(wdl.losses),
                                          static_cast<double>(wdl.draws),
                                          static_cast<double>(wdl.wins)};
    return estimate(common::momentsOf(scores, counts));
}

EloEstimate eloFromPentanomial(const Pentanomial& pent) {
    std::array<double, 5> counts{};
    for (std::size_t i = 0; i < 5; ++i) counts[i] = static_cast<double>(pent.counts[i]);
    return estimate(common::momentsOf(kPairScores, counts));
}

double SprtConfig::lowerBound() const {
    return std::log(beta / (1 - alpha));
}

double SprtConfig::upperBound() const {
    return std::log((1 - beta) / alpha);
}

namespace {

// The distribution closest to p (maximum likelihood) among those with mean score s:
// q_i = p_i / (1 + lambda (a_i - s)), lambda found by bisection on sum q_i (a_i - s) = 0.
std::array<double, 5> constrainedMle(const std::array<double, 5>& p, double s) {
    double lo = -1 / (1 - s) + 1e-12, hi = 1 / s - 1e-12;
    auto excess = [&](double lambda) {
        double sum = 0;
        for (std::size_t i = 0; i < 5; ++i)
            sum += p[i] * (kPairScores[i] - s) / (1 + lambda * (kPairScores[i] - s));
        return sum;
    };
    for (int iter = 0; iter < 200; ++iter) {
        const double mid = (lo + hi) / 2;
        (excess(mid) > 0 ? lo : hi) = mid;
    }
    const double lambda = (lo + hi) / 2;
    std::array<double, 5> q{};
    for (std::size_t i = 0; i < 5; ++i) q[i] = p[i] / (1 + lambda * (kPairScores[i] - s));
    return q;
}

}  // namespace

double sprtLlr(const Pentanomial& pent, const SprtConfig& config) {
    if (pent.pairs() == 0) return 0;
    std::array<double, 5> counts{};
    double n = 0;
    for (std::size_t i = 0; i < 5; ++i) {
        counts[i] = static_cast<double>(pent.counts[i]) + (pent.counts[i] == 0 ? kRegularise : 0);
        n += counts[i];
    }
    std::array<double, 5> p{};
    for (std::size_t i = 0; i < 5; ++i) p[i] = counts[i] / n;
    const auto q0 = constrainedMle(p, eloToScore(config.elo0));
    const auto q1 = constrainedMle(p, eloToScore(config.elo1));
    double llr = 0;
    for (std::size_t i = 0; i < 5; ++i)
        llr += static_cast<double>(pent.counts[i]) * std::log(q1[i] / q0[i]);
    return llr;
}

SprtVerdict sprtVerdict(double llr, const SprtConfig& config) {
    if (llr >= config.upperBound()) return SprtVerdict::AcceptH1;
    if (llr <= config.lowerBound()) return SprtVerdict::AcceptH0;
    return SprtVerdict::Continue;
}

namespace {

// A setting as the command line gave it (0, 0.05, 2.5), as a stream writes a double.
std::string plainNumber(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
}

const char* verdictName(SprtVerdict v) {
    return v == SprtVerdict::AcceptH1   ? "H1 accepted"
           : v == SprtVerdict::AcceptH0 ? "H0 accepted"
                                        : "undecided";
}

}  // namespace

std::string sprtLine(const SprtConfig& config, double llr, const SprtDecision& decided) {
    using common::formatFixed;
    std::string line = "SPRT: elo0 " + plainNumber(config.elo0) + " elo1 " +
                       plainNumber(config.elo1) + " alpha " + plainNumber(config.alpha) + " beta " +
                       plainNumber(config.beta) + "  LLR " + formatFixed(llr, 2) + " [" +
                       formatFixed(config.lowerBound(), 2) + ", " +
                       formatFixed(config.upperBound(), 2) + "] ";
    if (decided.verdict == SprtVerdict::Continue)
        return line + verdictName(sprtVerdict(llr, config));
    line += verdictName(decided.verdict);
    if (formatFixed(decided.llr, 2) != formatFixed(llr, 2))
        line += " at " + std::to_string(decided.games) + " games (LLR " +
                formatFixed(decided.llr, 2) + ")";
    return line;
}

}  // namespace lasca::match
