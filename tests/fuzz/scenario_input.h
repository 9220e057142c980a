// What the scenario fuzz target does with one input, shared with the regression test that
// replays the corpus and the crashers (tests/test_fuzz_regressions.cpp).
//
// Input: a scenario's JSON text, then optionally NUL-separated arguments; each is parsed as a
// --vary axis and applied as a --set assignment.  Rejecting the input with the loader's own
// errors is fine; any other exception, a crash or a sanitizer report is a bug.
#pragma once

#include <string>
#include <vector>

#include "run/scenario.h"
#include "tools/sweep/sweep_axes.h"

namespace pcisim::fuzz {

inline void load_scenario(const std::string& text, const std::vector<std::string>& sets) {
    try {
        Scenario::from_json(parse_scenario_text(text, "fuzz.json"), "fuzz.json", sets);
    } catch (const ScenarioError&) {
    }
}

inline void parse_vary(const std::string& spec) {
    try {
        sweep::Axis axis = sweep::parse_axis(spec);
        sweep::check_key_known(axis.key, spec);
    } catch (const sweep::UsageError&) {
    }
}

inline void feed_scenario_input(const std::string& input) {
    std::vector<std::string> parts;
    for (std::size_t start = 0;;) {
        std::size_t nul = input.find('\0', start);
        parts.push_back(input.substr(start, nul == std::string::npos ? nul : nul - start));
        if (nul == std::string::npos) break;
        start = nul + 1;
    }
    std::vector<std::string> sets(parts.begin() + 1, parts.end());
    for (const auto& s : sets) parse_vary(s);
    load_scenario(parts[0], sets);
}

}  // namespace pcisim::fuzz
