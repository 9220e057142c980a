#include "tools/explain/trace_writer.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "tools/explain/step_intervals.h"

namespace pcisim {

using nlohmann::json;

namespace {

struct Slice {
    std::string process, kind;  // the module and the kind of step: the track's base
    std::string name;
    Picos start, end;
    json args;
    std::int64_t flow = -1;     // packet key for flows, -1: none
};

double us(Picos t) { return static_cast<double>(t) * 1e-6; }

std::string transaction_name(const BusTransaction& t) {
    std::string cmd = t.command == BusCommand::MemRead    ? "read"
                      : t.command == BusCommand::MemWrite ? "write"
                                                           : "split completion";
    if (t.termination == Termination::Retry || t.termination == Termination::SplitResponse)
        return cmd + " " + to_string(t.termination);
    std::string name = cmd + " " + std::to_string(t.bytes_done) + " B";
    if (t.termination != Termination::Completed) name += std::string(" ") + to_string(t.termination);
    return name;
}

}  // namespace

json chrome_trace(const Recording& recording) {
    const BusInfo& bus = recording.bus();
    std::vector<Slice> slices;
    for (const auto& t : recording.transactions()) {
        const std::string& master = bus.masters.at(t.master);
        if (t.request < t.start)
            slices.push_back({"bus", master, "arbitration", t.request, t.start, json::object(), -1});
        slices.push_back({"bus", master, transaction_name(t), t.start, t.end,
                          {{"addr", t.addr},
                           {"bytes", t.bytes},
                           {"bytes_done", t.bytes_done},
                           {"termination", to_string(t.termination)},
                           {"first_data_us", us(t.data_start)}},
                          -1});
    }
    std::vector<json> instants;
    for (const auto& s : step_intervals(recording)) {
        if (s.instant) {
            instants.push_back({{"ph", "i"}, {"s", "t"}, {"name", to_string(s.step)},
                                {"ts", us(s.start)}, {"module", s.module}});
            continue;
        }
        json args = {{"port", s.port}};
        if (s.packet >= 0) args["packet"] = s.packet;
        if (s.bytes) args["bytes"] = s.bytes;
        std::string name = to_string(s.step);
        if (s.packet >= 0) name += " #" + std::to_string(s.packet);
        std::int64_t flow = s.packet >= 0 ? s.packet * 16 + s.port : -1;
        slices.push_back({s.module, to_string(s.step), name, s.start, s.end, args, flow});
    }

    // Processes and tracks: ids in order of first appearance, so the output is deterministic.
    std::map<std::string, int> pids;
    std::map<std::pair<std::string, std::string>, std::vector<Picos>> lanes;  // last end per lane
    std::map<std::tuple<std::string, std::string, std::size_t>, int> tids;
    json events = json::array();
    auto pid_of = [&](const std::string& process) {
        auto [it, fresh] = pids.emplace(process, static_cast<int>(pids.size()) + 1);
        if (fresh)
            events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", it->second},
                              {"args", {{"name", process}}}});
        return it->second;
    };
    std::stable_sort(slices.begin(), slices.end(),
                     [](const Slice& a, const Slice& b) { return a.start < b.start; });
    std::map<std::int64_t, std::vector<json>> flows;
    for (const auto& s : slices) {
        int pid = pid_of(s.process);
        auto& ends = lanes[{s.process, s.kind}];
        std::size_t lane = 0;
        while (lane < ends.size() && ends[lane] > s.start) ++lane;
        if (lane == ends.size()) ends.push_back(0);
        ends[lane] = s.end;
        auto [it, fresh] = tids.emplace(std::make_tuple(s.process, s.kind, lane),
                                        static_cast<int>(tids.size()) + 1);
        int tid = it->second;
        if (fresh) {
            std::string track = s.kind + (lane ? " (" + std::to_string(lane + 1) + ")" : "");
            events.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", pid}, {"tid", tid},
                              {"args", {{"name", track}}}});
        }
        events.push_back({{"ph", "X"}, {"name", s.name}, {"cat", s.kind}, {"pid", pid},
                          {"tid", tid}, {"ts", us(s.start)}, {"dur", us(s.end - s.start)},
                          {"args", s.args}});
        if (s.flow >= 0)
            flows[s.flow].push_back({{"pid", pid}, {"tid", tid}, {"ts", us(s.start)}});
    }
    for (auto& i : instants) {
        int pid = pid_of(i["module"].get<std::string>());
        i.erase("module");
        i["pid"] = pid;
        i["tid"] = 0;
        events.push_back(i);
    }
    // Flow steps bind to the slice that encloses them on their track: s, t ..., f.
    for (const auto& [key, steps] : flows) {
        if (steps.size() < 2) continue;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            json f = steps[i];
            f["ph"] = i == 0 ? "s" : i + 1 == steps.size() ? "f" : "t";
            if (i + 1 == steps.size()) f["bp"] = "e";
            f["id"] = key;
            f["cat"] = "packet";
            f["name"] = "packet " + std::to_string(key / 16);
            events.push_back(f);
        }
    }
    return {{"traceEvents", events}, {"displayTimeUnit", "ns"}};
}

void write_chrome_trace(std::ostream& out, const Recording& recording) {
    out << chrome_trace(recording).dump() << "\n";
}

}  // namespace pcisim
