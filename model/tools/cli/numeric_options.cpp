#include "tools/cli/numeric_options.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include <boost/program_options.hpp>

namespace pcisim::cli {

namespace {

// The whole text as a number, or NaN when it is not one.
double number(const std::string& text) {
    const char* begin = text.c_str();
    char* end = nullptr;
    double v = std::strtod(begin, &end);
    return text.empty() || end != begin + text.size() ? std::nan("") : v;
}

std::string shown(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

}  // namespace

std::uint64_t parse_count(const std::string& option, const std::string& text, std::uint64_t min,
                          std::uint64_t max) {
    double v = number(text);
    // Doubles hold whole numbers exactly up to 2^53, far above any count we take.
    if (!(std::isfinite(v) && v == std::floor(v) && v >= static_cast<double>(min) &&
          v <= static_cast<double>(max)))
        throw boost::program_options::error(option + " " + text + ": expected a whole number from " +
                                            std::to_string(min) + " to " + std::to_string(max));
    return static_cast<std::uint64_t>(v);
}

double parse_finite(const std::string& option, const std::string& text, double min,
                    bool min_exclusive) {
    double v = number(text);
    bool in_range = min_exclusive ? v > min : v >= min;
    if (!std::isfinite(v) || !in_range)
        throw boost::program_options::error(option + " " + text + ": expected a finite number " +
                                            (min_exclusive ? "> " : ">= ") + shown(min));
    return v;
}

}  // namespace pcisim::cli
