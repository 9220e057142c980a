#include "tools/cli/scenario_source.h"

#include <iostream>

namespace pcisim::cli {

namespace {

constexpr const char* kStdinName = "<stdin>";

std::string read_stdin() {
    std::string text;
    char buffer[65536];
    while (std::cin.read(buffer, sizeof buffer) || std::cin.gcount() > 0) {
        text.append(buffer, static_cast<std::size_t>(std::cin.gcount()));
        if (text.size() > kMaxScenarioFileBytes)
            throw ScenarioError({std::string(kStdinName) + ": is larger than " +
                                 std::to_string(kMaxScenarioFileBytes) +
                                 " bytes; expected a scenario of at most 1 MiB"});
    }
    if (std::cin.bad()) throw ScenarioError({std::string(kStdinName) + ": cannot be read"});
    return text;
}

}  // namespace

Scenario load_scenario(const std::string& file, const std::vector<std::string>& sets) {
    if (file != "-") return Scenario::load(file, sets);
    return Scenario::from_json(parse_scenario_text(read_stdin(), kStdinName), kStdinName, sets);
}

}  // namespace pcisim::cli
