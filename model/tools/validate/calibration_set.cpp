#include "tools/validate/calibration_set.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <utility>

#include "platform/pci_bus.h"
#include "run/scenario.h"
#include "core/data_dir.h"
#include "core/ethernet.h"

namespace pcisim::validate {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

json read_json(const fs::path& p) {
    std::ifstream in(p);
    if (!in) throw std::runtime_error(p.string() + ": cannot be read");
    return json::parse(in);
}

double wire_pps(double size) {
    return kGigabitBytesPerSecond / (std::max(size, double{kMinFrameBytes}) + kWireOverheadBytes);
}

std::string scenario_file(const std::string& name) {
    return data_path("scenarios/" + name + ".json").string();
}

// Bus byte rate B of a scenario (width/8 x clock), for k in byte times.
double bus_rate(const std::string& scenario, const std::vector<std::string>& sets) {
    BusConfig bus = BusConfig::from(Scenario::load(scenario_file(scenario), sets), "bus");
    return bus.width_bits / 8.0 * bus.clock_mhz * 1e6;
}

const json& find_by(const json& list, const std::string& key, const std::string& id) {
    for (const auto& item : list)
        if (item.value(key, "") == id) return item;
    throw std::runtime_error("calibration case " + id + " is not in the measurements");
}

std::string tier_of(const json& c) { return c.value("tier", std::string("stock")); }

std::vector<std::string> sets_of(const json& c) {
    return c.value("set", std::vector<std::string>{});
}

SimPoint point(const json& c, double size) {
    return {c["scenario"].get<std::string>(), sets_of(c), static_cast<int>(size)};
}

// A receive case's point: the same run, read for the frames received (wire_source.*).
SimPoint received(const json& c) {
    SimPoint p = point(c, c["size"].get<double>());
    p.result = "/rx/rx_pps";
    return p;
}

// The measured (size, pps) pairs of a curve case.
std::vector<std::pair<double, double>> curve_points(const json& m, const json& c) {
    const json& curve = find_by(m["curves"], "id", c["id"]);
    const json& pts = c.contains("ring") ? curve["points_by_ring"][c["ring"].get<std::string>()]
                                         : curve["points"];
    std::vector<std::pair<double, double>> out;
    for (const auto& p : pts) out.push_back({p[0].get<double>(), p[1].get<double>()});
    return out;
}

// pps of a formula case at size s: B / (s + k + k_step * floor(s / step)), never above the
// wire, and the wire itself from `valid_below` on.
double formula_pps(const json& c, double s) {
    if (c.contains("valid_below") && s >= c["valid_below"].get<double>()) return wire_pps(s);
    double k = c["k"].get<double>();
    if (c.contains("step_bytes"))
        k += c["k_step"].get<double>() * std::floor(s / c["step_bytes"].get<double>());
    return std::min(c["B"].get<double>() / (s + k), wire_pps(s));
}

double level_pps(const json& m, const json& c) {
    const json& l = find_by(m["levels"], "id", c["id"]);
    if (l.contains("pps_about")) return l["pps_about"];
    if (l.contains("pps_max")) return l["pps_max"];
    double sum = 0;
    for (const auto& v : l["pps"]) sum += v.get<double>();
    return sum / static_cast<double>(l["pps"].size());
}

// The measured rate of a point case: the reference point whose fields are all those the case
// names ("point": {"kernel": ..., "driver": ..., "ring": ..., "mode": ...}).
double point_pps(const json& m, const json& c) {
    for (const auto& p : m["points"]) {
        bool match = true;
        for (const auto& [key, value] : c["point"].items())
            match = match && p.contains(key) && p[key] == value;
        if (match) return p.contains("pps") ? p["pps"].get<double>() : p["pps_about"].get<double>();
    }
    throw std::runtime_error("calibration case " + c["id"].get<std::string>() +
                             ": no reference point matches " + c["point"].dump());
}

// Least squares 1/pps = a + b s; returns a (seconds at s = 0).
double intercept(const std::vector<double>& s, const std::vector<double>& inv) {
    double n = static_cast<double>(s.size()), sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < s.size(); ++i)
        sx += s[i], sy += inv[i], sxx += s[i] * s[i], sxy += s[i] * inv[i];
    double b = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    return (sy - b * sx) / n;
}

std::vector<int> staircase_sizes(const json& c) {
    std::vector<int> sizes;
    for (const auto& step : c["steps_at"]) {
        int at = step.get<int>();
        for (int s = at - 8; s <= at + 8; ++s) sizes.push_back(s);
    }
    return sizes;
}

std::vector<int> drop_sizes(const json& c) {
    std::vector<int> sizes;
    for (int s = c["below"].get<int>(); s <= c["above"].get<int>(); s += 4) sizes.push_back(s);
    return sizes;
}

// A check's identity and its two values; the rest is filled in by the kind of check.
Check make_check(std::string case_id, std::string kind, std::string scenario, double size,
                 double measured, double simulated) {
    Check k;
    k.case_id = std::move(case_id);
    k.kind = std::move(kind);
    k.scenario = std::move(scenario);
    k.size = size;
    k.measured = measured;
    k.simulated = simulated;
    return k;
}

}  // namespace

std::string SimPoint::key() const {
    std::string k = scenario + "|" + std::to_string(size);
    for (const auto& s : sets) k += "|" + s;
    if (result != "/tx_pps") k += "|" + result;
    return k;
}

CalibrationSet CalibrationSet::load(const std::string& file) {
    CalibrationSet set;
    json doc = read_json(file);
    fs::path root = fs::path(file).parent_path().parent_path();
    for (const auto& [tier, path] : doc["measurements"].items()) {
        set.measurements_[tier] = read_json(root / path.get<std::string>());
        set.tier_names_.push_back(tier);
        set.tier_files_[tier] = path.get<std::string>();
    }
    set.default_tiers_ = doc.value("default_tiers", set.tier_names_);
    for (const auto& t : set.default_tiers_)
        if (!set.tier_files_.count(t))
            throw std::runtime_error("default_tiers: " + t + " has no measurements file");
    // The default tiers first, in their order, then the others (the JSON object's keys come
    // sorted).
    std::vector<std::string> ordered = set.default_tiers_;
    for (const auto& t : set.tier_names_)
        if (std::find(ordered.begin(), ordered.end(), t) == ordered.end()) ordered.push_back(t);
    set.tier_names_ = ordered;
    set.cases_ = doc["cases"];
    for (const auto& c : set.cases_)
        if (!set.measurements_.contains(tier_of(c)))
            throw std::runtime_error("calibration case " + c["id"].get<std::string>() +
                                     ": tier " + tier_of(c) + " has no measurements file");
    set.predictions_ = doc.value("predictions", json::object());
    const json& t = doc["tolerances"];
    set.tol_.point_pct = t.value("point_pct", set.tol_.point_pct);
    set.tol_.median_pct = t.value("median_pct", set.tol_.median_pct);
    set.tol_.overhead_us = t.value("overhead_us", set.tol_.overhead_us);
    set.tol_.step_height_pct = t.value("step_height_pct", set.tol_.step_height_pct);
    set.tol_.step_position_bytes = t.value("step_position_bytes", set.tol_.step_position_bytes);
    set.tol_.crossover_pct = t.value("crossover_pct", set.tol_.crossover_pct);
    set.tol_.wire_pct = t.value("wire_pct", set.tol_.wire_pct);
    return set;
}

const json& CalibrationSet::measurements(const json& c) const {
    return measurements_.at(tier_of(c));
}

bool CalibrationSet::has_case(const std::string& id) const {
    for (const auto& c : cases_)
        if (c["id"] == id) return true;
    return false;
}

std::vector<SimPoint> CalibrationSet::points(const std::string& id) const {
    std::vector<SimPoint> out;
    for (const auto& c : cases_) {
        if (!id.empty() && c["id"] != id) continue;
        std::string kind = c["kind"];
        if (kind == "curve") {
            for (const auto& [s, pps] : curve_points(measurements(c), c)) out.push_back(point(c, s));
        } else if (kind == "formula" || kind == "overhead" || kind == "crossover") {
            for (const auto& s : c["sizes"]) out.push_back(point(c, s.get<double>()));
        } else if (kind == "staircase") {
            for (int s : staircase_sizes(c)) out.push_back(point(c, s));
        } else if (kind == "drop") {
            for (int s : drop_sizes(c)) out.push_back(point(c, s));
        } else if (kind == "level") {
            out.push_back(point(c, 60));
        } else if (kind == "point") {
            out.push_back(point(c, measurements(c)["size"].get<double>()));
        } else if (kind == "wire") {
            out.push_back(point(c, c["size"].get<double>()));
        } else if (kind == "receive_wire") {
            out.push_back(received(c));
        } else {
            throw std::runtime_error("calibration case " + c["id"].get<std::string>() +
                                     ": unknown kind " + kind);
        }
    }
    return out;
}

std::vector<Check> CalibrationSet::evaluate(const PpsLookup& pps, const std::string& id) const {
    std::vector<Check> out;
    for (const auto& c : cases_) {
        if (!id.empty() && c["id"] != id) continue;
        std::string kind = c["kind"], cid = c["id"], scenario = c["scenario"];
        std::size_t first = out.size();
        auto rate_check = [&](double size, double measured) {
            Check k = make_check(cid, kind, scenario, size, measured, pps(point(c, size)));
            k.unit = "pps";
            k.error = 100 * (k.simulated - measured) / measured;
            k.counts_in_median = true;
            k.ok = std::fabs(k.error) <= tol_.point_pct;
            return k;
        };
        if (kind == "curve") {
            for (const auto& [s, m] : curve_points(measurements(c), c)) {
                out.push_back(rate_check(s, m));
                if (c.contains("ring")) out.back().note = "ring " + c["ring"].get<std::string>();
                if (c.contains("known_miss")) {
                    const json& miss = c["known_miss"];
                    for (const auto& size : miss["sizes"])
                        if (size.get<double>() == s) out.back().known_miss = miss["see"];
                }
            }
        } else if (kind == "formula") {
            for (const auto& s : c["sizes"])
                out.push_back(rate_check(s.get<double>(), formula_pps(c, s.get<double>())));
        } else if (kind == "level") {
            out.push_back(rate_check(60, level_pps(measurements(c), c)));
        } else if (kind == "point") {
            const json& m = measurements(c);
            out.push_back(rate_check(m["size"].get<double>(), point_pps(m, c)));
            out.back().note = c.value("note", std::string());
        } else if (kind == "overhead") {
            std::vector<double> sizes, inv;
            for (const auto& s : c["sizes"]) {
                sizes.push_back(s.get<double>());
                inv.push_back(1.0 / pps(point(c, s.get<double>())));
            }
            const json& row = find_by(measurements(c)["extrapolated_overheads"]["rows"], "case", cid);
            Check k = make_check(cid, kind, scenario, 0, row["overhead_us"].get<double>(),
                                 intercept(sizes, inv) * 1e6);
            k.unit = "us";
            k.error = k.simulated - k.measured;
            k.ok = std::fabs(k.error) <= tol_.overhead_us;
            k.note = "1/pps extrapolated to s = 0";
            out.push_back(k);
        } else if (kind == "staircase") {
            double B = c["B"], k_step = c["k_step"];
            for (const auto& at_j : c["steps_at"]) {
                int at = at_j.get<int>();
                // k(s) = B/pps - s; the step is where k jumps by more than half the step.
                int found = -1;
                double before = 0, after = 0;
                for (int s = at - 7; s <= at + 8; ++s) {
                    double k0 = B / pps(point(c, s - 1)) - (s - 1), k1 = B / pps(point(c, s)) - s;
                    if (found < 0 && k1 - k0 > k_step / 2) found = s, before = k0, after = k1;
                }
                Check pos = make_check(cid, "staircase step position", scenario, 0,
                                       static_cast<double>(at), static_cast<double>(found));
                pos.unit = "bytes";
                pos.error = found - at;
                pos.ok = found >= 0 && std::fabs(pos.error) <= tol_.step_position_bytes;
                pos.note = found < 0 ? "no step found" : "";
                out.push_back(pos);
                Check h = make_check(cid, "staircase step height", scenario,
                                     static_cast<double>(at), k_step, after - before);
                h.unit = "byte-times";
                h.error = 100 * (h.simulated - k_step) / k_step;
                h.ok = found >= 0 && std::fabs(h.error) <= tol_.step_height_pct;
                h.note = "k after minus k before, B = " + std::to_string(static_cast<long>(B));
                out.push_back(h);
            }
        } else if (kind == "drop") {
            double B = bus_rate(scenario, sets_of(c));
            double lo = c["below"], hi = c["above"];
            double k_lo = B / pps(point(c, lo)) - lo, k_hi = B / pps(point(c, hi)) - hi;
            // A drop: the rate above falls short of B/(s + k) with the k from below by more
            // than 2 %, and not because the wire limits it there.
            bool wire_limited = pps(point(c, hi)) >= wire_pps(hi) * (1 - tol_.wire_pct / 100);
            bool present = !wire_limited && (k_hi - k_lo) / (hi + k_hi) > 0.02;
            Check k = make_check(cid, kind, scenario, 256, c["present"].get<bool>() ? 1.0 : 0.0,
                                 present ? 1.0 : 0.0);
            k.unit = "present";
            k.error = k.simulated - k.measured;
            k.ok = present == c["present"].get<bool>();
            k.note = std::string(wire_limited ? "wire-limited above; " : "") + "k " +
                     std::to_string(static_cast<int>(k_lo)) + " at " +
                     std::to_string(static_cast<int>(lo)) + " B -> " +
                     std::to_string(static_cast<int>(k_hi)) + " at " +
                     std::to_string(static_cast<int>(hi)) + " B (byte times)";
            out.push_back(k);
        } else if (kind == "crossover") {
            // The smallest size from which every larger one is at wire speed.
            std::vector<double> sizes;
            for (const auto& s : c["sizes"]) sizes.push_back(s.get<double>());
            double from = -1;
            for (auto it = sizes.rbegin(); it != sizes.rend(); ++it) {
                if (pps(point(c, *it)) < wire_pps(*it) * (1 - tol_.wire_pct / 100)) break;
                from = *it;
            }
            Check k = make_check(cid, kind, scenario, 0, c["size"].get<double>(), from);
            k.unit = "bytes";
            k.error = from < 0 ? 100 : 100 * (from - k.measured) / k.measured;
            k.ok = from >= 0 && std::fabs(k.error) <= tol_.crossover_pct;
            k.note = "wire speed from this size on";
            out.push_back(k);
        } else if (kind == "wire") {
            double s = c["size"];
            Check k = make_check(cid, kind, scenario, s, wire_pps(s), pps(point(c, s)));
            k.unit = "pps";
            k.error = 100 * (k.simulated - k.measured) / k.measured;
            k.ok = std::fabs(k.error) <= tol_.wire_pct;
            k.note = "wire limit 125e6/(s+24)";
            out.push_back(k);
        } else if (kind == "receive_wire") {
            // An observation: frames of this size received at full wire speed.
            double s = c["size"];
            Check k = make_check(cid, kind, scenario, s, wire_pps(s), pps(received(c)));
            k.unit = "pps";
            k.error = 100 * (k.simulated - k.measured) / k.measured;
            k.ok = std::fabs(k.error) <= tol_.wire_pct;
            k.note = "received (rx.rx_pps) at the wire limit 125e6/(s+24)";
            out.push_back(k);
        }
        for (std::size_t i = first; i < out.size(); ++i) out[i].tier = tier_of(c);
    }
    return out;
}

Summary CalibrationSet::summarize(const std::vector<Check>& checks,
                                  const std::string& tier) const {
    Summary s;
    std::vector<double> errors;
    for (const auto& c : checks) {
        if (!tier.empty() && c.tier != tier) continue;
        ++s.checks;
        if (!c.ok) ++s.failed;
        if (!c.ok && !c.known_miss.empty()) ++s.known_misses;
        if (c.ok && !c.known_miss.empty()) ++s.stale_known_misses;
        if (c.counts_in_median) errors.push_back(std::fabs(c.error));
    }
    s.points = errors.size();
    if (!errors.empty()) {
        std::sort(errors.begin(), errors.end());
        std::size_t n = errors.size();
        s.median_abs_pct = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
        s.max_abs_pct = errors.back();
    }
    bool median_ok = errors.empty() || s.median_abs_pct <= tol_.median_pct;
    s.ok = s.failed == s.known_misses && s.stale_known_misses == 0 && median_ok;
    s.strict_ok = s.ok && s.failed == 0;
    return s;
}

}  // namespace pcisim::validate
