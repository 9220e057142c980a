// How validation results are shown: the terminal table, docs/validation.md and JSON; and the
// grid of driver-variant predictions (simulated on calibrated platforms, never fitted).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/validate/calibration_set.h"

namespace pcisim::validate {

struct Prediction {
    std::string scenario, variant;
    SimPoint point;
    double pps = 0;
};

// Every (scenario, variant, size) of the "predictions" block; variants needing a model the
// scenario does not have are left out.
std::vector<Prediction> prediction_grid(const nlohmann::json& predictions);

std::string table_text(const std::vector<Check>& checks, const Summary& summary,
                       const Tolerances& tol);
std::string report_markdown(const std::vector<Check>& checks, const Summary& summary,
                            const Tolerances& tol, const std::vector<Prediction>& predictions,
                            const std::vector<std::string>& notes);
nlohmann::json to_json(const std::vector<Check>& checks, const Summary& summary,
                       const std::vector<Prediction>& predictions);

}  // namespace pcisim::validate
