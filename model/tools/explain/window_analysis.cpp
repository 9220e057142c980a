#include "tools/explain/window_analysis.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "tools/explain/nic_bus_spans.h"

namespace pcisim {

using nlohmann::json;

AnalysedSpan::AnalysedSpan(const FrameEnds& ends, const BusInfo& bus)
    : a(ends.front().first), b(ends.back().first), n(static_cast<double>(ends.size() - 1)),
      bytes_per_s(bus.bytes_per_s()) {}

namespace {

// Each label's time per unit, step by step in the order of one unit.
EngineParts decompose_engine(const EngineTables& e, const std::vector<Span>& spans,
                             const AnalysedSpan& span) {
    EngineParts out{json::array(), totals(sweep_spans(spans, e.channels, span.a, span.b, e.label)),
                    std::vector<Picos>(e.idle + 1, 0), std::vector<Picos>(e.mechanisms, 0)};
    for (int step : e.unit_order) {
        for (int m = 0; m < e.mechanisms; ++m) {
            auto it = out.by_label.find(step * e.mechanisms + m);
            if (it == out.by_label.end()) continue;
            out.by_step[step] += it->second;
            out.by_mechanism[m] += it->second;
            double v = span.per_unit(it->second);
            out.parts.push_back({{"step", e.step_names[step]}, {"mechanism", e.mechanism_names[m]},
                                 {"ns", v}, {"byte_times", span.byte_times(v)}});
        }
    }
    return out;
}

json bus_json(const BusInfo& bus) {
    const double B = bus.bytes_per_s();
    return {{"kind", bus.kind == BusKind::Pci ? "pci" : "pcix"}, {"width_bits", bus.width_bits},
            {"clock_mhz", bus.clock_mhz}, {"bytes_per_s", B}, {"byte_time_ns", 1e9 / B}};
}

json resources_json(const std::vector<Resource>& ranked, const AnalysedSpan& span,
                    const Direction& d) {
    json res = json::array();
    const double length = static_cast<double>(span.b - span.a);
    for (const auto& r : ranked)
        res.push_back({{"resource", r.key}, {"name", r.name},
                       {std::string("busy_ns_per_") + d.unit, span.per_unit(r.busy)},
                       {"busy_fraction", static_cast<double>(r.busy) / length},
                       {d.rate_key, r.busy ? json(1e12 * span.n / static_cast<double>(r.busy)) : json()}});
    return res;
}

}  // namespace

WindowAnalysis analyse_window(const Recording& rec, const AnalysedSpan& span, Direction d,
                              double measured_pps) {
    WindowAnalysis w;
    w.engine = decompose_engine(d.engine, d.engine_spans, span);
    const Picos length = span.b - span.a, held = w.engine.by_step[d.engine.held];
    d.engine_resource.busy = length - w.engine.by_step[d.engine.idle] - held;
    w.ranked = {d.wire, d.engine_resource, {"cpu", d.cpu_name, length - d.cpu.none},
                {"bus", "bus bandwidth (all masters)", bus_busy_time(rec, span.a, span.b)}};
    std::stable_sort(w.ranked.begin(), w.ranked.end(),
                     [](const Resource& x, const Resource& y) { return x.busy > y.busy; });
    Resource limiter = w.ranked[0];
    if (limiter.key != "wire" && held > length / 2) limiter = d.held_limiter;
    const Resource& next = w.ranked[1];
    w.report = {
        {"bus", bus_json(rec.bus())},
        {"period_ns", span.period_ns()},
        {"measured_period_ns", measured_pps > 0 ? 1e9 / measured_pps : 0},
        {"limiter", limiter.key},
        {"limiter_name", limiter.name},
        {"next_bottleneck", next.busy ? next.key : "none"},
        {"next_bottleneck_name", next.busy ? next.name : "none (nothing else is busy)"},
        {"resources", resources_json(w.ranked, span, d)},
        {"parts", {{d.engine_resource.key, w.engine.parts}, {"cpu", d.cpu.parts}, {"wire", d.wire_parts}}},
    };
    return w;
}

void print_resources(std::ostream& o, const json& resources, const char* busy_key,
                     const char* rate_key, const char* rate_unit) {
    for (const auto& r : resources) {
        o << "  " << std::left << std::setw(40) << r["name"].get<std::string>() << std::right
          << std::setw(9) << r[busy_key].get<double>() << " ns  " << std::setw(5)
          << 100 * r["busy_fraction"].get<double>() << " %   alone: " << std::setprecision(0);
        if (r[rate_key].is_null()) o << "no limit\n";
        else o << r[rate_key].get<double>() << " " << rate_unit << "\n";
        o << std::setprecision(1);
    }
}

std::string transaction_text(const BusTransaction& t, const BusInfo& bus) {
    std::ostringstream o;
    o << bus.masters.at(t.master) << " "
      << (t.command == BusCommand::MemRead ? "read" : t.command == BusCommand::MemWrite ? "write" : "split completion")
      << " " << to_string(t.termination);
    if (t.bytes_done) o << ", " << t.bytes_done << " B";
    o << ": " << (t.end - t.start) / bus.period << " clocks";
    return o.str();
}

}  // namespace pcisim
