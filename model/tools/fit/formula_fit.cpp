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
    FormulaFit f{1 / slope, intercept / slope, 0, 0};
    add_residuals(f, samples);
    return f;
}

FormulaFit fit_fixed(const std::vector<Sample>& samples, double bytes_per_s) {
    // Minimises sum (1/p - (s+k)/B)^2 over k: k = B*mean(1/p) - mean(s).
    double mean_s = 0, mean_y = 0;
    for (const auto& s : samples) {
        mean_s += s.size / samples.size();
        mean_y += 1 / s.pps / samples.size();
    }
    FormulaFit f{bytes_per_s, bytes_per_s * mean_y - mean_s, 0, 0};
    add_residuals(f, samples);
    return f;
}

std::string formula_text(double bytes_per_s, double latency_bytes) {
    char buf[96];
    long long k = std::llround(latency_bytes);
    std::snprintf(buf, sizeof buf, "%.0f/(s%s%lld)", bytes_per_s, k < 0 ? "-" : "+", std::llabs(k));
    return buf;
}

}  // namespace pcisim::fit
