#include "tools/fit/formula_fit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pcisim::fit {

namespace {

void add_residuals(FormulaFit& f, const std::vector<Sample>& samples) {
    double sum_sq = 0, max_abs = 0;
    for (const auto& s : samples) {
        double r = (f.pps(s.size) - s.pps) / s.pps;
        sum_sq += r * r;
        max_abs = std::max(max_abs, std::fabs(r));
    }
    f.rms_rel_residual = std::sqrt(sum_sq / samples.size());
    f.max_rel_residual = max_abs;
}

// Sum of squared residuals of 1/pps against (s + k)/B: what the least-squares fit minimised.
double residual_sum_of_squares(const FormulaFit& f, const std::vector<Sample>& samples) {
    double sum = 0;
    for (const auto& s : samples) {
        double e = 1 / s.pps - (s.size + f.latency_bytes) / f.bytes_per_s;
        sum += e * e;
    }
    return sum;
}

}  // namespace

std::optional<FormulaFit> fit_free(const std::vector<Sample>& samples) {
    if (samples.size() < 2) return std::nullopt;
    double n = samples.size(), mean_s = 0, mean_y = 0;
    for (const auto& s : samples) {
        mean_s += s.size / n;
        mean_y += 1 / s.pps / n;
    }
    double sxx = 0, sxy = 0;
    for (const auto& s : samples) {
        sxx += (s.size - mean_s) * (s.size - mean_s);
        sxy += (s.size - mean_s) * (1 / s.pps - mean_y);
    }
    if (sxx <= 0) return std::nullopt;  // a single size
    double slope = sxy / sxx;           // 1/B
    if (slope <= 0) return std::nullopt;  // pps not falling with size: no finite B
    double intercept = mean_y - slope * mean_s;  // k/B
    FormulaFit f{1 / slope, intercept / slope, 0, 0, std::nullopt, std::nullopt};
    add_residuals(f, samples);
    if (samples.size() > 2) {
        // Covariance of (intercept a, slope b) of the line 1/pps = a + b*s, then B = 1/b and
        // k = a/b by the delta method.
        double variance = residual_sum_of_squares(f, samples) / (n - 2);
        double var_b = variance / sxx;
        double var_a = variance * (1 / n + mean_s * mean_s / sxx);
        double cov_ab = -mean_s * variance / sxx;
        double a = intercept, b = slope;
        f.bytes_per_s_se = std::sqrt(var_b) / (b * b);
        double var_k = var_a / (b * b) + a * a * var_b / (b * b * b * b) - 2 * a * cov_ab / (b * b * b);
        f.latency_bytes_se = std::sqrt(std::max(0.0, var_k));
    }
    return f;
}

FormulaFit fit_fixed(const std::vector<Sample>& samples, double bytes_per_s) {
    // Minimises sum (1/p - (s+k)/B)^2 over k: k = B*mean(1/p) - mean(s).
    double mean_s = 0, mean_y = 0;
    for (const auto& s : samples) {
        mean_s += s.size / samples.size();
        mean_y += 1 / s.pps / samples.size();
    }
    FormulaFit f{bytes_per_s, bytes_per_s * mean_y - mean_s, 0, 0, std::nullopt, std::nullopt};
    add_residuals(f, samples);
    if (samples.size() > 1) {
        // k = B*mean(1/p) - mean(s): its variance is B^2 times that of a mean of n values.
        double n = samples.size();
        double variance = residual_sum_of_squares(f, samples) / (n - 1);
        f.bytes_per_s_se = 0;  // given, not fitted
        f.latency_bytes_se = bytes_per_s * std::sqrt(variance / n);
    }
    return f;
}

std::string formula_text(double bytes_per_s, double latency_bytes) {
    char buf[96];
    long long k = std::llround(latency_bytes);
    std::snprintf(buf, sizeof buf, "%.0f/(s%s%lld)", bytes_per_s, k < 0 ? "-" : "+", std::llabs(k));
    return buf;
}

}  // namespace pcisim::fit
