// pcisim bench --against OTHER: this build's benchmark cases beside another build's, run in
// turn on the same machine, so that the comparison holds when the machine is shared and its
// speed drifts.  Each pair runs `bench --case C --packets N --runs 1 --json FILE` of both builds,
// one after the other (the order alternates from pair to pair), and takes the CPU time of the
// simulation child each reports; the figure per case is the median of the pairs' ratios, with
// their spread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pcisim::cli {

struct BuildComparison {
    std::string self;    // this pcisim's path
    std::string other;   // the build compared against
    std::vector<std::string> cases;
    std::uint64_t packets = 0;
    unsigned pairs = 5;
};

// Throws std::runtime_error naming the build and the case when a bench run fails.
nlohmann::json compare_builds(const BuildComparison& c);

// The table of compare_builds' result, one line per case.
void print_comparison(const nlohmann::json& report, std::ostream& out);

}  // namespace pcisim::cli
