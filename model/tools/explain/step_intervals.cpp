#include "tools/explain/step_intervals.h"

#include <algorithm>
#include <deque>
#include <map>
#include <tuple>

namespace pcisim {

std::vector<StepInterval> step_intervals(const Recording& recording) {
    using Key = std::tuple<std::string, TraceStep, unsigned, std::int64_t>;
    std::map<Key, std::deque<std::size_t>> open;  // indices into `out` still waiting for End
    std::vector<StepInterval> out;
    const TimeWindow& w = recording.window();
    for (const auto& e : recording.events()) {
        Key key{e.module, e.step, e.port, e.packet};
        switch (e.phase) {
        case TracePhase::Instant:
            out.push_back({e.module, e.step, e.port, e.packet, e.bytes, e.when, e.when, true});
            break;
        case TracePhase::Begin:
            open[key].push_back(out.size());
            out.push_back({e.module, e.step, e.port, e.packet, e.bytes, e.when, w.to});
            break;
        case TracePhase::End: {
            auto it = open.find(key);
            if (it == open.end() || it->second.empty()) {
                out.push_back({e.module, e.step, e.port, e.packet, e.bytes, w.from, e.when});
            } else {
                out[it->second.front()].end = e.when;
                it->second.pop_front();
            }
            break;
        }
        }
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const StepInterval& a, const StepInterval& b) { return a.start < b.start; });
    return out;
}

std::vector<Span> module_spans(const std::vector<StepInterval>& steps, const std::string& module,
                               const std::vector<TraceStep>& order) {
    std::vector<Span> spans;
    for (const auto& s : steps) {
        if (s.module != module || s.instant) continue;
        auto it = std::find(order.begin(), order.end(), s.step);
        if (it != order.end()) spans.push_back({s.start, s.end, static_cast<int>(it - order.begin())});
    }
    return spans;
}

StepParts module_step_parts(const std::vector<StepInterval>& steps, const std::string& module,
                            const std::vector<TraceStep>& order, const char* const* names,
                            Picos a, Picos b, double units, double bytes_per_s) {
    const int none = static_cast<int>(order.size());
    StepParts out{nlohmann::json::array(), 0};
    for (const auto& [label, total] :
         totals(sweep_spans(module_spans(steps, module, order), none, a, b, first_active))) {
        const double ns = static_cast<double>(total) * 1e-3 / units;
        out.parts.push_back({{"step", names[label]}, {"ns", ns}, {"byte_times", ns * bytes_per_s / 1e9}});
        if (label == none) out.none = total;
    }
    return out;
}

}  // namespace pcisim
