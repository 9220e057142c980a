#include "tools/sweep/sweep_axes.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <algorithm>
#include <regex>
#include <sstream>

#include "run/scenario.h"
#include "run/schema.h"

namespace pcisim::sweep {

namespace {

using nlohmann::json;

// Sweeps beyond this are almost certainly a typo in STEP.
constexpr std::size_t kMaxAxisValues = 100000;

UsageError bad(const std::string& spec, const std::string& why) {
    return UsageError("--vary " + spec + ": " + why);
}

std::vector<json> parse_range(const std::string& spec, const std::string& text) {
    std::smatch m;
    static const std::regex number(R"(\s*(-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?)\s*)");
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t colon; (colon = text.find(':', start)) != std::string::npos;
         start = colon + 1)
        parts.push_back(text.substr(start, colon - start));
    parts.push_back(text.substr(start));
    const std::string form = "expected A:B:STEP with numbers A <= B and STEP > 0, e.g. 60:1500:4";
    if (parts.size() != 3) throw bad(spec, "\"" + text + "\" is not a range; " + form);
    bool all_integers = true;
    double v[3];
    for (int i = 0; i < 3; ++i) {
        if (!std::regex_match(parts[i], m, number))
            throw bad(spec, "\"" + parts[i] + "\" is not a number; " + form);
        v[i] = std::strtod(m[1].str().c_str(), nullptr);  // +-inf when too large: no throw
        if (!std::isfinite(v[i])) throw bad(spec, "\"" + parts[i] + "\" is too large; " + form);
        all_integers = all_integers && !m[2].matched && !m[3].matched;
    }
    if (v[2] <= 0 || v[0] > v[1]) throw bad(spec, "\"" + text + "\" is an empty range; " + form);
    // Count steps instead of accumulating, so 0.1 steps do not drift past B.
    double n = std::floor((v[1] - v[0]) / v[2] + 1e-9);
    if (n + 1 > kMaxAxisValues)
        throw bad(spec, "\"" + text + "\" has more than " + std::to_string(kMaxAxisValues) +
                            " values; " + form);
    std::vector<json> values;
    for (long i = 0; i <= static_cast<long>(n); ++i) {
        double x = v[0] + i * v[2];
        if (all_integers)
            values.emplace_back(static_cast<long long>(std::llround(x)));
        else
            values.emplace_back(x);
    }
    return values;
}

std::vector<json> parse_list(const std::string& spec, const std::string& text) {
    std::vector<json> values;
    std::size_t start = 0;
    while (true) {
        std::size_t comma = text.find(',', start);
        std::string item = text.substr(start, comma == std::string::npos ? comma : comma - start);
        if (item.empty())
            throw bad(spec, "empty value in the list; expected KEY=V1,V2,... e.g. "
                            "bus.clock_mhz=33,66");
        values.push_back(parse_value(item));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return values;
}

}  // namespace

Axis parse_axis(const std::string& spec) {
    std::size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
        throw bad(spec, "expected KEY=V1,V2,... or KEY=A:B:STEP, e.g. packet.size=60:1500:4");
    Axis axis;
    axis.key = spec.substr(0, eq);
    std::string text = spec.substr(eq + 1);
    // A colon marks a range unless the value is a quoted JSON string.
    bool range = text.find(':') != std::string::npos && text.find('"') == std::string::npos;
    axis.values = range ? parse_range(spec, text) : parse_list(spec, text);
    return axis;
}

void check_key_known(const std::string& key, const std::string& spec) {
    // "masters.1.enabled" is the schema's "masters[].enabled".
    static const std::regex index(R"(\.[0-9]+(?=\.|$))");
    std::string schema_path = std::regex_replace(key, index, "[]");
    if (!find_param(schema_path))
        throw UsageError(spec + ": unknown scenario key \"" + key +
                         "\"; expected a key listed by 'pcisim schema', e.g. bus.clock_mhz");
}

void check_axis_paths(const std::vector<Axis>& axes, const json& base) {
    auto dotted = [](const std::string& key) {
        return std::regex_replace(key, std::regex(R"(\[([0-9]+)\])"), ".$1");
    };
    for (const auto& axis : axes) {
        const std::string key = dotted(axis.key);
        bool inside_another = false;
        for (const auto& other : axes) {
            const std::string outer = dotted(other.key);
            inside_another = inside_another || (key.size() > outer.size() &&
                                                key.compare(0, outer.size(), outer) == 0 &&
                                                key[outer.size()] == '.');
        }
        if (inside_another) continue;
        const json* node = &base;
        std::string walked;
        std::stringstream parts(key);
        for (std::string part; std::getline(parts, part, '.');) {
            const bool index = !part.empty() && std::all_of(part.begin(), part.end(), ::isdigit);
            if (index && (!node || !node->is_array()))
                throw UsageError("--vary " + axis.key + ": " + walked + " is no list in the "
                                 "scenario, so it has no item " + part + "; expected a key of the "
                                 "scenario (add the list with --set, or vary the whole list)");
            if (index) {
                const std::size_t i = part.size() > 9 ? SIZE_MAX : std::stoul(part);
                if (i >= node->size())
                    throw UsageError("--vary " + axis.key + ": index " + part +
                                     " is past the end of " + walked + " (" +
                                     std::to_string(node->size()) + " items in the scenario); "
                                     "expected an index below " + std::to_string(node->size()));
                node = &(*node)[i];
            } else {
                node = node && node->is_object() && node->contains(part) ? &(*node)[part] : nullptr;
            }
            walked += (walked.empty() ? "" : ".") + part;
        }
    }
}

Shard parse_shard(const std::string& spec) {
    static const std::regex form(R"(([0-9]+)/([0-9]+))");
    std::smatch m;
    Shard s;
    // Nine digits at most, so stoul cannot overflow.
    if (std::regex_match(spec, m, form) && m[1].length() <= 9 && m[2].length() <= 9) {
        s.index = std::stoul(m[1]);
        s.count = std::stoul(m[2]);
        if (s.count > 0 && s.index < s.count) return s;
    }
    throw UsageError("--shard " + spec + ": expected I/N with 0 <= I < N, e.g. --shard 0/4");
}

std::size_t point_count(const std::vector<Axis>& axes) {
    std::size_t n = 1;
    for (const auto& a : axes)
        if (__builtin_mul_overflow(n, a.values.size(), &n))
            throw UsageError("--vary: the product of the axes has more than " +
                             std::to_string(std::numeric_limits<std::size_t>::max()) +
                             " points; expected far fewer values");
    return n;
}

std::size_t shard_point_count(std::size_t total, const Shard& shard) {
    return total > shard.index ? (total - shard.index - 1) / shard.count + 1 : 0;
}

void check_not_set(const std::vector<Axis>& axes, const std::vector<std::string>& sets) {
    // "masters[1].bytes" and "masters.1.bytes" are one key.
    auto dotted = [](std::string key) {
        key = std::regex_replace(key, std::regex(R"(\[([0-9]+)\])"), ".$1");
        return key;
    };
    auto within = [](const std::string& key, const std::string& outer) {
        return key.size() > outer.size() && key.compare(0, outer.size(), outer) == 0 &&
               key[outer.size()] == '.';
    };
    for (const auto& set : sets) {
        std::string set_key = dotted(set.substr(0, set.find('=')));
        for (const auto& axis : axes) {
            std::string varied = dotted(axis.key);
            if (set_key == varied || within(set_key, varied) || within(varied, set_key))
                throw UsageError("--set " + set + ": \"" + set_key + "\" is also varied (--vary " +
                                 axis.key + "=...), so the base scenario would name a value no "
                                 "point has; expected each key either set or varied");
        }
    }
}

Point point_at(const std::vector<Axis>& axes, std::size_t index) {
    Point p{index, std::vector<json>(axes.size())};
    for (std::size_t i = axes.size(); i-- > 0;) {
        const auto& vals = axes[i].values;
        p.values[i] = vals[index % vals.size()];
        index /= vals.size();
    }
    return p;
}

std::vector<std::string> point_overrides(const std::vector<Axis>& axes, const Point& p) {
    std::vector<std::string> sets;
    for (std::size_t i = 0; i < axes.size(); ++i) {
        // As JSON, so that parse_value gives back exactly this value (a string stays a string).
        sets.push_back(axes[i].key + "=" + p.values[i].dump());
    }
    return sets;
}

std::vector<Point> shard_points(const std::vector<Axis>& axes, const Shard& shard) {
    std::vector<Point> points;
    const std::size_t total = point_count(axes);
    points.reserve(shard_point_count(total, shard));
    for (std::size_t i = shard.index; i < total; i += shard.count)
        points.push_back(point_at(axes, i));
    return points;
}

}  // namespace pcisim::sweep
