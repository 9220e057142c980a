#include "tools/fit/curve_fit.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "tools/fit/formula_fit.h"
#include "tools/fit/regimes.h"

namespace pcisim::fit {

using nlohmann::json;

namespace {

json optional_number(const std::optional<double>& v) { return v ? json(*v) : json(); }

json fit_json(const FormulaFit& f) {
    return {{"B_bytes_per_s", f.bytes_per_s},
            {"B_bytes_per_s_se", optional_number(f.bytes_per_s_se)},
            {"k_bytes", f.latency_bytes},
            {"k_bytes_se", optional_number(f.latency_bytes_se)},
            {"overhead_us", f.overhead_us()},
            {"rms_rel_residual", f.rms_rel_residual},
            {"max_rel_residual", f.max_rel_residual},
            {"formula", formula_text(f.bytes_per_s, f.latency_bytes)}};
}

// Sizes and byte rates in full ("264000000", not "2.64e+08").
std::string number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, v == static_cast<long long>(v) ? "%.0f" : "%g", v);
    return buf;
}

std::string range_text(const json& piece) {
    return number(piece["from"]) + " <= s " + (piece["to_inclusive"].get<bool>() ? "<= " : "< ") +
           number(piece["to"]);
}

// "B = 264000000 +- 1200000 B/s, k = 335.0 +- 2.1 bytes (standard errors)"; a fixed B has no
// error of its own.
std::string errors_line(const json& fit) {
    if (fit["k_bytes_se"].is_null()) return "             standard errors: none (no degree of freedom left)\n";
    char k[96];
    std::snprintf(k, sizeof k, "k = %.1f +- %.1f bytes", fit["k_bytes"].get<double>(),
                  fit["k_bytes_se"].get<double>());
    std::string b = fit["B_bytes_per_s_se"].get<double>() == 0
                        ? std::string("B given")
                        : "B = " + number(std::round(fit["B_bytes_per_s"].get<double>())) + " +- " +
                              number(std::round(fit["B_bytes_per_s_se"].get<double>())) + " B/s";
    return "             " + b + ", " + k + " (standard errors)\n";
}

std::string fit_line(const char* label, const json& fit, const json& piece) {
    if (fit.is_null()) return std::string("    ") + label + ": not possible (" +
                              (piece["points"] == 1 ? "one point" : "pps does not fall with size") +
                              ")\n";
    char stats[160];
    std::snprintf(stats, sizeof stats, "   rms %.3f %%, max %.3f %%, overhead at s=0 %.3f us",
                  fit["rms_rel_residual"].get<double>() * 100,
                  fit["max_rel_residual"].get<double>() * 100, fit["overhead_us"].get<double>());
    return std::string("    ") + label + ": p = " + fit["formula"].get<std::string>() + " for " +
           range_text(piece) + stats + "\n" + errors_line(fit);
}

}  // namespace

json fit_curve(const Curve& curve) {
    const auto& samples = curve.samples;
    Regimes regimes = split_regimes(samples, curve.wire_pps);
    json out;
    out["group"] = json::object();
    for (const auto& [column, value] : curve.group) out["group"][column] = value;
    out["bus_bytes_per_s"] = curve.bus_bytes_per_s ? json(*curve.bus_bytes_per_s) : json();
    out["points"] = samples.size();
    out["wire_limited"] = nullptr;
    if (!regimes.wire_limited.empty())
        out["wire_limited"] = {{"from", samples[regimes.wire_limited.front()].size},
                               {"to", samples[regimes.wire_limited.back()].size},
                               {"points", regimes.wire_limited.size()}};
    out["steps_at"] = json::array();
    out["pieces"] = json::array();
    for (const Piece& p : regimes.pieces) {
        std::vector<Sample> piece(samples.begin() + p.first, samples.begin() + p.last + 1);
        if (p.after_step) out["steps_at"].push_back(samples[p.first].size);
        bool last = p.last + 1 == samples.size();
        json j = {{"from", samples[p.first].size},
                  {"to", last ? samples[p.last].size : samples[p.last + 1].size},
                  {"to_inclusive", last},
                  {"points", piece.size()},
                  {"free", nullptr},
                  {"fixed", nullptr}};
        if (auto f = fit_free(piece)) j["free"] = fit_json(*f);
        if (curve.bus_bytes_per_s) j["fixed"] = fit_json(fit_fixed(piece, *curve.bus_bytes_per_s));
        out["pieces"].push_back(j);
    }
    return out;
}

std::string describe(const json& c) {
    std::ostringstream s;
    s << "curve";
    const char* sep = " ";
    for (auto it = c["group"].begin(); it != c["group"].end(); ++it, sep = ", ")
        s << sep << it.key() << "=" << it.value().get<std::string>();
    s << ": " << c["points"] << " points";
    if (!c["bus_bytes_per_s"].is_null())
        s << ", bus byte rate " << number(c["bus_bytes_per_s"]) << " B/s";
    s << "\n";
    if (!c["wire_limited"].is_null()) {
        const json& w = c["wire_limited"];
        s << "  wire-limited for " << number(w["from"]) << " <= s <= " << number(w["to"]) << " ("
          << w["points"] << (w["points"] == 1 ? " point" : " points")
          << "): p = 125000000/(s+24)\n";
    }
    if (!c["steps_at"].empty()) {
        s << "  steps at s =";
        for (const auto& at : c["steps_at"]) s << " " << number(at);
        s << "\n";
    }
    for (const auto& p : c["pieces"]) {
        s << "  bus-limited piece " << range_text(p) << " (" << p["points"]
          << (p["points"] == 1 ? " point)\n" : " points)\n");
        s << fit_line("B free ", p["free"], p);
        if (!c["bus_bytes_per_s"].is_null()) s << fit_line("B fixed", p["fixed"], p);
    }
    return s.str();
}

}  // namespace pcisim::fit
