// Fits one pps-vs-size curve regime by regime and describes the result: the JSON written by
// 'pcisim fit --json' and the text it prints.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "tools/fit/sweep_curves.h"

namespace pcisim::fit {

// {"group", "bus_bytes_per_s", "points", "wire_limited", "steps_at", "pieces": [{"from",
// "to", "to_inclusive", "points", "free", "fixed"}]}; a fit is {"B_bytes_per_s",
// "B_bytes_per_s_se", "k_bytes", "k_bytes_se", "overhead_us", "rms_rel_residual",
// "max_rel_residual", "formula"} or null when impossible.  The standard errors (_se) are null
// when the piece has no degree of freedom left; a fixed B's is 0.
nlohmann::json fit_curve(const Curve& curve);

// Formulas as engineers write them: "p = 264000000/(s+335) for 60 <= s < 352".
std::string describe(const nlohmann::json& curve_fit);

}  // namespace pcisim::fit
