// Reads a sweep CSV as pps-vs-size curves, one per group of the other varied keys.
#pragma once

#include <istream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tools/fit/formula_fit.h"

namespace pcisim::fit {

struct CurveColumns {
    std::string x = "packet.size";
    std::string y = "tx_pps";
    std::string wire = "wire_limit_pps";  // 125e6/(s+24) where the column is absent or empty
    // Columns that tell curves apart; default: the varied keys (the columns before "status")
    // other than x.
    std::optional<std::vector<std::string>> group_by;
    std::optional<double> bus_bytes_per_s;  // when the CSV has no bus.width_bits/clock_mhz
};

struct Curve {
    std::vector<std::pair<std::string, std::string>> group;  // column, value
    std::vector<Sample> samples;                             // sorted by size
    std::vector<double> wire_pps;                            // per sample
    std::optional<double> bus_bytes_per_s;                   // B for the fixed fits
};

// Curves in order of first appearance; rows whose status is not "ok" are skipped.  Throws
// std::runtime_error naming a missing column or a bad cell: a number that is not finite, or a
// packet rate that is not above 0.
std::vector<Curve> read_curves(std::istream& csv, const CurveColumns& columns);

}  // namespace pcisim::fit
