#include "common/glicko2.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <string>

namespace common {

namespace {

// The Illinois algorithm converges in a few steps; these bounds only keep a loop from running
// for ever on inputs nobody has seen.
constexpr int kMaxBracketSteps = 1000;
constexpr int kMaxIllinoisSteps = 1000;

// The rating at the centre of the Glicko-2 scale (step 2), whatever the start rating is.
constexpr double kCentre = 1500;

// A day counts for at most this many rating periods (lichess's is 0.21436).
constexpr double kMaxRatingPeriodsPerDay = 1000;

bool within(double x, double low, double high) {
    return std::isfinite(x) && x >= low && x <= high;
}

// A bound for a message: "5000", "0.0001".
std::string number(double x) {
    std::ostringstream out;
    out << x;
    return out.str();
}

Result<bool> checkRating(const Rating& r) {
    if (!within(r.rating, kMinValidRating, kMaxValidRating))
        return makeError("glicko2: a rating must be in [" + number(kMinValidRating) + ", " +
                         number(kMaxValidRating) + "]");
    if (!within(r.deviation, kMinValidDeviation, kMaxValidDeviation))
        return makeError("glicko2: a rating deviation must be in [" + number(kMinValidDeviation) +
                         ", " + number(kMaxValidDeviation) + "]");
    if (!within(r.volatility, kMinValidVolatility, kMaxValidVolatility))
        return makeError("glicko2: a volatility must be in [" + number(kMinValidVolatility) + ", " +
                         number(kMaxValidVolatility) + "]");
    return true;
}

Result<bool> checkSettings(const Glicko2Settings& s) {
    if (auto ok = checkRating(startRating(s)); !ok)
        return makeError(ok.error() + " (the start rating)");
    if (!within(s.tau, kMinValidTau, kMaxValidTau))
        return makeError("glicko2: tau must be in [" + number(kMinValidTau) + ", " +
                         number(kMaxValidTau) + "]");
    if (!within(s.minDeviation, 0, kMaxValidDeviation) ||
        !within(s.maxDeviation, kMinValidDeviation, kMaxValidDeviation) ||
        s.minDeviation > s.maxDeviation)
        return makeError("glicko2: the RD bounds must satisfy 0 <= min <= max, max in [" +
                         number(kMinValidDeviation) + ", " + number(kMaxValidDeviation) + "]");
    if (!within(s.minRating, kMinValidRating, kMaxValidRating))
        return makeError("glicko2: the rating floor is out of range");
    if (!within(s.maxVolatility, kMinValidVolatility, kMaxValidVolatility))
        return makeError("glicko2: the volatility bound is out of range");
    if (!within(s.provisionalDeviation, 0, kMaxValidDeviation))
        return makeError("glicko2: the provisional RD is out of range");
    if (!within(s.ratingPeriodsPerDay, 0, kMaxRatingPeriodsPerDay))
        return makeError("glicko2: the rating periods per day are out of range");
    return true;
}

Result<bool> checkResult(const GameResult& g) {
    if (!within(g.opponentRating, kMinValidRating, kMaxValidRating) ||
        !within(g.opponentDeviation, kMinValidDeviation, kMaxValidDeviation))
        return makeError("glicko2: an opponent's rating or deviation is out of range");
    if (!within(g.score, 0, 1)) return makeError("glicko2: a score must be in [0, 1]");
    return true;
}

// The settings' bounds, and the valid ranges, applied to an updated rating (back on the Glicko
// scale).
Result<Rating> bounded(Rating r, const Glicko2Settings& s) {
    if (!std::isfinite(r.rating) || !std::isfinite(r.deviation) || !std::isfinite(r.volatility) ||
        r.deviation <= 0 || r.volatility <= 0)
        return makeError("glicko2: the update did not give finite, positive values");
    r.rating = std::clamp(r.rating, s.minRating, kMaxValidRating);
    r.deviation =
        std::clamp(r.deviation, std::max(s.minDeviation, kMinValidDeviation), s.maxDeviation);
    r.volatility = std::clamp(r.volatility, kMinValidVolatility, s.maxVolatility);
    return r;
}

// Step 3: g(phi), which discounts a game against an opponent whose strength is uncertain.
double g(double phi) {
    return 1 / std::sqrt(1 + 3 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

// Step 3: the expected score against an opponent at mu_j with g(phi_j) = gj.
double expectedScore(double mu, double muJ, double gj) {
    return 1 / (1 + std::exp(-gj * (mu - muJ)));
}

// Step 5: the new volatility sigma', the root of f by the Illinois algorithm (regula falsi with
// the retained end's value halved when the same end is kept twice).
Result<double> newVolatility(double phi, double sigma, double v, double delta, double tau) {
    const double a = std::log(sigma * sigma);
    const double phi2 = phi * phi;
    const auto f = [&](double x) {
        const double ex = std::exp(x);
        const double d = phi2 + v + ex;
        return ex * (delta * delta - phi2 - v - ex) / (2 * d * d) - (x - a) / (tau * tau);
    };
    // Step 5.2: the bracket [A, B] (or [B, A]) of the root.
    double A = a;
    double B = 0;
    if (delta * delta > phi2 + v) {
        B = std::log(delta * delta - phi2 - v);
    } else {
        int k = 1;
        while (f(a - k * tau) < 0) {
            if (++k > kMaxBracketSteps) return makeError("glicko2: no bracket for the volatility");
        }
        B = a - k * tau;
    }
    // Steps 5.3 and 5.4: narrow the bracket until it is shorter than the tolerance.
    double fA = f(A);
    double fB = f(B);
    for (int step = 0; std::abs(B - A) > kVolatilityTolerance; ++step) {
        if (step == kMaxIllinoisSteps) return makeError("glicko2: the volatility did not converge");
        const double C = A + (A - B) * fA / (fB - fA);
        const double fC = f(C);
        if (fC * fB <= 0) {
            A = B;
            fA = fB;
        } else {
            fA /= 2;
        }
        B = C;
        fB = fC;
    }
    // Step 5.5.
    return std::exp(A / 2);
}

}  // namespace

bool provisional(const Rating& rating, const Glicko2Settings& settings) {
    return !(rating.deviation < settings.provisionalDeviation);
}

Result<Rating> updateRating(const Rating& player, std::span<const GameResult> results,
                            const Glicko2Settings& settings) {
    if (auto ok = checkSettings(settings); !ok) return makeError(ok.error());
    if (auto ok = checkRating(player); !ok) return makeError(ok.error());
    for (const GameResult& game : results)
        if (auto ok = checkResult(game); !ok) return makeError(ok.error());

    // Step 2: to the Glicko-2 scale.
    const double mu = (player.rating - kCentre) / kGlicko2Scale;
    const double phi = player.deviation / kGlicko2Scale;
    const double sigma = player.volatility;

    // Step 6 alone for a player without games: the RD grows, nothing else changes.
    if (results.empty()) {
        const double phiStar = std::sqrt(phi * phi + sigma * sigma);
        return bounded(Rating{player.rating, phiStar * kGlicko2Scale, sigma}, settings);
    }

    // Steps 3 and 4: the estimated variance v of the rating from the games alone, and the sum
    // whose v-multiple is the estimated improvement delta.
    double inverseV = 0;
    double scoreSum = 0;  // sum of g(phi_j) (s_j - E_j)
    for (const GameResult& game : results) {
        const double muJ = (game.opponentRating - kCentre) / kGlicko2Scale;
        const double gj = g(game.opponentDeviation / kGlicko2Scale);
        const double e = expectedScore(mu, muJ, gj);
        inverseV += gj * gj * e * (1 - e);
        scoreSum += gj * (game.score - e);
    }
    const double v = 1 / inverseV;
    const double delta = v * scoreSum;

    // Step 5: the new volatility.
    const Result<double> sigmaPrime = newVolatility(phi, sigma, v, delta, settings.tau);
    if (!sigmaPrime) return makeError(sigmaPrime.error());

    // Step 6: the pre-period RD grown by the new volatility.
    const double phiStar = std::sqrt(phi * phi + sigmaPrime.value() * sigmaPrime.value());

    // Step 7: the new RD and rating.
    const double phiNew = 1 / std::sqrt(1 / (phiStar * phiStar) + 1 / v);
    const double muNew = mu + phiNew * phiNew * scoreSum;

    // Step 8: back to the Glicko scale, within the settings' bounds.
    return bounded(
        Rating{kGlicko2Scale * muNew + kCentre, kGlicko2Scale * phiNew, sigmaPrime.value()},
        settings);
}

Result<Rating> withTimeAway(const Rating& player, double days, const Glicko2Settings& settings) {
    if (auto ok = checkSettings(settings); !ok) return makeError(ok.error());
    if (auto ok = checkRating(player); !ok) return makeError(ok.error());
    if (!std::isfinite(days) || days < 0)
        return makeError("glicko2: the days away must be a finite number >= 0");
    const double periods = days * settings.ratingPeriodsPerDay;
    const double phi = player.deviation / kGlicko2Scale;
    const double maxPhi = settings.maxDeviation / kGlicko2Scale;
    // phi^2 + sigma^2 t may overflow to infinity for an absurd number of days; min() takes the
    // bound then, and sqrt(inf) is inf, never NaN.
    const double grown = std::sqrt(phi * phi + player.volatility * player.volatility * periods);
    Rating r = player;
    r.deviation = std::max(std::min(grown, maxPhi) * kGlicko2Scale, kMinValidDeviation);
    return r;
}

}  // namespace common
