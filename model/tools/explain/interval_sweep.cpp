#include "tools/explain/interval_sweep.h"

#include <algorithm>
#include <tuple>

namespace pcisim {

std::vector<Segment> sweep_spans(const std::vector<Span>& spans, int channels, Picos a, Picos b,
                                 const std::function<int(const std::vector<int>&)>& classify) {
    std::vector<std::tuple<Picos, int, int>> edges;  // time, +1/-1, channel
    for (const auto& s : spans) {
        if (s.end <= s.start) continue;
        edges.emplace_back(s.start, +1, s.channel);
        edges.emplace_back(s.end, -1, s.channel);
    }
    std::sort(edges.begin(), edges.end());
    std::vector<int> active(channels, 0);
    std::size_t i = 0;
    auto apply = [&] { active[std::get<2>(edges[i])] += std::get<1>(edges[i]); ++i; };
    while (i < edges.size() && std::get<0>(edges[i]) <= a) apply();
    std::vector<Segment> out;
    for (Picos t = a; t < b;) {
        Picos next = i < edges.size() ? std::min(std::get<0>(edges[i]), b) : b;
        int label = classify(active);
        if (!out.empty() && out.back().label == label) out.back().end = next;
        else out.push_back({t, next, label});
        t = next;
        while (i < edges.size() && std::get<0>(edges[i]) <= t) apply();
    }
    return out;
}

int first_active(const std::vector<int>& on) {
    for (std::size_t c = 0; c < on.size(); ++c)
        if (on[c]) return static_cast<int>(c);
    return static_cast<int>(on.size());
}

std::map<int, Picos> totals(const std::vector<Segment>& segments) {
    std::map<int, Picos> sum;
    for (const auto& s : segments) sum[s.label] += s.end - s.start;
    return sum;
}

}  // namespace pcisim
