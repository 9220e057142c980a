// A scenario: the JSON a user writes (optionally on top of a platform file), checked against the
// parameter schema and completed with defaults.  Modules read their parameters from it by dotted
// path ("bus.clock_mhz", "bridges[1].upstream_latency_ns").
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pcisim {

// Every problem found in a scenario, one line each ("path: value ...: expected ...").
class ScenarioError : public std::runtime_error {
public:
    explicit ScenarioError(std::vector<std::string> problems);
    const std::vector<std::string>& problems() const { return problems_; }

private:
    std::vector<std::string> problems_;
};

class Scenario {
public:
    // Reads FILE, merges the platform it names (scenario values win), applies each "--set"
    // override ("key.path=value", value parsed as JSON or else taken as a string), checks it.
    static Scenario load(const std::string& file, const std::vector<std::string>& overrides = {});
    // Same checks for a scenario already in memory; `origin` names it in messages and is the
    // directory that a relative "platform" path is resolved against.
    static Scenario from_json(nlohmann::json doc, const std::string& origin,
                              const std::vector<std::string>& overrides = {});
    // This scenario with more overrides, checked again: the same as loading its file with all
    // of them, without reading any file (a sweep's points, a worker's group of them).
    Scenario with(const std::vector<std::string>& overrides) const;

    double number(const std::string& path) const;
    std::int64_t integer(const std::string& path) const;
    bool boolean(const std::string& path) const;
    std::string text(const std::string& path) const;
    // Items in an array of objects ("bridges", "masters").
    std::size_t count(const std::string& array_path) const;

    // The checked scenario with every default filled in.
    const nlohmann::json& resolved() const { return resolved_; }
    const std::string& origin() const { return origin_; }

private:
    static Scenario checked(nlohmann::json doc, const std::string& origin);
    const nlohmann::json& at(const std::string& path) const;
    nlohmann::json resolved_;
    std::string origin_;
};

// Applies "key.path=value" to a JSON document (creating objects on the way).
void apply_override(nlohmann::json& doc, const std::string& assignment);
// Parses a scenario's text; malformed JSON is a ScenarioError naming origin:line:column.
nlohmann::json parse_scenario_text(const std::string& text, const std::string& origin);
// Parses a value as JSON, or takes it as a plain string when it is not JSON.
nlohmann::json parse_value(const std::string& text);

}  // namespace pcisim
