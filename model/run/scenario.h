// A scenario: the JSON a user writes (optionally on top of a platform file), checked against the
// parameter schema and completed with defaults.  Modules read their parameters through its
// view (config/scenario_view.h) by dotted path ("bus.clock_mhz", "bridges[1].upstream_latency_ns").
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/scenario_view.h"

namespace pcisim {

// What the loader reads at most (docs/robustness.md, "Input limits"): a scenario or platform
// file of 1 MiB, JSON nested 64 deep (scenario keys go 3 deep: cpu.cycles.x), a chain of 8
// platforms, 100 problems listed.
constexpr std::size_t kMaxScenarioFileBytes = std::size_t(1) << 20;
constexpr int kMaxJsonDepth = 64;
constexpr std::size_t kMaxPlatformChain = 8;
constexpr std::size_t kMaxProblemsListed = 100;

class Scenario {
public:
    // Reads FILE (a regular file of at most kMaxScenarioFileBytes), merges the platform it
    // names and the platforms those name (the nearer file's values win), applies each "--set"
    // override ("key.path=value", value parsed as JSON or else taken as a string; "platform=..."
    // chooses the platform before it is read), checks it.  Every problem found in the files and
    // the overrides is reported at once.
    static Scenario load(const std::string& file, const std::vector<std::string>& overrides = {});
    // Same checks for a scenario already in memory; `origin` names it in messages and is the
    // directory that a relative "platform" path is resolved against.
    static Scenario from_json(nlohmann::json doc, const std::string& origin,
                              const std::vector<std::string>& overrides = {});
    // This scenario with more overrides, checked again: the same as loading its file with all
    // of them.  No file is read (a sweep's points, a worker's group of them) unless one of them
    // chooses the platform, which is then read like at load.
    Scenario with(const std::vector<std::string>& overrides) const;

    // The checked document as the modules read it (ScenarioView's typed readers by dotted
    // path); a Scenario converts to it where a module's config is made (`HostConfig::from(s)`).
    ScenarioView view() const { return ScenarioView(resolved_); }
    operator ScenarioView() const { return view(); }
    double number(const std::string& path) const { return view().number(path); }
    std::int64_t integer(const std::string& path) const { return view().integer(path); }
    bool boolean(const std::string& path) const { return view().boolean(path); }
    std::string text(const std::string& path) const { return view().text(path); }
    bool has(const std::string& path) const { return view().has(path); }
    std::size_t count(const std::string& array_path) const { return view().count(array_path); }

    // The checked scenario with every default filled in.
    const nlohmann::json& resolved() const { return resolved_; }
    const std::string& origin() const { return origin_; }
    // The files it was read from: the scenario file (when loaded from one) and every platform
    // file of its chain, as they were found.  A command's outputs must be none of them.
    std::vector<std::string> files() const;

private:
    static Scenario build(std::shared_ptr<const nlohmann::json> source, const std::string& origin,
                          const std::vector<std::string>& overrides,
                          std::vector<std::string> problems);
    static Scenario checked(nlohmann::json doc, const std::string& origin,
                            std::vector<std::string> problems);
    nlohmann::json resolved_;
    std::string origin_;
    std::string file_;                         // "" when built from JSON in memory
    std::vector<std::string> platform_files_;  // the platform chain, nearest first
    // The document as given (before its platform and the overrides) and the overrides so far:
    // what a new platform is merged under again.
    std::shared_ptr<const nlohmann::json> source_;
    std::vector<std::string> overrides_;
};

// Applies "key.path=value" to a JSON document (creating objects on the way); a malformed key
// path (an empty name, an unclosed or non-numeric index) is a ScenarioError.
void apply_override(nlohmann::json& doc, const std::string& assignment);
// The text of a scenario from `in` (a file, standard input), `origin` naming it in messages:
// more than kMaxScenarioFileBytes is a ScenarioError, and reading stops a chunk past that
// whatever the source claims (a pipe could be endless).
std::string read_scenario_text(std::istream& in, const std::string& origin);
// Parses a scenario's text; malformed JSON, nesting deeper than kMaxJsonDepth and a key given
// twice in one object are ScenarioErrors naming origin and the line.
nlohmann::json parse_scenario_text(const std::string& text, const std::string& origin);
// Parses a value as JSON, or takes it as a plain string when it is not JSON (or not JSON the
// loader accepts: too deep, a key given twice).
nlohmann::json parse_value(const std::string& text);

}  // namespace pcisim
