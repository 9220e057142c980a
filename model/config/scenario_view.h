// What a module sees of a scenario while it is built: the checked document with every default
// filled in, read-only, through typed readers by dotted path ("bus.clock_mhz",
// "bridges[1].upstream_latency_ns", "nics.0.model").  run/scenario.h loads and checks the
// document; the modules below run/ read it only through this view, so they need not know how a
// scenario is loaded.
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

class ScenarioView {
public:
    // `resolved` must outlive the view (a Scenario's document).
    explicit ScenarioView(const nlohmann::json& resolved) : doc_(&resolved) {}

    double number(const std::string& path) const;
    std::int64_t integer(const std::string& path) const;
    bool boolean(const std::string& path) const;
    std::string text(const std::string& path) const;
    // Whether the document holds `path` (an inherited key an item leaves out does not).
    bool has(const std::string& path) const;
    // Items in an array of objects ("bridges", "masters").
    std::size_t count(const std::string& array_path) const;

    const nlohmann::json& resolved() const { return *doc_; }

private:
    const nlohmann::json& at(const std::string& path) const;
    const nlohmann::json* doc_;
};

}  // namespace pcisim
