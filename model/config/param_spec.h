// A scenario key's specification: its type, unit, default, range and meaning.  Each module lists
// its own keys next to the code that reads them (`std::vector<ParamSpec> foo_params()` in the
// module's file, declared in its header); run/schema.cpp collects the tables into the schema
// that checks scenarios and generates docs/scenario-reference.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pcisim {

enum class ParamType { Number, Integer, Boolean, Text, Choice, Notes };

struct ParamSpec {
    std::string path;           // dotted; "bridges[]." marks the items of an array of objects
    ParamType type;
    std::string unit;           // "" when dimensionless
    nlohmann::json default_value;
    double min = 0, max = 0;    // inclusive range for numbers; ignored when min > max
    std::vector<std::string> choices;  // Choice: allowed strings; Integer/Number: allowed values
    std::string meaning;
    // A key of an array item that takes another key's value when not given ("nics[].model"
    // from "nic.model"): no default is filled in, so a change of that key (a sweep's override)
    // reaches every item that does not set its own.
    std::string inherits;
};

// Builders that keep the tables short.
ParamSpec number(std::string path, std::string unit, double def, double min, double max,
                 std::string meaning);
ParamSpec integer(std::string path, std::string unit, long long def, long long min,
                  long long max, std::string meaning);
ParamSpec one_of_integers(std::string path, std::string unit, long long def,
                          std::vector<long long> allowed, std::string meaning);
ParamSpec boolean(std::string path, bool def, std::string meaning);
ParamSpec text(std::string path, std::string def, std::string meaning);
ParamSpec choice(std::string path, std::string def, std::vector<std::string> choices,
                 std::string meaning);
// `spec` under another path, taking the value of `spec.path` when not given (ParamSpec::inherits).
ParamSpec inherited(const ParamSpec& spec, std::string path, std::string meaning);
// An object of free-text strings (key -> reason), e.g. why a platform value is what it is.
ParamSpec notes(std::string path, std::string meaning);

// A size as the scenario checks' messages quote it: "2048 B".
inline std::string bytes_text(std::uint64_t n) { return std::to_string(n) + " B"; }

}  // namespace pcisim
