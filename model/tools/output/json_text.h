// JSON as the commands write it.  nlohmann::json throws a bare type_error 316 when it meets a
// string that is not UTF-8 (a --set value, a scenario name from a Latin-1 file); these name the
// key instead, before anything is written.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace pcisim::output {

// The path of the first string (value or key) in `doc` that is not valid UTF-8, with a
// description: "scenario.name: the string \"caf\\xE9\" is not valid UTF-8".  nullopt when all
// are valid.
std::optional<std::string> invalid_utf8(const nlohmann::json& doc);

// doc.dump(indent); throws OutputError naming `what` (the file) and the key when a string is
// not valid UTF-8.
std::string json_text(const nlohmann::json& doc, int indent, const std::string& what);

}  // namespace pcisim::output
