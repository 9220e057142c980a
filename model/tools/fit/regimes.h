// Splits a pps-vs-size curve into its regimes: wire-limited points, and bus-latency-limited
// pieces separated by steps (where a data read gets chunked once more).
//
// Wire-limited: pps within 0.5 % of the wire limit 125e6/(s+24).
//
// Step rule.  Inside a piece 1/pps = (s+k)/B grows by exactly Δs/B between adjacent sizes.  The
// trend slope is taken as the median of the slopes Δ(1/pps)/Δs over adjacent bus-limited points
// (steps are rare among the gaps when sizes are sampled finer than the chunk size, so the median
// ignores them).  A gap is a step when 1/pps grows by more than that trend predicts by at least
// max(1 %, 4 robust standard deviations of the excesses) of 1/pps; the robust deviation is
// 1.4826 × the median absolute deviation, so measurement noise raises the bar but steps do not.
// A step lies somewhere between the two sizes; it is reported at the larger one, where the new
// piece starts.
#pragma once

#include <cstddef>
#include <vector>

#include "tools/fit/formula_fit.h"

namespace pcisim::fit {

constexpr double kWireTolerance = 0.005;   // relative
constexpr double kMinStepExcess = 0.01;    // relative growth of 1/pps beyond the trend
constexpr double kStepNoiseFactor = 4.0;   // robust standard deviations

// Gigabit Ethernet: 8 B preamble + 4 B FCS + 12 B inter-frame gap per frame at 125e6 B/s.
double wire_limit_pps(double size);

struct Piece {
    std::size_t first, last;   // indices into the samples, inclusive
    bool after_step;           // false: the curve's first piece, or one after wire-limited points
};

struct Regimes {
    std::vector<std::size_t> wire_limited;  // indices into the samples
    std::vector<Piece> pieces;              // bus-limited, in size order
};

// `samples` sorted by size; `wire_pps[i]` is the wire limit at samples[i].
Regimes split_regimes(const std::vector<Sample>& samples, const std::vector<double>& wire_pps);

}  // namespace pcisim::fit
