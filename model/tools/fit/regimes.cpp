#include "tools/fit/regimes.h"

#include <algorithm>
#include <cmath>

#include "core/ethernet.h"

namespace pcisim::fit {

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

double wire_limit_pps(double size) { return kGigabitBytesPerSecond / (size + kWireOverheadBytes); }

Regimes split_regimes(const std::vector<Sample>& samples, const std::vector<double>& wire_pps) {
    Regimes r;
    std::vector<bool> wire(samples.size());
    for (std::size_t i = 0; i < samples.size(); ++i) {
        wire[i] = std::fabs(samples[i].pps - wire_pps[i]) <= kWireTolerance * wire_pps[i];
        if (wire[i]) r.wire_limited.push_back(i);
    }
    // Gaps between adjacent bus-limited samples: gap g joins samples g and g+1.
    std::vector<std::size_t> gaps;
    std::vector<double> slopes;
    for (std::size_t i = 0; i + 1 < samples.size(); ++i) {
        if (wire[i] || wire[i + 1] || samples[i + 1].size <= samples[i].size) continue;
        gaps.push_back(i);
        slopes.push_back((1 / samples[i + 1].pps - 1 / samples[i].pps) /
                         (samples[i + 1].size - samples[i].size));
    }
    std::vector<bool> step_after(samples.size(), false);
    if (!gaps.empty()) {
        double trend = std::max(0.0, median(slopes));
        std::vector<double> excess;
        for (std::size_t g : gaps) {
            double dy = 1 / samples[g + 1].pps - 1 / samples[g].pps;
            double predicted = trend * (samples[g + 1].size - samples[g].size);
            excess.push_back((dy - predicted) * samples[g + 1].pps);
        }
        double mid = median(excess);
        std::vector<double> deviation;
        for (double e : excess) deviation.push_back(std::fabs(e - mid));
        double sigma = 1.4826 * median(deviation);
        double threshold = std::max(kMinStepExcess, kStepNoiseFactor * sigma);
        for (std::size_t j = 0; j < gaps.size(); ++j)
            step_after[gaps[j]] = excess[j] > threshold;
    }
    for (std::size_t i = 0; i < samples.size(); ++i) {
        if (wire[i]) continue;
        bool continues = !r.pieces.empty() && r.pieces.back().last + 1 == i && !step_after[i - 1];
        if (continues) {
            r.pieces.back().last = i;
        } else {
            bool after_step = !r.pieces.empty() && r.pieces.back().last + 1 == i;
            r.pieces.push_back({i, i, after_step});
        }
    }
    return r;
}

}  // namespace pcisim::fit
