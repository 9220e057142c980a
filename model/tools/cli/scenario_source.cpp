#include "tools/cli/scenario_source.h"

#include <iostream>

namespace pcisim::cli {

namespace {

constexpr const char* kStdinName = "<stdin>";

}  // namespace

Scenario load_scenario(const std::string& file, const std::vector<std::string>& sets) {
    if (file != "-") return Scenario::load(file, sets);
    const std::string text = read_scenario_text(std::cin, kStdinName);
    return Scenario::from_json(parse_scenario_text(text, kStdinName), kStdinName, sets);
}

}  // namespace pcisim::cli
