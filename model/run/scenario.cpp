#include "run/scenario.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "core/data_dir.h"
#include "run/run_checks.h"
#include "run/schema.h"

namespace pcisim {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kShownBytes = 60;  // of a value or a key in a message

// User text as a message shows it: at most kShownBytes, cut on a UTF-8 character boundary.
std::string clip(const std::string& s) {
    if (s.size() <= kShownBytes) return s;
    std::size_t cut = kShownBytes - 3;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    return s.substr(0, cut) + "...";
}

// --set takes any bytes as a string: invalid UTF-8 is shown replaced rather than thrown on.
std::string quoted(const std::string& s) {
    return json(s.substr(0, kShownBytes + 1)).dump(-1, ' ', false, json::error_handler_t::replace);
}

// Compact JSON, written piece by piece until it is longer than a message shows: a huge or
// deeply nested value costs no more than a short one, and the recursion is no deeper than the
// characters written.
void write_clipped(const json& v, std::string& out) {
    if (out.size() > kShownBytes) return;
    if (v.is_object()) {
        out += '{';
        for (auto it = v.begin(); it != v.end() && out.size() <= kShownBytes; ++it) {
            if (it != v.begin()) out += ',';
            out += quoted(it.key()) + ':';
            write_clipped(it.value(), out);
        }
        out += '}';
    } else if (v.is_array()) {
        out += '[';
        for (auto it = v.begin(); it != v.end() && out.size() <= kShownBytes; ++it) {
            if (it != v.begin()) out += ',';
            write_clipped(*it, out);
        }
        out += ']';
    } else if (v.is_string()) {
        out += quoted(v.get_ref<const std::string&>());
    } else {
        out += v.dump();
    }
}

std::string show(const json& v) {
    std::string s;
    write_clipped(v, s);
    return clip(s);
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

// The schema path nearest to a key, or "" when none is near enough to be a likely typo: a
// suggestion that shares nothing with the key ("ring_size" -> "name") misleads more than none.
std::string nearest_key(const std::string& schema_path) {
    // No schema path is near a very long key: compare its start only (the distance costs the
    // product of the lengths).
    const std::string key = schema_path.substr(0, 2 * kShownBytes);
    std::string best;
    std::size_t best_d = SIZE_MAX;
    for (const auto& p : schema()) {
        std::size_t d = edit_distance(key, p.path);
        if (d < best_d) best_d = d, best = p.path;
    }
    return best_d <= std::max<std::size_t>(2, key.size() / 3) ? best : std::string();
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
                problems.push_back(path + "." + clip(it.key()) + ": " + show(it.value()) +
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
        if (problems.size() > kMaxProblemsListed) return;  // checked() says that more were left
        std::string key_path = path.empty() ? clip(it.key()) : path + "." + clip(it.key());
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
            const std::string near = nearest_key(key_spath);
            problems.push_back(key_path + ": unknown key; " +
                               (near.empty() ? "expected one of the keys 'pcisim schema' lists"
                                             : "did you mean \"" + near + "\"?"));
        }
    }
    // Defaults for the keys directly below this object.
    const std::vector<SchemaChild>* children = schema_children(spath);
    if (!children) return;
    for (const SchemaChild& c : *children) {
        if (c.key.find("[]") != std::string::npos) continue;  // arrays default to empty lists
        if (obj.contains(c.key)) continue;
        if (c.leaf) {
            if (!c.leaf->inherits.empty()) continue;  // read from the key it inherits
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

bool all_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Line and column (from 1) of a byte of a text.
struct TextPosition {
    std::size_t line, column;
};

TextPosition position_of(const std::string& text, std::size_t byte) {
    byte = std::min(byte, text.size());
    std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + byte, '\n'));
    std::size_t line_start = byte ? text.rfind('\n', byte - 1) : std::string::npos;
    return {line, line_start == std::string::npos ? byte + 1 : byte - line_start};
}

// A character iterator that leaves behind how far it has gone: nlohmann's parser callbacks
// carry no position, and a duplicate key's message names its line.
class TrackedChars {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;
    TrackedChars(const char* at, const char** read_to) : at_(at), read_to_(read_to) {}
    reference operator*() const { return *at_; }
    TrackedChars& operator++() {
        *read_to_ = ++at_;
        return *this;
    }
    bool operator==(const TrackedChars& o) const { return at_ == o.at_; }
    bool operator!=(const TrackedChars& o) const { return at_ != o.at_; }

private:
    const char* at_;
    const char** read_to_;
};

struct DuplicateKey {
    std::string path;
    std::size_t byte;  // just past the second occurrence
};
struct NestedTooDeep {
    std::size_t byte;  // just past the bracket that opens one level too many
};

// JSON text with the two checks nlohmann's parser leaves out.  A key given twice in one object
// (RFC 8259 section 4 leaves its meaning open; the parser would keep the last one silently) is
// added to `duplicates`.  Nesting deeper than kMaxJsonDepth throws NestedTooDeep before the
// level is built: what comes after parsing (checks, messages) may recurse once per level.
json parse_bounded(const std::string& text, std::vector<DuplicateKey>& duplicates) {
    const char* read_to = text.data();
    struct Level {
        std::string path;  // of this object or array
        bool array;
        std::size_t items;
        std::set<std::string> keys;
        std::string key;  // the key being read
    };
    std::vector<Level> levels;
    auto item_path = [&levels]() -> std::string {
        if (levels.empty()) return "";
        const Level& l = levels.back();
        if (l.array) return l.path + "[" + std::to_string(l.items) + "]";
        return l.path.empty() ? clip(l.key) : l.path + "." + clip(l.key);
    };
    auto item_done = [&levels] {
        if (!levels.empty() && levels.back().array) ++levels.back().items;
    };
    json::parser_callback_t watch = [&](int depth, json::parse_event_t event, json& parsed) {
        const auto byte = static_cast<std::size_t>(read_to - text.data());
        switch (event) {
        case json::parse_event_t::object_start:
        case json::parse_event_t::array_start:
            if (depth >= kMaxJsonDepth) throw NestedTooDeep{byte};
            levels.push_back({item_path(), event == json::parse_event_t::array_start, 0, {}, {}});
            break;
        case json::parse_event_t::key: {
            Level& l = levels.back();
            l.key = parsed.get<std::string>();
            if (!l.keys.insert(l.key).second) duplicates.push_back({item_path(), byte});
            break;
        }
        case json::parse_event_t::object_end:
        case json::parse_event_t::array_end:
            levels.pop_back();
            item_done();
            break;
        case json::parse_event_t::value:
            item_done();
            break;
        }
        return true;
    };
    const char* end = text.data() + text.size();
    return json::parse(TrackedChars(text.data(), &read_to), TrackedChars(end, &read_to), watch);
}

// Reads a scenario's or a platform's text.  Malformed JSON and nesting too deep end the reading
// (a ScenarioError naming origin:line:column); a key given twice is added to `problems`.
json parse_document(const std::string& text, const std::string& origin,
                    std::vector<std::string>& problems) {
    std::vector<DuplicateKey> duplicates;
    json doc;
    try {
        doc = parse_bounded(text, duplicates);
    } catch (const NestedTooDeep& e) {
        TextPosition at = position_of(text, e.byte - 1);
        throw ScenarioError({origin + ":" + std::to_string(at.line) + ":" +
                             std::to_string(at.column) + ": JSON nested deeper than " +
                             std::to_string(kMaxJsonDepth) + " levels; expected at most " +
                             std::to_string(kMaxJsonDepth) + " (scenario keys go 3 deep)"});
    } catch (const json::parse_error& e) {
        TextPosition at = position_of(text, e.byte ? e.byte - 1 : 0);
        std::string what = e.what();
        std::size_t cut = what.find("syntax error");
        throw ScenarioError({origin + ":" + std::to_string(at.line) + ":" +
                             std::to_string(at.column) + ": malformed JSON: " +
                             (cut == std::string::npos ? what : what.substr(cut))});
    } catch (const json::exception& e) {
        // Well-formed but unusable, e.g. a number too large for a double (1e999).
        throw ScenarioError({origin + ": unusable JSON: " + std::string(e.what())});
    }
    for (const auto& d : duplicates) {
        if (problems.size() > kMaxProblemsListed) break;
        problems.push_back(d.path + ": key given twice (line " +
                           std::to_string(position_of(text, d.byte - 1).line) + " of " + origin +
                           "); expected each key once in an object");
    }
    return doc;
}

// A scenario or platform file: a regular file (a device or a FIFO could be endless).
std::string read_scenario_file(const std::string& file) {
    std::error_code error;
    fs::file_status status = fs::status(file, error);
    if (!fs::exists(status))
        throw ScenarioError({file + ": cannot be read (" +
                             (error ? error.message() : std::string("no such file")) + ")"});
    if (!fs::is_regular_file(status))
        throw ScenarioError({file + ": is not a regular file; expected a JSON file (devices, "
                                    "pipes and directories are not read)"});
    std::ifstream in(file, std::ios::binary);
    if (!in) throw ScenarioError({file + ": cannot be read"});
    return read_scenario_text(in, file);
}

// "a.b[2].c" / "a.b.2.c" -> keys and indices.  Anything else -- an empty name ("a..b", ".a",
// "a."), "[" without "]", an index that is not a number -- is refused: dropping a piece would
// set another key than the one written.
std::vector<std::string> split_key_path(const std::string& key, const std::string& assignment) {
    auto refuse = [&] {
        return ScenarioError({"--set " + clip(assignment) + ": \"" + clip(key) +
                              "\" is not a key path; expected names joined by dots, list items "
                              "as [N] or .N, e.g. bus.clock_mhz or bridges[0].name"});
    };
    std::vector<std::string> parts;
    for (std::size_t i = 0;;) {
        std::size_t end = std::min(key.find_first_of(".[]", i), key.size());
        if (end == i) throw refuse();  // an empty name
        parts.push_back(key.substr(i, end - i));
        i = end;
        while (i < key.size() && key[i] == '[') {
            std::size_t close = key.find(']', i);
            if (close == std::string::npos) throw refuse();
            parts.push_back(key.substr(i + 1, close - i - 1));
            if (!all_digits(parts.back())) throw refuse();
            i = close + 1;
        }
        if (i == key.size()) return parts;
        if (key[i] != '.') throw refuse();  // "]" without "[", or a name right after "]"
        ++i;
    }
}

// Whether an override chooses the platform: it is applied before the platform file is read.
bool chooses_platform(const std::string& assignment) {
    std::size_t end = assignment.find_first_of(".[=");
    return assignment.compare(0, end, "platform") == 0;
}

void apply_collecting(json& doc, const std::string& assignment,
                      std::vector<std::string>& problems) {
    try {
        apply_override(doc, assignment);
    } catch (const ScenarioError& e) {
        problems.insert(problems.end(), e.problems().begin(), e.problems().end());
    }
}

// The platform file `name`, named by the file `named_by` (or by --set, for the scenario), with
// the platform it names in turn merged under it.  A relative name is looked up beside the file
// that names it, then in the data directory's scenarios/ (core/data_dir.h).  `chain` holds the
// platform files read so far: one named again is a cycle.  Problems are collected; the platform is then taken as empty.
json read_platform(const std::string& name, const std::string& named_by,
                   std::vector<fs::path>& chain, std::vector<std::string>& problems) {
    fs::path file = name;
    std::error_code error;  // an unusable path is simply not there
    if (file.is_relative()) {
        fs::path beside = fs::path(named_by).parent_path() / file;
        file = fs::exists(beside, error) ? beside : data_path("scenarios") / file;
    }
    if (!fs::exists(file, error)) {
        problems.push_back("platform: \"" + clip(name) + "\" (named in " + named_by +
                           ") was not found beside it or in " + data_path("scenarios").string() +
                           "/; expected the path of a platform file");
        return json::object();
    }
    fs::path canonical = fs::weakly_canonical(file, error);
    if (std::find(chain.begin(), chain.end(), canonical) != chain.end()) {
        std::string cycle;
        for (const auto& f : chain) cycle += f.string() + " -> ";
        problems.push_back("platform: \"" + clip(name) + "\" (named in " + named_by +
                           ") is a cycle: " + cycle + canonical.string() +
                           "; expected platforms that never name one already read");
        return json::object();
    }
    if (chain.size() == kMaxPlatformChain) {
        problems.push_back("platform: \"" + clip(name) + "\" (named in " + named_by +
                           ") is platform number " + std::to_string(chain.size() + 1) +
                           " of a chain; expected at most " + std::to_string(kMaxPlatformChain));
        return json::object();
    }
    chain.push_back(canonical);
    json platform;
    try {
        platform = parse_document(read_scenario_file(file.string()), file.string(), problems);
    } catch (const ScenarioError& e) {
        problems.insert(problems.end(), e.problems().begin(), e.problems().end());
        return json::object();
    }
    if (!platform.is_object()) {
        problems.push_back(file.string() + ": a platform file must be a JSON object");
        return json::object();
    }
    auto inner = platform.find("platform");
    if (inner == platform.end()) return platform;
    if (!inner->is_string()) {
        problems.push_back("platform: " + show(*inner) + " (in " + file.string() +
                           ") is not a string; expected the path of a platform file");
        return json::object();
    }
    std::string inner_name = inner->get<std::string>();
    platform.erase(inner);
    json merged = read_platform(inner_name, file.string(), chain, problems);
    merge_into(merged, platform);
    return merged;
}

}  // namespace

// In chunks, not into a buffer of the whole limit: zero-filling 1 MiB for a file of a few
// kilobytes cost a `pcisim run` (two files read) a fifth of its page faults.
std::string read_scenario_text(std::istream& in, const std::string& origin) {
    std::string text;
    char chunk[16384];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        text.append(chunk, static_cast<std::size_t>(in.gcount()));
        if (text.size() > kMaxScenarioFileBytes)
            throw ScenarioError({origin + ": is larger than " +
                                 std::to_string(kMaxScenarioFileBytes) +
                                 " bytes; expected a scenario of at most 1 MiB"});
    }
    if (in.bad()) throw ScenarioError({origin + ": cannot be read"});
    return text;
}

json parse_scenario_text(const std::string& text, const std::string& origin) {
    std::vector<std::string> problems;
    json doc = parse_document(text, origin, problems);
    if (!problems.empty()) throw ScenarioError(problems);
    return doc;
}

json parse_value(const std::string& text) {
    std::vector<DuplicateKey> duplicates;
    try {
        json v = parse_bounded(text, duplicates);
        if (duplicates.empty()) return v;
    } catch (const NestedTooDeep&) {
    } catch (const json::exception&) {  // not JSON, or a number too large for a double
    }
    return json(text);
}

void apply_override(json& doc, const std::string& assignment) {
    std::size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw ScenarioError({"--set " + clip(assignment) +
                             ": expected KEY=VALUE, e.g. bus.clock_mhz=66"});
    const std::string key = assignment.substr(0, eq);
    const std::string value = assignment.substr(eq + 1);
    std::vector<std::string> parts = split_key_path(key, assignment);
    // A string-valued key takes the text as it is (--set nic.model=82544), or the string a JSON
    // string literal gives.  Any other key refuses a value that is JSON the loader does not take
    // rather than read it as text.
    const ParamSpec* p = find_param(schema_form(key));
    const bool text_key = p && (p->type == ParamType::Text || p->type == ParamType::Choice);
    std::vector<DuplicateKey> duplicates;
    json parsed;
    try {
        parsed = parse_bounded(value, duplicates);
    } catch (const NestedTooDeep&) {
        if (!text_key)
            throw ScenarioError({"--set " + clip(key) + ": the value is nested deeper than " +
                                 std::to_string(kMaxJsonDepth) + " levels; expected at most " +
                                 std::to_string(kMaxJsonDepth)});
    } catch (const json::exception&) {  // not JSON, or a number too large for a double
        parsed = value;
    }
    if (text_key && !parsed.is_string()) parsed = value;
    if (!duplicates.empty() && !text_key)
        throw ScenarioError({"--set " + clip(key) + ": " + duplicates.front().path +
                             " is given twice in the value; expected each key once in an object"});
    json* node = &doc;
    for (const std::string& k : parts) {
        if (node->is_array() && all_digits(k)) {
            std::size_t idx = k.size() > 9 ? SIZE_MAX : std::stoul(k);  // no overflow
            if (idx >= node->size())
                throw ScenarioError({"--set " + clip(assignment) + ": index " + clip(k) +
                                     " is past the end of a list of " +
                                     std::to_string(node->size())});
            node = &(*node)[idx];
        } else {
            if (!node->is_object()) *node = json::object();
            node = &(*node)[k];
        }
    }
    *node = std::move(parsed);
}

Scenario Scenario::load(const std::string& file, const std::vector<std::string>& overrides) {
    std::vector<std::string> problems;
    json doc = parse_document(read_scenario_file(file), file, problems);
    Scenario s = build(std::make_shared<const json>(std::move(doc)), file, overrides,
                       std::move(problems));
    s.file_ = file;
    return s;
}

Scenario Scenario::from_json(json doc, const std::string& origin,
                             const std::vector<std::string>& overrides) {
    return build(std::make_shared<const json>(std::move(doc)), origin, overrides, {});
}

Scenario Scenario::build(std::shared_ptr<const json> source, const std::string& origin,
                         const std::vector<std::string>& overrides,
                         std::vector<std::string> problems) {
    if (!source->is_object()) {
        problems.push_back(origin + ": the scenario must be a JSON object");
        throw ScenarioError(problems);
    }
    json doc = *source;
    for (const auto& o : overrides)
        if (chooses_platform(o)) apply_collecting(doc, o, problems);
    // A platform that is not a string is left to the key checks to report.
    auto name = doc.find("platform");
    std::vector<fs::path> chain;
    if (name != doc.end() && name->is_string()) {
        const std::string platform_name = name->get<std::string>();
        json platform = read_platform(platform_name, origin, chain, problems);
        doc.erase(name);
        merge_into(platform, doc);
        doc = std::move(platform);
        doc["platform"] = platform_name;
    }
    for (const auto& o : overrides)
        if (!chooses_platform(o)) apply_collecting(doc, o, problems);
    Scenario s = checked(std::move(doc), origin, std::move(problems));
    s.source_ = std::move(source);
    s.overrides_ = overrides;
    for (const fs::path& f : chain) s.platform_files_.push_back(f.string());
    return s;
}

Scenario Scenario::with(const std::vector<std::string>& overrides) const {
    std::vector<std::string> all = overrides_;
    all.insert(all.end(), overrides.begin(), overrides.end());
    // Another platform: its values go under the scenario's own, which only the source has.
    if (std::any_of(overrides.begin(), overrides.end(), chooses_platform)) {
        Scenario s = build(source_, origin_, all, {});
        s.file_ = file_;
        return s;
    }
    // Checking fills in defaults only where a key is missing and never changes one that is
    // there, so a resolved document with more overrides checks to what the file with all the
    // overrides would.
    json doc = resolved_;
    std::vector<std::string> problems;
    for (const auto& o : overrides) apply_collecting(doc, o, problems);
    Scenario s = checked(std::move(doc), origin_, std::move(problems));
    s.source_ = source_;
    s.overrides_ = std::move(all);
    s.file_ = file_;
    s.platform_files_ = platform_files_;
    return s;
}

std::vector<std::string> Scenario::files() const {
    std::vector<std::string> all;
    if (!file_.empty()) all.push_back(file_);
    all.insert(all.end(), platform_files_.begin(), platform_files_.end());
    return all;
}

Scenario Scenario::checked(json doc, const std::string& origin, std::vector<std::string> problems) {
    check_object(doc, "", "", problems);
    // Checks between keys mean something only once every file was read and every key and
    // value is right on its own.
    if (problems.empty()) check_combinations(doc, problems);
    Scenario s;
    s.resolved_ = std::move(doc);
    s.origin_ = origin;
    // What the run would find only once it builds the machine.
    if (problems.empty()) check_runnable(s, problems);
    if (problems.size() > kMaxProblemsListed) {
        problems.resize(kMaxProblemsListed);
        problems.push_back(origin + ": more than " + std::to_string(kMaxProblemsListed) +
                           " problems, the first " + std::to_string(kMaxProblemsListed) +
                           " listed; expected fewer (fix these and check again)");
    }
    if (!problems.empty()) throw ScenarioError(problems);
    return s;
}

}  // namespace pcisim
