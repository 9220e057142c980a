// One key of a run's results JSON, as docs/metrics-reference.md lists it (`pcisim metrics`).
// Each module that writes results keeps its table next to the code that writes them, as the
// parameter tables are kept next to the code that reads them.
#pragma once

#include <string>

namespace pcisim {

struct MetricSpec {
    std::string key;      // dotted; "cpus[]." marks the items of a list of objects and
                          // "tx_pps_by_port[]" the items of a list of numbers
    std::string unit;     // "count" for events counted in the measurement window
    std::string meaning;
};

}  // namespace pcisim
