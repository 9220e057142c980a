// Least-squares fits of pps = B / (s + k), the per-packet latency formula.  Fitting 1/pps =
// s/B + k/B makes the model linear in s: slope 1/B, intercept k/B.
//
// Standard errors come from that linear fit's covariance (the residual variance of 1/pps with
// n - 2 degrees of freedom, n - 1 for the fixed-B fit), carried to B and k by first-order
// error propagation (the delta method): they say how far the fitted B and k would move if the
// points were measured again with the same scatter.  A fit with no degree of freedom left
// (two points, or one for fixed B) has none.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace pcisim::fit {

struct Sample {
    double size;  // s, bytes
    double pps;
};

struct FormulaFit {
    double bytes_per_s;          // B
    double latency_bytes;        // k, in byte times of B
    double rms_rel_residual;     // of pps, (fit - measured) / measured
    double max_rel_residual;     // largest |(fit - measured) / measured|
    std::optional<double> bytes_per_s_se;    // standard error of B; 0 when B is given
    std::optional<double> latency_bytes_se;  // standard error of k
    double overhead_us() const { return latency_bytes / bytes_per_s * 1e6; }
    double pps(double size) const { return bytes_per_s / (size + latency_bytes); }
};

// B and k both free.  Needs two distinct sizes and pps falling with size; nullopt otherwise.
std::optional<FormulaFit> fit_free(const std::vector<Sample>& samples);
// B given (the bus byte rate), k fitted.  Needs one sample.
FormulaFit fit_fixed(const std::vector<Sample>& samples, double bytes_per_s);

// "264000000/(s+335)": B and k rounded the way engineers write them.
std::string formula_text(double bytes_per_s, double latency_bytes);

}  // namespace pcisim::fit
