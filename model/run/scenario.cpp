#include "run/scenario.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "run/schema.h"

namespace pcisim {

using nlohmann::json;
namespace fs = std::filesystem;

ScenarioError::ScenarioError(std::vector<std::string> problems)
    : std::runtime_error(problems.empty() ? std::string("scenario error") : problems.front()),
      problems_(std::move(problems)) {}

namespace {

std::string show(const json& v) {
    // --set takes any bytes as a string: show invalid UTF-8 replaced rather than throw.
    std::string s = v.dump(-1, ' ', false, json::error_handler_t::replace);
    return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
            diag = up;
        }
    }
    return row[b.size()];
}

// "bridges[2].x" or "bridges.2.x" -> "bridges[].x": the form the schema is written in.
std::string schema_form(const std::string& path) {
    std::string out;
    for (std::size_t i = 0; i < path.size(); ++i) {
        if (path[i] == '[') {
            out += "[]";
            i = path.find(']', i);
            if (i == std::string::npos) break;  // "a[1" (no "]"): nothing after the index
        } else if (path[i] == '.' && i + 1 < path.size() && std::isdigit(static_cast<unsigned char>(path[i + 1]))) {
            out += "[]";
            while (i + 1 < path.size() && std::isdigit(static_cast<unsigned char>(path[i + 1]))) ++i;
        } else {
            out += path[i];
        }
    }
    return out;
}

std::string nearest_key(const std::string& schema_path) {
    std::string best;
    std::size_t best_d = SIZE_MAX;
    for (const auto& p : schema()) {
        std::size_t d = edit_distance(schema_path, p.path);
        if (d < best_d) best_d = d, best = p.path;
    }
    return best;
}

bool is_array_of_objects(const std::string& schema_prefix) {
    return schema_children(schema_prefix + "[]") != nullptr;
}

bool is_object_prefix(const std::string& schema_prefix) {
    return schema_children(schema_prefix) != nullptr;
}

std::string describe_expected(const ParamSpec& p) {
    std::ostringstream o;
    switch (p.type) {
    case ParamType::Boolean: return "true or false";
    case ParamType::Text: return "a string";
    case ParamType::Notes: return "an object of strings";
    case ParamType::Choice: {
        o << "one of";
        for (const auto& c : p.choices) o << " \"" << c << "\"";
        return o.str();
    }
    case ParamType::Integer:
    case ParamType::Number:
        if (!p.choices.empty()) {
            o << "one of";
            for (const auto& c : p.choices) o << " " << c;
        } else {
            o << (p.type == ParamType::Integer ? "an integer" : "a number");
            if (p.min <= p.max) o << " in [" << p.min << ", " << p.max << "]";
        }
        if (!p.unit.empty()) o << " (" << p.unit << ")";
        return o.str();
    }
    return "";
}

void check_value(const ParamSpec& p, const std::string& path, const json& v,
                 std::vector<std::string>& problems) {
    auto bad = [&](const std::string& why) {
        problems.push_back(path + ": " + show(v) + " " + why + "; expected " + describe_expected(p));
    };
    switch (p.type) {
    case ParamType::Boolean:
        if (!v.is_boolean()) bad("is not a boolean");
        return;
    case ParamType::Text:
        if (!v.is_string()) bad("is not a string");
        return;
    case ParamType::Notes:
        if (!v.is_object()) return bad("is not an object");
        for (auto it = v.begin(); it != v.end(); ++it)
            if (!it.value().is_string())
                problems.push_back(path + "." + it.key() + ": " + show(it.value()) +
                                   " is not a string; expected a one-line reason");
        return;
    case ParamType::Choice:
        if (!v.is_string()) return bad("is not a string");
        if (std::find(p.choices.begin(), p.choices.end(), v.get<std::string>()) == p.choices.end())
            bad("is not allowed");
        return;
    case ParamType::Integer:
    case ParamType::Number: {
        if (!v.is_number()) return bad("is not a number");
        double x = v.get<double>();
        if (!std::isfinite(x)) return bad("is not finite");
        if (p.type == ParamType::Integer && std::floor(x) != x) return bad("is not an integer");
        if (!p.choices.empty()) {
            bool ok = false;
            for (const auto& c : p.choices) ok = ok || std::stod(c) == x;
            if (!ok) bad("is not allowed");
        } else if (p.min <= p.max && (x < p.min || x > p.max)) {
            bad("is out of range");
        }
        return;
    }
    }
}

// Walks the user's document: flags unknown keys and wrong values, fills in defaults.
void check_object(json& obj, const std::string& path, const std::string& spath,
                  std::vector<std::string>& problems) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        std::string key_path = path.empty() ? it.key() : path + "." + it.key();
        std::string key_spath = spath.empty() ? it.key() : spath + "." + it.key();
        json& v = it.value();
        if (const ParamSpec* p = find_param(key_spath)) {
            check_value(*p, key_path, v, problems);
        } else if (is_array_of_objects(key_spath)) {
            if (!v.is_array()) {
                problems.push_back(key_path + ": " + show(v) +
                                   " is not an array; expected a list of objects");
                continue;
            }
            for (std::size_t i = 0; i < v.size(); ++i) {
                std::string item = key_path + "[" + std::to_string(i) + "]";
                if (!v[i].is_object()) {
                    problems.push_back(item + ": " + show(v[i]) +
                                       " is not an object; expected an object of settings");
                    continue;
                }
                check_object(v[i], item, key_spath + "[]", problems);
            }
        } else if (is_object_prefix(key_spath)) {
            if (!v.is_object()) {
                problems.push_back(key_path + ": " + show(v) +
                                   " is not an object; expected an object of settings");
                continue;
            }
            check_object(v, key_path, key_spath, problems);
        } else {
            problems.push_back(key_path + ": unknown key; did you mean \"" +
                               nearest_key(key_spath) + "\"?");
        }
    }
    // Defaults for the keys directly below this object.
    const std::vector<SchemaChild>* children = schema_children(spath);
    if (!children) return;
    for (const SchemaChild& c : *children) {
        if (c.key.find("[]") != std::string::npos) continue;  // arrays default to empty lists
        if (obj.contains(c.key)) continue;
        if (c.leaf) {
            obj[c.key] = c.leaf->default_value;
        } else {
            obj[c.key] = json::object();
            check_object(obj[c.key], path.empty() ? c.key : path + "." + c.key,
                         spath.empty() ? c.key : spath + "." + c.key, problems);
        }
    }
}

void merge_into(json& base, const json& over) {
    for (auto it = over.begin(); it != over.end(); ++it) {
        if (it.value().is_object() && base.contains(it.key()) && base[it.key()].is_object())
            merge_into(base[it.key()], it.value());
        else
            base[it.key()] = it.value();
    }
}

json parse_file(const std::string& file) {
    std::ifstream in(file);
    if (!in) throw ScenarioError({file + ": cannot be read"});
    std::stringstream buf;
    buf << in.rdbuf();
    return parse_scenario_text(buf.str(), file);
}

// Splits "a.b[2].c" / "a.b.2.c" into keys and indices.
std::vector<std::string> split_path(const std::string& path) {
    std::vector<std::string> parts;
    std::string cur;
    for (char c : path) {
        if (c == '.' || c == '[' || c == ']') {
            if (!cur.empty()) parts.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) parts.push_back(cur);
    return parts;
}

bool all_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

json parse_scenario_text(const std::string& text, const std::string& origin) {
    try {
        return json::parse(text);
    } catch (const json::parse_error& e) {
        std::size_t byte = std::min<std::size_t>(e.byte ? e.byte - 1 : 0, text.size());
        std::size_t line = 1 + std::count(text.begin(), text.begin() + byte, '\n');
        std::size_t line_start = text.rfind('\n', byte ? byte - 1 : 0);
        std::size_t column = line_start == std::string::npos ? byte + 1 : byte - line_start;
        std::string what = e.what();
        std::size_t cut = what.find("syntax error");
        throw ScenarioError({origin + ":" + std::to_string(line) + ":" + std::to_string(column) +
                             ": malformed JSON: " +
                             (cut == std::string::npos ? what : what.substr(cut))});
    } catch (const json::exception& e) {
        // Well-formed but unusable, e.g. a number too large for a double (1e999).
        throw ScenarioError({origin + ": unusable JSON: " + std::string(e.what())});
    }
}

json parse_value(const std::string& text) {
    try {
        return json::parse(text);
    } catch (const json::exception&) {  // not JSON, or a number too large for a double
        return json(text);
    }
}

void apply_override(json& doc, const std::string& assignment) {
    std::size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw ScenarioError({"--set " + assignment + ": expected KEY=VALUE, e.g. bus.clock_mhz=66"});
    std::vector<std::string> parts = split_path(assignment.substr(0, eq));
    json* node = &doc;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::string& k = parts[i];
        bool last = i + 1 == parts.size();
        if (node->is_array() && all_digits(k)) {
            std::size_t idx = k.size() > 9 ? SIZE_MAX : std::stoul(k);  // no overflow
            if (idx >= node->size())
                throw ScenarioError({"--set " + assignment + ": index " + k +
                                     " is past the end of a list of " +
                                     std::to_string(node->size())});
            node = &(*node)[idx];
        } else {
            if (!node->is_object()) *node = json::object();
            node = &(*node)[k];
        }
        if (last) {
            std::string value = assignment.substr(eq + 1);
            *node = parse_value(value);
            // A string-valued key takes the text as it is: --set nic.model=82544.
            const ParamSpec* p = find_param(schema_form(assignment.substr(0, eq)));
            if (p && !node->is_string() &&
                (p->type == ParamType::Text || p->type == ParamType::Choice))
                *node = value;
        }
    }
}

Scenario Scenario::load(const std::string& file, const std::vector<std::string>& overrides) {
    json doc = parse_file(file);
    return from_json(std::move(doc), file, overrides);
}

Scenario Scenario::from_json(json doc, const std::string& origin,
                             const std::vector<std::string>& overrides) {
    if (!doc.is_object()) throw ScenarioError({origin + ": the scenario must be a JSON object"});
    if (doc.contains("platform")) {
        if (!doc["platform"].is_string())
            throw ScenarioError({"platform: " + show(doc["platform"]) +
                                 " is not a string; expected the path of a platform file"});
        fs::path p = doc["platform"].get<std::string>();
        if (p.is_relative()) {
            fs::path beside = fs::path(origin).parent_path() / p;
            fs::path in_tree = fs::path(PCISIM_SOURCE_DIR) / "scenarios" / p;
            std::error_code ignored;  // an unusable path is simply not there
            p = fs::exists(beside, ignored) ? beside : in_tree;
        }
        // Only a regular file: a device or a FIFO would never end.
        std::error_code ignored;
        if (!fs::is_regular_file(p, ignored))
            throw ScenarioError({"platform: \"" + doc["platform"].get<std::string>() +
                                 "\" was not found beside the scenario or in scenarios/; "
                                 "expected the path of a platform file"});
        json platform = parse_file(p.string());
        if (!platform.is_object())
            throw ScenarioError({p.string() + ": a platform file must be a JSON object"});
        platform.erase("platform");
        std::string name = doc["platform"].get<std::string>();
        doc.erase("platform");
        merge_into(platform, doc);
        doc = std::move(platform);
        doc["platform"] = name;
    }
    for (const auto& o : overrides) apply_override(doc, o);
    return checked(std::move(doc), origin);
}

Scenario Scenario::with(const std::vector<std::string>& overrides) const {
    // Checking fills in defaults only where a key is missing and never changes one that is
    // there, so a resolved document with more overrides checks to what the file with all the
    // overrides would.
    json doc = resolved_;
    for (const auto& o : overrides) apply_override(doc, o);
    return checked(std::move(doc), origin_);
}

Scenario Scenario::checked(json doc, const std::string& origin) {
    std::vector<std::string> problems;
    check_object(doc, "", "", problems);
    if (problems.empty()) check_combinations(doc, problems);
    if (!problems.empty()) throw ScenarioError(problems);
    Scenario s;
    s.resolved_ = std::move(doc);
    s.origin_ = origin;
    return s;
}

// Every module reads its parameters through here while it is built: the path is walked in place
// (no split_path vector per lookup), which keeps elaboration short for sweep points.
const json& Scenario::at(const std::string& path) const {
    const json* node = &resolved_;
    std::string k;
    for (std::size_t i = 0; i <= path.size();) {
        std::size_t j = std::min(path.find_first_of(".[]", i), path.size());
        if (j > i) {
            k.assign(path, i, j - i);
            if (node->is_array() && all_digits(k)) {
                std::size_t idx = k.size() > 9 ? SIZE_MAX : std::stoul(k);  // no overflow
                if (idx >= node->size()) throw std::out_of_range("scenario path " + path);
                node = &(*node)[idx];
            } else {
                auto it = node->is_object() ? node->find(k) : node->end();
                if (it == node->end())
                    throw std::out_of_range("scenario path " + path + " is not in the schema");
                node = &*it;
            }
        }
        i = j + 1;
    }
    return *node;
}

double Scenario::number(const std::string& path) const { return at(path).get<double>(); }
std::int64_t Scenario::integer(const std::string& path) const {
    return at(path).get<std::int64_t>();
}
bool Scenario::boolean(const std::string& path) const { return at(path).get<bool>(); }
std::string Scenario::text(const std::string& path) const { return at(path).get<std::string>(); }
std::size_t Scenario::count(const std::string& array_path) const {
    const json& j = resolved_.contains(array_path) ? resolved_[array_path] : json::array();
    return j.is_array() ? j.size() : 0;
}

}  // namespace pcisim
