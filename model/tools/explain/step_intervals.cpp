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

}  // namespace pcisim
