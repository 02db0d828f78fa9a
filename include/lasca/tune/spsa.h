// SPSA (simultaneous perturbation stochastic approximation) as fishtest runs it, for tuning the
// search's parameters through games (`lasca-tune spsa`, docs/tuning.md "SPSA"). This is the pure
// arithmetic: the parameter file, the gain schedule, and the tuner that proposes the two
// perturbed engines of an iteration and takes the result of their game pair. It starts no
// process and prints nothing (the games are in spsa_games.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/random.h"
#include "common/result.h"

namespace lasca::tune {

// SpsaParam: one tuned parameter, one line of the parameter file:
//     name start min max c_end r_end
//   name       the engine option it sets (letters, digits and '_'; no blanks, ',' or '=')
//   start      the first value of theta, in [min, max] (may have decimals)
//   min, max   whole numbers, min < max: theta and the values played are kept inside
//   cEnd       c_end, the perturbation of the last iteration (> 0; the engines play theta +-
//              c_k, rounded, so below 0.5 both would often play the same value)
//   rEnd       r_end, the step of the last iteration (> 0): a_end = r_end * c_end^2
struct SpsaParam {
    std::string name;
    double start = 0;
    int min = 0;
    int max = 0;
    double cEnd = 1;
    double rEnd = 0.002;
};

// Checks one parameter as parseSpsaParamLine does (name, range, start inside it, positive and
// finite c_end and r_end).
common::Result<bool> checkSpsaParam(const SpsaParam& param);

// One line of the parameter file, already known not to be blank or a comment. Errors: a wrong
// number of fields, a field that is not a number, and whatever checkSpsaParam refuses.
common::Result<SpsaParam> parseSpsaParamLine(std::string_view line);

// The whole parameter file: one parameter per line; blank lines and everything after a `#` are
// skipped. Errors name the line ("line 3: min 50 is above max 40"); a name given twice and a
// file without any parameter are errors too.
common::Result<std::vector<SpsaParam>> parseSpsaParams(std::string_view text);

// SpsaSchedule: the gains' shape, global to all parameters (fishtest's defaults).
//   iterations   N, the game pairs of the whole run (1..10^9)
//   alpha, gamma the exponents of the step and of the perturbation (0.602, 0.101)
//   stability    A as a fraction of N (A = 0.1 N)
struct SpsaSchedule {
    int iterations = 1000;
    double alpha = 0.602;
    double gamma = 0.101;
    double stability = 0.1;
    double a() const { return stability * iterations; }
};

// Errors: iterations outside 1..10^9, alpha, gamma or stability not positive and finite.
common::Result<bool> checkSpsaSchedule(const SpsaSchedule& schedule);

// SpsaGains: one parameter's gains at iteration k (1..N), fishtest's definitions:
//   c  = c_end * N^gamma / k^gamma                   the perturbation (c_N = c_end)
//   a  = a_end * (A + N)^alpha / (A + k)^alpha       the step (a_N = a_end = r_end * c_end^2)
//   r  = a / c^2                                     (r_N = r_end)
// The update of theta is r * c * result * Delta = (a / c) * result * Delta.
struct SpsaGains {
    double c = 0;
    double a = 0;
    double r = 0;
};
SpsaGains spsaGains(const SpsaParam& param, const SpsaSchedule& schedule, int k);

// SpsaProposal: the two engines of one iteration.
//   iteration    k, 1-based
//   delta        Delta, +1 or -1 per parameter
//   gains        each parameter's gains at k
//   plus, minus  the values the engines play: theta +- c_k Delta, clamped to [min, max] and
//                rounded to the nearest whole number
struct SpsaProposal {
    int iteration = 0;
    std::vector<int> delta;
    std::vector<SpsaGains> gains;
    std::vector<int> plus;
    std::vector<int> minus;
};

// Spsa: the tuner's state.
//   params_    the parameters, in file order (every vector below follows it)
//   theta_     the current estimate, each in [min, max]
//   random_    Delta's source (common::Random seeded with the run's seed): a run is repeated
//              exactly by the same seed and the same results
//   proposed_  iterations proposed so far; updated_ those whose result was taken
// Several iterations may be proposed before their results come (games played side by side):
// each result moves theta from wherever it is then, in the order the results are given.
class Spsa {
  public:
    // Errors: no parameter, a bad parameter (checkSpsaParam) or a bad schedule.
    static common::Result<Spsa> create(std::vector<SpsaParam> params, const SpsaSchedule& schedule,
                                       std::uint64_t seed);

    const std::vector<SpsaParam>& params() const { return params_; }
    const SpsaSchedule& schedule() const { return schedule_; }
    const std::vector<double>& theta() const { return theta_; }
    std::vector<int> roundedTheta() const;  // theta rounded to whole numbers: the tuned values
    int proposed() const { return proposed_; }
    int updated() const { return updated_; }
    bool finished() const { return proposed_ >= schedule_.iterations; }

    // The next iteration's engines (k = proposed() + 1), from the current theta. Error once all
    // N iterations are proposed.
    common::Result<SpsaProposal> propose();

    // Takes an iteration's result: (points of the plus engine) - (points of the minus engine)
    // over its games, -2..2 for a pair. theta_i += r_k c_k result Delta_i, clamped to
    // [min, max]. Errors (theta unchanged): a proposal of another run's size, a result that is
    // not finite or outside -2..2.
    common::Result<bool> update(const SpsaProposal& proposal, double result);

  private:
    Spsa(std::vector<SpsaParam> params, const SpsaSchedule& schedule, std::uint64_t seed);

    std::vector<SpsaParam> params_;
    SpsaSchedule schedule_;
    std::vector<double> theta_;
    common::Random random_;
    int proposed_ = 0;
    int updated_ = 0;
};

// `option.Name=value,...` of the parameters with `values` (in params order), as lasca-match's
// --engine takes it.
std::string matchOptionString(const std::vector<SpsaParam>& params, const std::vector<int>& values);

// The --out file of a run: its title `# lasca-tune spsa: N iterations, seed S`, its header
// `# iteration result <name_1> ... <name_n>`, then one line per iteration, `k result theta_1
// ... theta_n` (the result with one decimal, thetas with two), from k = 0 (the start).
std::string spsaProgressTitle(int iterations, std::uint64_t seed);
std::string spsaProgressHeader(const std::vector<SpsaParam>& params);
std::string spsaProgressLine(int iteration, double result, const std::vector<double>& theta);

// SpsaResumed: what resumeSpsa took from a progress file.
//   iterations  the iterations replayed (k = 1..iterations)
//   text        the file's whole lines up to the last iteration replayed (title, header and
//               lines 0..iterations, each ending in a newline): what the file holds again
//               before the resumed run appends to it
struct SpsaResumed {
    int iterations = 0;
    std::string text;
};

// Continues a run from the progress file of an earlier one that stopped before its end (a
// killed run, a run over several sittings). `spsa` must be new (nothing proposed yet) and made
// with the earlier run's parameters, iteration count and `seed`: the title and header must be
// this run's, and each line's thetas must be the ones its result gives when replayed (a
// proposal, then its result, in iteration order: theta does not depend on how many pairs were
// played at once), so another parameter file, seed or count is found out and refused. The
// replayed tuner is then the earlier one: the next proposal is iteration `iterations` + 1 with
// the Delta the uninterrupted run would have drawn. A last line without its newline (the
// earlier run stopped while writing it) is left out; any other line that does not replay is
// an error naming it, and `spsa` must then be thrown away.
common::Result<SpsaResumed> resumeSpsa(Spsa& spsa, std::string_view progress, std::uint64_t seed);

}  // namespace lasca::tune
