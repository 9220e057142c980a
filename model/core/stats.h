// Statistics declared once (in the spirit of gem5's statistics groups): a module declares each
// statistic it reports with its key, unit, description and where its value comes from, in a
// StatGroup over the object the values are read from.  The one declaration gives both the
// results (written through a StatSink: run/stats_json.h makes the results JSON of it) and the
// metrics reference (metrics(): docs/metrics-reference.md, `pcisim metrics`), so a key cannot be
// reported without being described or described without being reported.  Nothing here knows
// JSON: devices declare, run/ writes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/metric_spec.h"

namespace pcisim {

// One statistic's value as the results report it: nothing (null: not measurable in this run),
// a flag, a count, a signed number, a quantity, or a name.
class StatValue {
public:
    enum class Kind { Null, Bool, Unsigned, Signed, Real, Text };

    StatValue() = default;
    StatValue(std::nullptr_t) {}
    StatValue(bool b) : kind_(Kind::Bool), u_(b) {}
    template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
    StatValue(I i)
        : kind_(std::is_signed_v<I> ? Kind::Signed : Kind::Unsigned),
          u_(static_cast<std::uint64_t>(i)), s_(static_cast<std::int64_t>(i)) {}
    StatValue(double d) : kind_(Kind::Real), d_(d) {}
    StatValue(std::optional<double> d) : kind_(d ? Kind::Real : Kind::Null), d_(d ? *d : 0) {}
    StatValue(std::string t) : kind_(Kind::Text), t_(std::move(t)) {}
    StatValue(const char* t) : kind_(Kind::Text), t_(t) {}

    Kind kind() const { return kind_; }
    bool as_bool() const { return u_ != 0; }
    std::uint64_t as_unsigned() const { return u_; }
    std::int64_t as_signed() const { return s_; }
    double as_real() const { return d_; }
    const std::string& as_text() const { return t_; }

private:
    Kind kind_ = Kind::Null;
    std::uint64_t u_ = 0;
    std::int64_t s_ = 0;
    double d_ = 0;
    std::string t_;
};

// Where declared statistics are written: values at keys relative to the object being written
// (dotted keys reach into nested objects), lists of values, lists of objects, nested objects.
class StatSink {
public:
    virtual ~StatSink() = default;
    virtual void value(const std::string& key, const StatValue& v) = 0;
    virtual void values(const std::string& key, const std::vector<StatValue>& v) = 0;
    virtual void begin_object(const std::string& key) = 0;
    virtual void end_object() = 0;
    virtual void begin_list(const std::string& key) = 0;
    virtual void begin_item() = 0;
    virtual void end_item() = 0;
    virtual void end_list() = 0;
};

// The statistics read from a T.  Declared once, in documentation order.  A group placed inside
// another is shared, not copied, so declaring a deep tree of groups stays cheap (a sweep point
// builds them in each worker).
template <class T>
class StatGroup {
public:
    // A statistic at `key` ("tx_frames", "mean_per_packet_ns.wire").
    StatGroup& stat(std::string key, std::string unit, std::string description,
                    std::function<StatValue(const T&)> get) {
        Entry e;
        e.row = {key, std::move(unit), std::move(description)};
        e.write = [key, get = std::move(get)](const T& x, StatSink& out) { out.value(key, get(x)); };
        entries_.push_back(std::move(e));
        return *this;
    }
    // A list of values at `key` (its reference row is "key[]").
    StatGroup& values(std::string key, std::string unit, std::string description,
                      std::function<std::vector<StatValue>(const T&)> get) {
        Entry e;
        e.row = {key + "[]", std::move(unit), std::move(description)};
        e.write = [key, get = std::move(get)](const T& x, StatSink& out) { out.values(key, get(x)); };
        entries_.push_back(std::move(e));
        return *this;
    }
    // `inner`'s statistics of the U that `get` gives, as an object at `key` ("" : in this
    // object itself), and only when `get` gives one.  `note` is added to each description.
    template <class U>
    StatGroup& group(std::string key, const StatGroup<U>& inner,
                     std::function<std::optional<U>(const T&)> get, std::string note = "") {
        auto shared = std::make_shared<const StatGroup<U>>(inner);
        Entry e;
        e.nested = [shared, key, note] {
            std::vector<MetricSpec> rows;
            for (const MetricSpec& m : shared->metrics())
                rows.push_back({key.empty() ? m.key : key + "." + m.key, m.unit, m.meaning + note});
            return rows;
        };
        e.write = [key, shared, get = std::move(get)](const T& x, StatSink& out) {
            std::optional<U> u = get(x);
            if (!u) return;
            if (key.empty()) return shared->write(*u, out);
            out.begin_object(key);
            shared->write(*u, out);
            out.end_object();
        };
        entries_.push_back(std::move(e));
        return *this;
    }
    // A list at `key` of objects, one per U that `items` gives, each with `inner`'s
    // statistics (reference rows "key[].stat"); only when `items` gives a list.
    template <class U>
    StatGroup& list(std::string key, const StatGroup<U>& inner,
                    std::function<std::optional<std::vector<U>>(const T&)> items) {
        auto shared = std::make_shared<const StatGroup<U>>(inner);
        Entry e;
        e.nested = [shared, key] {
            std::vector<MetricSpec> rows;
            for (const MetricSpec& m : shared->metrics())
                rows.push_back({key + "[]." + m.key, m.unit, m.meaning});
            return rows;
        };
        e.write = [key, shared, items = std::move(items)](const T& x, StatSink& out) {
            std::optional<std::vector<U>> list = items(x);
            if (!list) return;
            out.begin_list(key);
            for (const U& u : *list) {
                out.begin_item();
                shared->write(u, out);
                out.end_item();
            }
            out.end_list();
        };
        entries_.push_back(std::move(e));
        return *this;
    }
    // An object at `key` with a statistic per name in `names` (reference rows "key.NAME", each
    // described by `describe(NAME)`), the values `get` gives in the names' order: a breakdown
    // by the members of an enumeration, an empty object when `get` gives no values.
    StatGroup& breakdown(std::string key, std::vector<std::string> names, std::string unit,
                         std::function<std::string(const std::string&)> describe,
                         std::function<std::vector<StatValue>(const T&)> get) {
        Entry e;
        e.nested = [key, names, unit = std::move(unit), describe = std::move(describe)] {
            std::vector<MetricSpec> rows;
            for (const std::string& name : names) rows.push_back({key + "." + name, unit, describe(name)});
            return rows;
        };
        e.write = [key, names, get = std::move(get)](const T& x, StatSink& out) {
            const std::vector<StatValue> v = get(x);
            out.begin_object(key);
            for (std::size_t i = 0; i < v.size() && i < names.size(); ++i) out.value(names[i], v[i]);
            out.end_object();
        };
        entries_.push_back(std::move(e));
        return *this;
    }
    // A row of the reference for a key something other than this group writes (a key the
    // caller adds around the group's own).
    StatGroup& described(std::string key, std::string unit, std::string description) {
        Entry e;
        e.row = {std::move(key), std::move(unit), std::move(description)};
        entries_.push_back(std::move(e));
        return *this;
    }

    void write(const T& x, StatSink& out) const {
        for (const Entry& e : entries_)
            if (e.write) e.write(x, out);
    }
    // The reference rows, keys relative to the group.
    std::vector<MetricSpec> metrics() const {
        std::vector<MetricSpec> all;
        for (const Entry& e : entries_) {
            if (!e.nested) {
                all.push_back(e.row);
                continue;
            }
            std::vector<MetricSpec> rows = e.nested();
            all.insert(all.end(), rows.begin(), rows.end());
        }
        return all;
    }

private:
    struct Entry {
        MetricSpec row;                                  // a statistic's own row
        std::function<std::vector<MetricSpec>()> nested;  // or a placed group's rows
        std::function<void(const T&, StatSink&)> write;
    };
    std::vector<Entry> entries_;
};

}  // namespace pcisim
