// How validation results are shown: the terminal table, docs/validation.md and JSON; and the
// grid of driver-variant predictions (simulated on calibrated platforms, never fitted).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/validate/calibration_set.h"

namespace pcisim::validate {

struct Prediction {
    std::string group;  // "drivers" (every platform) or "topologies" (several ports and NICs)
    std::string scenario, variant;
    SimPoint point;
    double pps = 0;
};

// Every (scenario, variant, size) of the "predictions" block, then of its "topologies" block
// (its own scenarios and sizes, the variants named from the main block); variants needing a
// model the scenario does not have are left out.
std::vector<Prediction> prediction_grid(const nlohmann::json& predictions);

// One tier's result: its reference file and the summary of its checks.
struct TierResult {
    std::string tier, file;
    Summary summary;
};

// Passes when every tier passes: every check within tolerance but the documented known misses
// (none of which may be within tolerance now: stale documentation), and each tier's median.
// `strict`: the known misses fail too.
bool all_pass(const std::vector<TierResult>& tiers, bool strict = false);
// The verdict as validate prints it: "PASS, 10 known misses", or "FAIL: " and why.
std::string verdict(const std::vector<TierResult>& tiers, bool strict = false);

std::string table_text(const std::vector<Check>& checks, const std::vector<TierResult>& tiers,
                       const Tolerances& tol, bool strict = false);
std::string report_markdown(const std::vector<Check>& checks,
                            const std::vector<TierResult>& tiers, const Tolerances& tol,
                            const std::vector<Prediction>& predictions,
                            const std::vector<std::string>& notes);
nlohmann::json to_json(const std::vector<Check>& checks, const std::vector<TierResult>& tiers,
                       const std::vector<Prediction>& predictions, bool strict = false);

}  // namespace pcisim::validate
