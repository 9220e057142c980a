// The metrics reference (docs/metrics-reference.md, `pcisim metrics`): every key of a run's
// results JSON with its unit and meaning, from the tables the results are written with.
#pragma once

#include <string>
#include <vector>

#include "core/metric_spec.h"

namespace pcisim::cli {

// result_metrics() and the provenance the run command adds, in documentation order.
std::vector<MetricSpec> run_json_metrics();

// As Markdown.
std::string metrics_markdown();

}  // namespace pcisim::cli
