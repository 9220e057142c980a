// The Chrome trace view: valid JSON, no overlapping slices on a track, every packet of the
// window present and linked by a flow, and nothing recorded outside the window.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "run/recording.h"
#include "tools/explain/trace_writer.h"
#include "run/scenario.h"
#include "run/simulation.h"
#include "test_support.h"

namespace test_trace {

using namespace pcisim;
using nlohmann::json;
using pcisim::test::scenario_path;
using pcisim::test::slurp;

namespace {

std::vector<std::string> short_run(double window_us) {
    return {"simulation.warmup_us=300", "simulation.batch_us=" + std::to_string(window_us),
            "simulation.min_window_us=" + std::to_string(window_us),
            "simulation.max_window_us=" + std::to_string(window_us)};
}

}  // namespace

TEST_CASE("the trace of a window is valid JSON with non-overlapping tracks and every packet") {
    Scenario s = Scenario::load(scenario_path("intel-server-32-66"), short_run(1000));
    Simulation sim(s);
    Recording rec({400 * kPicosPerUs, 600 * kPicosPerUs});
    sim.attach_recorder(rec);
    json results = sim.run();
    std::ostringstream out;
    write_chrome_trace(out, rec);
    json trace = json::parse(out.str());  // throws if not valid JSON
    REQUIRE(trace["traceEvents"].is_array());

    std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> tracks;
    std::map<int, std::string> processes;
    std::map<std::int64_t, std::pair<double, double>> wired;  // packet -> its time on the wire
    std::set<std::int64_t> read;
    std::map<std::int64_t, int> flow_steps;
    for (const auto& e : trace["traceEvents"]) {
        std::string ph = e["ph"];
        if (ph == "M" && e["name"] == "process_name") processes[e["pid"]] = e["args"]["name"];
        if (ph == "X") {
            double ts = e["ts"], dur = e["dur"];
            CHECK(dur >= 0);
            tracks[{e["pid"], e["tid"]}].emplace_back(ts, ts + dur);
        }
        if (ph == "s" || ph == "t" || ph == "f") ++flow_steps[e["id"].get<std::int64_t>()];
    }
    for (const auto& e : trace["traceEvents"]) {
        if (e["ph"] != "X" || !e["args"].contains("packet")) continue;
        std::string process = processes.at(e["pid"]);
        std::int64_t packet = e["args"]["packet"];
        if (process == "nic.port0.mac" && e["cat"] == "wire")
            wired[packet] = {e["ts"].get<double>(), e["ts"].get<double>() + e["dur"].get<double>()};
        if (process == "nic.port0" && e["cat"] == "data read") read.insert(packet);
    }
    for (auto& [track, slices] : tracks) {
        std::sort(slices.begin(), slices.end());
        for (std::size_t i = 1; i < slices.size(); ++i) CHECK(slices[i].first >= slices[i - 1].second - 1e-9);
    }
    // Every frame the MAC sent in the window: consecutive numbers, and no room at either
    // edge of the window for one more (frames follow each other at most `spacing` apart).
    REQUIRE(wired.size() > 10);
    std::int64_t first = wired.begin()->first, last = wired.rbegin()->first;
    CHECK(static_cast<std::int64_t>(wired.size()) == last - first + 1);
    double spacing = 0;
    for (auto it = std::next(wired.begin()); it != wired.end(); ++it)
        spacing = std::max(spacing, it->second.first - std::prev(it)->second.first);
    CHECK(wired.begin()->second.first - 400 <= spacing);
    CHECK(600 - wired.rbegin()->second.second <= spacing);
    CHECK(results["tx_frames"].get<double>() > static_cast<double>(wired.size()));
    // Each of them was read by the DMA engine (unless before the window) and is one flow.
    for (const auto& [p, on_wire] : wired) {
        if (p == first) continue;  // its read may precede the window
        CHECK(read.count(p) == 1);
        CHECK(flow_steps[p * 16] >= 2);
    }
}

TEST_CASE("nothing is recorded outside the window, however long the run") {
    const char* binary = std::getenv("PCISIM_BINARY");
    REQUIRE(binary != nullptr);
    std::string base = std::string(binary) + " run " + scenario_path("intel-server-32-66") +
                       " --set simulation.warmup_us=300 --window 400:420";
    auto run = [&](double window_us, const std::string& tag) {
        std::string cmd = base;
        for (const auto& set : short_run(window_us)) cmd += " --set " + set;
        cmd += " --trace window-" + tag + ".json --vcd window-" + tag + ".vcd > /dev/null";
        REQUIRE(std::system(cmd.c_str()) == 0);
    };
    run(500, "short");
    run(5000, "long");
    std::string trace = slurp("window-short.json");
    CHECK(!trace.empty());
    CHECK(trace == slurp("window-long.json"));
    CHECK(slurp("window-short.vcd") == slurp("window-long.vcd"));
    const json events = json::parse(trace)["traceEvents"];  // not a range over a temporary's member
    for (const auto& e : events) {
        if (!e.contains("ts")) continue;
        double ts = e["ts"];
        double end = ts + e.value("dur", 0.0);
        CHECK(end >= 400);
        CHECK(ts <= 420);
    }
}

}  // namespace test_trace
