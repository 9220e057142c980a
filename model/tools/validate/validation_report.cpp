#include "tools/validate/validation_report.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>

#include "run/scenario.h"
#include "core/data_dir.h"

namespace pcisim::validate {

using nlohmann::json;

namespace {

void add_grid(std::vector<Prediction>& grid, const std::string& group, const json& scenarios,
              const json& variants, const json& sizes) {
    for (const auto& sc : scenarios) {
        std::string name = sc;
        std::string model =
            Scenario::load(data_path("scenarios/" + name + ".json").string()).text("nic.model");
        for (const auto& v : variants) {
            if (v.contains("needs_model") && model != v["needs_model"]) continue;
            for (const auto& size : sizes) {
                Prediction p;
                p.group = group;
                p.scenario = name;
                p.variant = v["name"];
                p.point = {name, v["set"].get<std::vector<std::string>>(), size.get<int>()};
                grid.push_back(p);
            }
        }
    }
}

}  // namespace

std::vector<Prediction> prediction_grid(const json& predictions) {
    std::vector<Prediction> grid;
    if (predictions.empty()) return grid;
    add_grid(grid, "drivers", predictions["scenarios"], predictions["variants"],
             predictions["sizes"]);
    if (predictions.contains("topologies")) {
        const json& t = predictions["topologies"];
        json variants = json::array();
        for (const auto& name : t["variants"]) {
            auto it = std::find_if(predictions["variants"].begin(), predictions["variants"].end(),
                                   [&](const json& v) { return v["name"] == name; });
            if (it == predictions["variants"].end())
                throw std::runtime_error("predictions.topologies: variant " + name.dump() +
                                         " is not in predictions.variants");
            variants.push_back(*it);
        }
        add_grid(grid, "topologies", t["scenarios"], variants, t["sizes"]);
    }
    return grid;
}

namespace {

std::string number(double v, int precision) {
    std::ostringstream o;
    o << std::fixed << std::setprecision(precision) << v;
    std::string text = o.str();
    // A small negative value rounds to "-0.0": print it as 0.
    if (text[0] == '-' && text.find_first_not_of("-0.") == std::string::npos) text.erase(0, 1);
    return text;
}

std::string value(const Check& c, double v) {
    if (c.unit == "pps") return number(v, 0);
    if (c.unit == "us") return number(v, 3);
    if (c.unit == "present") return v > 0.5 ? "yes" : "no";
    return number(v, 0);
}

std::string error(const Check& c) {
    if (c.unit == "pps" || c.unit == "byte-times") return number(c.error, 1) + " %";
    if (c.unit == "us") return number(c.error, 3) + " us";
    if (c.unit == "present") return c.ok ? "-" : "wrong";
    if (c.kind == "crossover") return number(c.error, 1) + " %";
    return number(c.error, 0) + " B";
}

std::string summary_line(const Summary& s, const Tolerances& tol) {
    std::ostringstream o;
    o << s.checks << " checks, " << s.failed << " outside tolerance"
      << (s.known_misses ? " (" + std::to_string(s.known_misses) + " known)" : "")
      << "; rate points: "
      << s.points << ", median |error| " << number(s.median_abs_pct, 2) << " % (target <= "
      << tol.median_pct << " %), max " << number(s.max_abs_pct, 2) << " % (each <= "
      << tol.point_pct << " %): " << (s.ok ? "PASS" : "FAIL");
    return o.str();
}

}  // namespace

bool all_pass(const std::vector<TierResult>& tiers, bool strict) {
    return std::all_of(tiers.begin(), tiers.end(), [&](const TierResult& t) {
        return !t.in_verdict || (strict ? t.summary.strict_ok : t.summary.ok);
    });
}

namespace {

std::string count_of(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string verdict(const std::vector<TierResult>& tiers, bool strict) {
    std::size_t failed = 0, known = 0, stale = 0;
    std::vector<std::string> medians;
    for (const auto& t : tiers) {
        if (!t.in_verdict) continue;
        failed += t.summary.failed;
        known += t.summary.known_misses;
        stale += t.summary.stale_known_misses;
        bool others_ok = t.summary.failed == t.summary.known_misses &&
                         t.summary.stale_known_misses == 0;
        if (!t.summary.ok && others_ok) medians.push_back(t.tier);
    }
    std::string known_text = count_of(known, "known miss", "known misses");
    if (all_pass(tiers, strict)) return "PASS, " + known_text;
    std::vector<std::string> why;
    if (failed > known) why.push_back(count_of(failed - known, "new miss", "new misses"));
    if (strict && known) why.push_back(known_text + " (--strict)");
    if (stale)
        why.push_back(count_of(stale, "known miss is", "known misses are") +
                      " within tolerance now (stale: update scenarios/calibration.json and "
                      "docs/calibration.md)");
    for (const auto& tier : medians) why.push_back("the median error of " + tier + " is too large");
    std::string text = "FAIL: ";
    for (std::size_t i = 0; i < why.size(); ++i) text += (i ? "; " : "") + why[i];
    if (!strict && known && failed > known) text += " (and " + known_text + ")";
    return text;
}

namespace {

std::string tier_title(const TierResult& t) {
    const std::string name = t.tier == "stock"      ? "stock driver"
                             : t.tier == "variants" ? "driver variants"
                             : t.tier == "smp"      ? "where the software runs"
                                                    : t.tier;
    return name + " (" + t.file + ")";
}

// A tier reported beside the verdict says so in its summary line.
std::string outside_verdict(const TierResult& t) {
    return t.in_verdict ? "" : " (reported, not in the verdict: `--tier " + t.tier + "` checks it)";
}

}  // namespace

std::string table_text(const std::vector<Check>& checks, const std::vector<TierResult>& tiers,
                       const Tolerances& tol, bool strict) {
    std::ostringstream o;
    for (const auto& t : tiers) {
        o << "== " << tier_title(t) << "\n";
        o << std::left << std::setw(44) << "case" << std::setw(24) << "scenario" << std::right
          << std::setw(6) << "size" << std::setw(12) << "measured" << std::setw(12)
          << "simulated" << std::setw(12) << "error" << "  \n";
        for (const auto& c : checks) {
            if (c.tier != t.tier) continue;
            std::string name = c.case_id + (c.kind.rfind("staircase", 0) == 0
                                                ? " (" + c.kind.substr(10) + ")"
                                                : "");
            o << std::left << std::setw(44) << name.substr(0, 43) << std::setw(24)
              << c.scenario.substr(0, 23) << std::right << std::setw(6)
              << (c.size > 0 ? number(c.size, 0) : "") << std::setw(12) << value(c, c.measured)
              << std::setw(12) << value(c, c.simulated) << std::setw(12) << error(c) << "  "
              << (c.ok ? "ok" : c.known_miss.empty() ? "OUT" : "OUT (known miss)")
              << (c.note.empty() ? "" : "  " + c.note) << "\n";
        }
        o << t.tier << ": " << summary_line(t.summary, tol) << outside_verdict(t) << "\n\n";
    }
    // Name each miss (and each stale known miss) under the verdict, so that a documented one
    // reads as such and a new one stands out.
    auto counts = [&](const Check& c) {
        for (const auto& t : tiers)
            if (t.tier == c.tier) return t.in_verdict;
        return true;
    };
    for (const auto& c : checks) {
        if (c.ok && c.known_miss.empty()) continue;
        o << (c.ok ? "within tolerance, documented as a known miss: "
              : counts(c) ? "outside tolerance: "
                          : "outside tolerance (reported tier): ")
          << c.case_id << (c.size > 0 ? " " + number(c.size, 0) + " B" : "")
          << (c.note.empty() ? "" : " " + c.note) << " ("
          << (c.known_miss.empty() ? "not a known miss" : "known miss, " + c.known_miss) << ")\n";
    }
    const auto in_verdict = std::count_if(tiers.begin(), tiers.end(),
                                          [](const TierResult& t) { return t.in_verdict; });
    o << "validate: " << verdict(tiers, strict) << " (" << in_verdict
      << (in_verdict == 1 ? " tier" : " tiers") << ")\n";
    return o.str();
}

std::string report_markdown(const std::vector<Check>& checks,
                            const std::vector<TierResult>& tiers, const Tolerances& tol,
                            const std::vector<Prediction>& predictions,
                            const std::vector<std::string>& notes) {
    std::ostringstream o;
    o << "# Validation\n\n"
         "Generated by `build/pcisim validate --predictions --doc docs/validation.md`. Every "
         "reference measurement (docs/data/measurements.json for the stock driver, "
         "docs/data/variants.json for the driver variants and docs/data/smp.json for where the "
         "software runs, copied from the project's shared calibration set of 2004 "
         "netdev/e1000-devel reports) is simulated with the scenario listed in "
         "scenarios/calibration.json. Each platform has ONE preset, calibrated on every tier: a "
         "variant case runs its platform's stock scenario with only the driver, pktgen and "
         "placement settings the measurement names. How, within which ranges, and the cases the "
         "model misses: [calibration.md](calibration.md) and [smp.md](smp.md).\n\n"
         "**Summary:** " << verdict(tiers) << " (`pcisim validate` exits 0; `--strict` fails on "
         "the known misses too)\n\n";
    for (const auto& t : tiers)
        o << "- " << tier_title(t) << ": " << summary_line(t.summary, tol) << outside_verdict(t)
          << "\n";
    o << "\nTolerances (every tier): rate points within " << tol.point_pct << " % (median within "
      << tol.median_pct << " %), extrapolated overheads within " << tol.overhead_us
      << " us, staircase step heights within " << tol.step_height_pct
      << " % and positions within " << tol.step_position_bytes
      << " bytes, wire-speed crossover within " << tol.crossover_pct
      << " %, wire-speed cases within " << tol.wire_pct << " % of 125e6/(s+24).\n\n"
         // plots/regenerate's panel figure, in figures/ beside the report when plots/reproduce
         // writes both (out/, or docs/ with --out docs).
         "![measured and simulated](figures/simulated_vs_measured.png)\n";
    for (const auto& t : tiers) {
        o << "\n## Calibration table: " << tier_title(t) << "\n\n"
             "| case | check | scenario | size | measured | simulated | error | ok | note |\n"
             "|---|---|---|---|---|---|---|---|---|\n";
        for (const auto& c : checks) {
            if (c.tier != t.tier) continue;
            o << "| " << c.case_id << " | " << c.kind << " | " << c.scenario << " | "
              << (c.size > 0 ? number(c.size, 0) : "") << " | " << value(c, c.measured) << " | "
              << value(c, c.simulated) << " | " << error(c) << " | "
              << (c.ok ? "ok"
                       : c.known_miss.empty() ? "**OUT**"
                                              : "**OUT** (known miss, " + c.known_miss + ")")
              << " | " << c.note << " |\n";
        }
    }
    if (!predictions.empty()) {
        o << "\n## Predictions (not calibrated against)\n\n"
             "The driver variants of the 2004 threads, simulated on the calibrated platforms. "
             "Nothing here was fitted: where a number surprises, it is a finding about a "
             "mechanism, reported as such in the notes below the table.\n\n";
        for (const char* group : {"drivers", "topologies"}) {
            std::vector<std::string> variants;
            std::map<std::string, std::map<std::string, std::map<int, double>>> by;
            std::vector<int> sizes;
            for (const auto& p : predictions) {
                if (p.group != group) continue;
                if (std::find(variants.begin(), variants.end(), p.variant) == variants.end())
                    variants.push_back(p.variant);
                if (std::find(sizes.begin(), sizes.end(), p.point.size) == sizes.end())
                    sizes.push_back(p.point.size);
                by[p.scenario][p.variant][p.point.size] = p.pps;
            }
            if (by.empty()) continue;
            bool ports = std::string(group) == "topologies";
            if (ports)
                o << "\n### Several ports and NICs (docs/topologies.md): all ports together\n";
            for (int size : sizes) {
                o << "\n" << (ports ? "#### " : "### ") << size << "-byte packets (pps; wire limit "
                  << number(125e6 / (size + 24), 0) << (ports ? " per port" : "")
                  << ")\n\n| scenario |";
                for (const auto& v : variants) o << " " << v << " |";
                o << "\n|---|";
                for (std::size_t i = 0; i < variants.size(); ++i) o << "---|";
                o << "\n";
                for (const auto& [scenario, vs] : by) {
                    o << "| " << scenario << " |";
                    for (const auto& v : variants) {
                        auto it = vs.find(v);
                        o << " " << (it == vs.end() ? "-" : number(it->second.at(size), 0))
                          << " |";
                    }
                    o << "\n";
                }
            }
        }
        if (!notes.empty()) {
            o << "\n### What the predictions say\n\n";
            for (const auto& n : notes) o << "- " << n << "\n";
        }
    }
    return o.str();
}

json to_json(const std::vector<Check>& checks, const std::vector<TierResult>& tiers,
             const std::vector<Prediction>& predictions, bool strict) {
    auto summary_json = [](const Summary& s) {
        return json{{"checks", s.checks},
                    {"failed", s.failed},
                    {"known_misses", s.known_misses},
                    {"stale_known_misses", s.stale_known_misses},
                    {"points", s.points},
                    {"median_abs_pct", s.median_abs_pct},
                    {"max_abs_pct", s.max_abs_pct},
                    {"ok", s.ok}};
    };
    json r;
    r["ok"] = all_pass(tiers, strict);
    r["strict"] = strict;
    r["verdict"] = verdict(tiers, strict);
    r["tiers"] = json::object();
    for (const auto& t : tiers) {
        r["tiers"][t.tier] = summary_json(t.summary);
        r["tiers"][t.tier]["file"] = t.file;
        r["tiers"][t.tier]["in_verdict"] = t.in_verdict;
    }
    json rows = json::array();
    for (const auto& c : checks)
        rows.push_back({{"case", c.case_id}, {"tier", c.tier}, {"kind", c.kind},
                        {"scenario", c.scenario}, {"size", c.size}, {"measured", c.measured},
                        {"simulated", c.simulated}, {"error", c.error}, {"unit", c.unit},
                        {"ok", c.ok}, {"note", c.note}, {"known_miss", c.known_miss}});
    r["checks"] = rows;
    json preds = json::array();
    for (const auto& p : predictions)
        preds.push_back({{"group", p.group}, {"scenario", p.scenario}, {"variant", p.variant},
                         {"size", p.point.size}, {"tx_pps", p.pps}});
    r["predictions"] = preds;
    return r;
}

}  // namespace pcisim::validate
