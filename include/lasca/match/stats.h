// Match statistics: W/D/L, pentanomial counts of game pairs, logistic Elo with a 95% interval,
// and the pentanomial SPRT of the established testing frameworks (fishtest, fastchess).
// Pure functions on counts; no I/O.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace lasca::match {

// Wdl: results of the match's first engine, one count per game.
struct Wdl {
    std::int64_t wins = 0;
    std::int64_t draws = 0;
    std::int64_t losses = 0;
    std::int64_t games() const { return wins + draws + losses; }
    double score() const;  // (wins + draws/2) / games; 0.5 when no game
};

// Pentanomial: game pairs (same opening, colours swapped) counted by the first engine's points
// over the pair, in half points: counts[0] = 0 (LL), [1] = 0.5 (LD), [2] = 1 (DD or WL),
// [3] = 1.5 (WD), [4] = 2 (WW).
struct Pentanomial {
    std::array<std::int64_t, 5> counts{};
    std::int64_t pairs() const;
};

// EloEstimate: logistic Elo difference of the first engine with its 95% confidence interval
// (score +- 1.96 standard errors, each bound converted to Elo). Infinite bounds are clamped to
// +-kEloClamp.
struct EloEstimate {
    double elo = 0;
    double low = 0;
    double high = 0;
    double errorBar() const { return (high - low) / 2; }
};
inline constexpr double kEloClamp = 2000;

double scoreToElo(double score);  // -400 log10(1/score - 1), clamped to +-kEloClamp
double eloToScore(double elo);    // 1 / (1 + 10^(-elo/400))

EloEstimate eloFromWdl(const Wdl& wdl);                   // per-game (trinomial) variance
EloEstimate eloFromPentanomial(const Pentanomial& pent);  // per-pair variance

// SprtConfig: H0 "Elo <= elo0" against H1 "Elo >= elo1" (logistic Elo), error rates alpha,
// beta. The bounds on the log-likelihood ratio are log(beta/(1-alpha)) and
// log((1-beta)/alpha).
struct SprtConfig {
    double elo0 = 0;
    double elo1 = 5;
    double alpha = 0.05;
    double beta = 0.05;
    double lowerBound() const;
    double upperBound() const;
};

enum class SprtVerdict { Continue, AcceptH0, AcceptH1 };

// Log-likelihood ratio of the pentanomial counts as fishtest computes it (LLR_logistic): the
// maximum-likelihood pentanomial distributions with mean score s0 and s1 (the expected scores
// of elo0 and elo1), LLR = sum over cells of count * log(q1 / q0). Empty cells count as 1e-3
// pairs when fitting. For many pairs it agrees with the normal approximation
// N (s1 - s0) (2 m - s0 - s1) / (2 v) (m mean pair score, v its variance), which fastchess uses.
double sprtLlr(const Pentanomial& pent, const SprtConfig& config);
SprtVerdict sprtVerdict(double llr, const SprtConfig& config);

// SprtDecision: the first verdict a sequential run reached, the LLR then and the games counted
// then. The run stops there; games already under way still finish and count in the report, and
// may move the LLR back inside the bounds: the decision stands (fishtest's rule too).
struct SprtDecision {
    SprtVerdict verdict = SprtVerdict::Continue;
    double llr = 0;
    std::size_t games = 0;
};

// The report's SPRT line: the settings, the LLR of every pair counted with its bounds, and the
// verdict, e.g. "SPRT: elo0 0 elo1 10 alpha 0.05 beta 0.05  LLR -2.83 [-2.94, 2.94] H0 accepted
// at 1158 games (LLR -2.95)". A decision is named with where it was reached when later games
// changed the LLR; without one the verdict of `llr` itself is given ("undecided" inside).
std::string sprtLine(const SprtConfig& config, double llr, const SprtDecision& decided);

}  // namespace lasca::match
