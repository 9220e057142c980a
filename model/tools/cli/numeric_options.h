// Numbers on the command line, checked where they are parsed.  Boost's parsers take "-1" for a
// size_t (it wraps to 2^64-1) and "nan" or "inf" for a double; these refuse them, with a message
// naming the option, the value and the expected range.
#pragma once

#include <cstdint>
#include <string>

namespace pcisim::cli {

// Worker processes at once (-j): more would only make a machine thrash.
constexpr std::uint64_t kMaxWorkers = 1024;

// A whole number from `min` to `max` ("1e6" is allowed: a million).  Throws po::error.
std::uint64_t parse_count(const std::string& option, const std::string& text, std::uint64_t min,
                          std::uint64_t max);

// A finite number, at least `min` (or above it when `min_exclusive`).  Throws po::error.
double parse_finite(const std::string& option, const std::string& text, double min,
                    bool min_exclusive);

}  // namespace pcisim::cli
