#include "common/progress.h"

#include <unistd.h>

#include <iomanip>
#include <iostream>
#include <sstream>

namespace common {

std::string formatFixed(double value, int digits) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(digits) << value;
    return out.str();
}

std::string formatDuration(double seconds) {
    const auto s = static_cast<long long>(seconds + 0.5);
    std::ostringstream out;
    if (s >= 3600) out << s / 3600 << "h";
    if (s >= 60) out << (s / 60) % 60 << "m";
    out << s % 60 << "s";
    return out.str();
}

double etaSeconds(double elapsed, std::size_t fresh, std::size_t remaining) {
    if (fresh == 0) return 0;
    return elapsed / static_cast<double>(fresh) * static_cast<double>(remaining);
}

void showProgress(const std::string& line) {
    if (::isatty(STDERR_FILENO))
        std::cerr << "\r\033[K" << line << std::flush;
    else
        std::cerr << line << "\n";
}

void endProgress() {
    if (::isatty(STDERR_FILENO)) std::cerr << "\n";
}

}  // namespace common
