// The points of a sweep: the cartesian product of the --vary axes, in a fixed order (the last
// axis varies fastest), optionally thinned to one shard.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pcisim::sweep {

// Bad command-line input for a sweep; the message is one line naming the key, the value and the
// expected form.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Axis {
    std::string key;                    // dotted scenario key, as for --set
    std::vector<nlohmann::json> values;
};

// Parses "KEY=V1,V2,..." (each value JSON or a plain string) or "KEY=A:B:STEP" (A, A+STEP, ...
// up to and including B; integers stay integers).  Throws UsageError.
Axis parse_axis(const std::string& spec);

// Throws UsageError unless `key` names a scenario key in the parameter schema.
void check_key_known(const std::string& key, const std::string& spec);
// Throws UsageError when an axis's key cannot be a key of `base` (the resolved scenario) at any
// point: a list index past the end of its list (nics.3.model with two NICs), an index into what
// is no list.  Every point would fail alike, so the sweep is refused before the first.  An
// axis inside another axis's key (one varies nics, another nics.1.model) is left to the points.
void check_axis_paths(const std::vector<Axis>& axes, const nlohmann::json& base);

struct Shard {
    std::size_t index = 0, count = 1;  // points i with i % count == index
};
// Parses "I/N" with 0 <= I < N.  Throws UsageError.
Shard parse_shard(const std::string& spec);

struct Point {
    std::size_t index;                       // position in the full product
    std::vector<nlohmann::json> values;      // one per axis
};

// Points in the whole product.  Throws UsageError when that does not fit in a size_t.
std::size_t point_count(const std::vector<Axis>& axes);
// Points of one shard of a product of `total` points.
std::size_t shard_point_count(std::size_t total, const Shard& shard);
// Throws UsageError when a --set assignment sets a varied key (or a key inside it, or the
// object holding it): the base scenario in the output would show a value that no point has.
void check_not_set(const std::vector<Axis>& axes, const std::vector<std::string>& sets);
// The point with this index in the full product.
Point point_at(const std::vector<Axis>& axes, std::size_t index);
// The "--set" assignments that make a point.
std::vector<std::string> point_overrides(const std::vector<Axis>& axes, const Point& p);
// The points of one shard, in index order.
std::vector<Point> shard_points(const std::vector<Axis>& axes, const Shard& shard);

}  // namespace pcisim::sweep
