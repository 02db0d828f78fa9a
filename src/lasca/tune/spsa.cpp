#include "lasca/tune/spsa.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

#include "common/progress.h"
#include "common/text.h"

namespace lasca::tune {

namespace {

constexpr int kMaxIterations = 1'000'000'000;
// Bounds of a parameter's range: far beyond any engine option, well inside int and exact in a
// double.
constexpr double kLargestBound = 1e9;
constexpr std::size_t kLongestName = 64;
constexpr std::size_t kFieldsPerLine = 6;

bool isNameCharacter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool isPositiveFinite(double x) {
    return std::isfinite(x) && x > 0;
}

// A decimal number (an optional '-', digits, an optional fraction or exponent), nothing else.
common::Result<double> parseNumber(std::string_view field, const char* what) {
    double value = 0;
    const char* end = field.data() + field.size();
    const auto [stop, ec] = std::from_chars(field.data(), end, value);
    if (ec != std::errc() || stop != end || !std::isfinite(value))
        return common::makeError(std::string(what) + " '" + common::printable(field) +
                                 "' is not a number");
    return value;
}

// A whole number within +-kLargestBound.
common::Result<int> parseBound(std::string_view field, const char* what) {
    auto number = parseNumber(field, what);
    if (!number) return common::makeError(number.error());
    const double v = number.value();
    if (v != std::floor(v) || std::abs(v) > kLargestBound)
        return common::makeError(std::string(what) + " '" + common::printable(field) +
                                 "' is not a whole number within +-1000000000");
    return static_cast<int>(v);
}

// The line without its comment (from the first '#').
std::string_view withoutComment(std::string_view line) {
    const auto hash = line.find('#');
    return hash == std::string_view::npos ? line : line.substr(0, hash);
}

// theta + offset, kept inside the parameter's range.
double clampTo(const SpsaParam& p, double value) {
    return std::clamp(value, static_cast<double>(p.min), static_cast<double>(p.max));
}

int roundedValue(double value) {
    return static_cast<int>(std::lround(value));
}

}  // namespace

common::Result<bool> checkSpsaParam(const SpsaParam& p) {
    if (p.name.empty() || p.name.size() > kLongestName ||
        !std::all_of(p.name.begin(), p.name.end(), isNameCharacter))
        return common::makeError("name '" + common::printable(p.name) +
                                 "' must be 1 to 64 letters, digits or '_'");
    if (p.min >= p.max)
        return common::makeError(p.name + ": min " + std::to_string(p.min) + " must be below max " +
                                 std::to_string(p.max));
    if (!std::isfinite(p.start) || p.start < p.min || p.start > p.max)
        return common::makeError(p.name + ": start " + common::formatFixed(p.start, 2) +
                                 " is outside " + std::to_string(p.min) + ".." +
                                 std::to_string(p.max));
    if (!isPositiveFinite(p.cEnd))
        return common::makeError(p.name + ": c_end must be a number above 0");
    if (!isPositiveFinite(p.rEnd))
        return common::makeError(p.name + ": r_end must be a number above 0");
    return true;
}

common::Result<SpsaParam> parseSpsaParamLine(std::string_view line) {
    const auto fields = common::splitWhitespace(line);
    if (fields.size() != kFieldsPerLine)
        return common::makeError("expected 6 fields (name start min max c_end r_end), got " +
                                 std::to_string(fields.size()));
    SpsaParam p;
    p.name = std::string(fields[0]);
    auto start = parseNumber(fields[1], "start");
    if (!start) return common::makeError(start.error());
    auto min = parseBound(fields[2], "min");
    if (!min) return common::makeError(min.error());
    auto max = parseBound(fields[3], "max");
    if (!max) return common::makeError(max.error());
    auto cEnd = parseNumber(fields[4], "c_end");
    if (!cEnd) return common::makeError(cEnd.error());
    auto rEnd = parseNumber(fields[5], "r_end");
    if (!rEnd) return common::makeError(rEnd.error());
    p.start = start.value();
    p.min = min.value();
    p.max = max.value();
    p.cEnd = cEnd.value();
    p.rEnd = rEnd.value();
    auto checked = checkSpsaParam(p);
    if (!checked) return common::makeError(checked.error());
    return p;
}

common::Result<std::vector<SpsaParam>> parseSpsaParams(std::string_view text) {
    std::vector<SpsaParam> params;
    std::set<std::string> names;
    int number = 0;
    while (!text.empty()) {
        ++number;
        const auto newline = text.find('\n');
        std::string_view line = text.substr(0, newline);
        text = newline == std::string_view::npos ? std::string_view{} : text.substr(newline + 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        line = withoutComment(line);
        if (common::splitWhitespace(line).empty()) continue;
        auto param = parseSpsaParamLine(line);
        const std::string where = "line " + std::to_string(number) + ": ";
        if (!param) return common::makeError(where + param.error());
        if (!names.insert(param.value().name).second)
            return common::makeError(where + param.value().name + " is given twice");
        params.push_back(std::move(param).value());
    }
    if (params.empty())
        return common::makeError("no parameters (one line each: " +
                                 std::string("name start min max c_end r_end)"));
    return params;
}

common::Result<bool> checkSpsaSchedule(const SpsaSchedule& s) {
    if (s.iterations < 1 || s.iterations > kMaxIterations)
        return common::makeError("iterations must be 1..1000000000");
    if (!isPositiveFinite(s.alpha) || !isPositiveFinite(s.gamma) || !isPositiveFinite(s.stability))
        return common::makeError("alpha, gamma and the stability fraction must be above 0");
    return true;
}

SpsaGains spsaGains(const SpsaParam& p, const SpsaSchedule& s, int k) {
    const double n = s.iterations;
    const double aEnd = p.rEnd * p.cEnd * p.cEnd;
    SpsaGains g;
    g.c = p.cEnd * std::pow(n, s.gamma) / std::pow(k, s.gamma);
    g.a = aEnd * std::pow(s.a() + n, s.alpha) / std::pow(s.a() + k, s.alpha);
    g.r = g.a / (g.c * g.c);
    return g;
}

Spsa::Spsa(std::vector<SpsaParam> params, const SpsaSchedule& schedule, std::uint64_t seed)
    : params_(std::move(params)), schedule_(schedule), random_(seed) {
    for (const SpsaParam& p : params_) theta_.push_back(p.start);
}

common::Result<Spsa> Spsa::create(std::vector<SpsaParam> params, const SpsaSchedule& schedule,
                                  std::uint64_t seed) {
    if (params.empty()) return common::makeError("no parameters to tune");
    for (const SpsaParam& p : params) {
        auto checked = checkSpsaParam(p);
        if (!checked) return common::makeError(checked.error());
    }
    auto checked = checkSpsaSchedule(schedule);
    if (!checked) return common::makeError(checked.error());
    return Spsa(std::move(params), schedule, seed);
}

std::vector<int> Spsa::roundedTheta() const {
    std::vector<int> values;
    for (double t : theta_) values.push_back(roundedValue(t));
    return values;
}

common::Result<SpsaProposal> Spsa::propose() {
    if (finished())
        return common::makeError("all " + std::to_string(schedule_.iterations) +
                                 " iterations are proposed");
    SpsaProposal proposal;
    proposal.iteration = ++proposed_;
    for (std::size_t i = 0; i < params_.size(); ++i) {
        const SpsaParam& p = params_[i];
        const int delta = random_.below(2) == 0 ? 1 : -1;
        const SpsaGains gains = spsaGains(p, schedule_, proposal.iteration);
        proposal.delta.push_back(delta);
        proposal.gains.push_back(gains);
        proposal.plus.push_back(roundedValue(clampTo(p, theta_[i] + gains.c * delta)));
        proposal.minus.push_back(roundedValue(clampTo(p, theta_[i] - gains.c * delta)));
    }
    return proposal;
}

common::Result<bool> Spsa::update(const SpsaProposal& proposal, double result) {
    if (proposal.delta.size() != params_.size() || proposal.gains.size() != params_.size())
        return common::makeError("the proposal is not one of this run's");
    if (!std::isfinite(result) || result < -2 || result > 2)
        return common::makeError("a result must be in -2..2");
    for (std::size_t i = 0; i < params_.size(); ++i) {
        const SpsaGains& g = proposal.gains[i];
        theta_[i] = clampTo(params_[i], theta_[i] + g.r * g.c * result * proposal.delta[i]);
    }
    ++updated_;
    return true;
}

std::string matchOptionString(const std::vector<SpsaParam>& params,
                              const std::vector<int>& values) {
    std::string text;
    for (std::size_t i = 0; i < params.size() && i < values.size(); ++i)
        text += (text.empty() ? "option." : ",option.") + params[i].name + "=" +
                std::to_string(values[i]);
    return text;
}

std::string spsaProgressTitle(int iterations, std::uint64_t seed) {
    return "# lasca-tune spsa: " + std::to_string(iterations) + " iterations, seed " +
           std::to_string(seed);
}

std::string spsaProgressHeader(const std::vector<SpsaParam>& params) {
    std::string text = "# iteration result";
    for (const SpsaParam& p : params) text += " " + p.name;
    return text;
}

std::string spsaProgressLine(int iteration, double result, const std::vector<double>& theta) {
    std::string text = std::to_string(iteration) + " " + common::formatFixed(result, 1);
    for (double t : theta) text += " " + common::formatFixed(t, 2);
    return text;
}

common::Result<SpsaResumed> resumeSpsa(Spsa& spsa, std::string_view progress, std::uint64_t seed) {
    if (spsa.proposed() != 0) return common::makeError("the tuner has already proposed");
    // Whole lines only: a last line without its newline was being written when the run stopped.
    const std::size_t wholeEnd = progress.rfind('\n');
    const std::string_view whole =
        wholeEnd == std::string_view::npos ? std::string_view{} : progress.substr(0, wholeEnd + 1);
    SpsaResumed resumed;
    std::size_t lineNumber = 0;
    std::size_t begin = 0;
    while (begin < whole.size()) {
        const std::size_t end = whole.find('\n', begin);
        std::string_view line = whole.substr(begin, end - begin);
        begin = end + 1;
        ++lineNumber;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        const std::string where = "line " + std::to_string(lineNumber) + ": ";
        std::string expected;
        if (lineNumber == 1) {
            expected = spsaProgressTitle(spsa.schedule().iterations, seed);
            if (line != expected)
                return common::makeError(where + "'" + common::printable(line) +
                                         "' is not this run's title '" + expected +
                                         "' (another iteration count or seed)");
        } else if (lineNumber == 2) {
            expected = spsaProgressHeader(spsa.params());
            if (line != expected)
                return common::makeError(where + "'" + common::printable(line) +
                                         "' is not this run's header '" + expected + "'");
        } else {
            const auto fields = common::splitWhitespace(line);
            const int k = static_cast<int>(lineNumber) - 3;
            if (fields.size() != spsa.params().size() + 2 || fields[0] != std::to_string(k))
                return common::makeError(where + "expected iteration " + std::to_string(k) +
                                         " with " + std::to_string(spsa.params().size()) +
                                         " thetas");
            auto result = parseNumber(fields[1], "result");
            if (!result) return common::makeError(where + result.error());
            if (k > 0) {
                auto proposal = spsa.propose();
                if (!proposal) return common::makeError(where + proposal.error());
                auto updated = spsa.update(proposal.value(), result.value());
                if (!updated) return common::makeError(where + updated.error());
            } else if (result.value() != 0) {
                return common::makeError(where + "iteration 0 has no result");
            }
            expected = spsaProgressLine(k, result.value(), spsa.theta());
            if (line != expected)
                return common::makeError(where + "replayed, iteration " + std::to_string(k) +
                                         " gives '" + expected +
                                         "' (another parameter file or seed)");
            resumed.iterations = k;
        }
        resumed.text += expected + "\n";
    }
    if (lineNumber < 3)
        return common::makeError("not a progress file of lasca-tune spsa (no iteration 0)");
    return resumed;
}

}  // namespace lasca::tune
