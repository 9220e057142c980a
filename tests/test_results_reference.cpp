// docs/metrics-reference.md is generated (pcisim metrics > docs/metrics-reference.md) from the
// tables the results are written with: the committed file must be what they say now, and the
// tables must name exactly the keys real runs write.  And JSON that goes to stdout (--json -)
// goes there alone.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "run/measurement.h"
#include "tools/cli/metrics_reference.h"
#include "test_support.h"

namespace test_results_reference {

using nlohmann::json;
using namespace pcisim::test;

namespace {

// The reference's names for the keys of `node`: dotted, "[]" for the items of a list.  The
// resolved scenario is one key (docs/scenario-reference.md has its own).
void key_paths(const json& node, const std::string& path, std::set<std::string>& out) {
    if (path == "scenario") {
        out.insert(path);
    } else if (node.is_object()) {
        for (auto it = node.begin(); it != node.end(); ++it)
            key_paths(*it, path.empty() ? it.key() : path + "." + it.key(), out);
    } else if (node.is_array()) {
        for (const auto& item : node) key_paths(item, path + "[]", out);
    } else {
        out.insert(path);
    }
}

// `pcisim run SCENARIO --json -`: the standard output must be the JSON and nothing else.
json run_to_stdout(const std::string& scenario, std::string& summary,
                   const std::string& sets = "") {
    TempDir dir;
    const std::string out = dir / "stdout.json";
    CommandOutcome r = run_pcisim("run " + scenario_path(scenario) + sets + " --json -", out);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    summary = r.err;
    return json::parse(slurp(out));  // throws, failing the test, on anything but one document
}

}  // namespace

TEST_CASE("docs/metrics-reference.md is the current output of pcisim metrics") {
    std::string committed = slurp(std::string(PCISIM_SOURCE_DIR) + "/docs/metrics-reference.md");
    INFO("regenerate it: build/pcisim metrics > docs/metrics-reference.md");
    CHECK(committed == pcisim::cli::metrics_markdown());
}

TEST_CASE("every key a run writes is in the metrics reference, and every key there is written") {
    std::set<std::string> documented;
    for (const auto& m : pcisim::cli::run_json_metrics()) {
        INFO(m.key);
        CHECK(documented.insert(m.key).second);  // each key once
        CHECK_FALSE(m.meaning.empty());
    }
    // A NIC run (two ports: the per-port lists; receiving too: rx and nic.rx), the synthetic
    // masters of the bus demo and a quad-port card (receiving: nics[].stats.rx).
    std::string summary;
    std::set<std::string> written;
    key_paths(run_to_stdout("xeon-pcix-133", summary,
                            " --set pktgen.ports=2 --set wire_source.enabled=true"),
              "", written);
    CHECK(contains(summary, "tx: "));  // the summary went to stderr
    CHECK(contains(summary, "rx: "));
    CHECK(contains(summary, "port 1 packet latency (xmit to last byte on the wire): p50 "));
    CHECK(contains(summary, "nic port 1: "));
    key_paths(run_to_stdout("bus-demo", summary), "", written);
    CHECK(contains(summary, "master "));
    // Several NICs, one behind an on-card bridge: nics[], ports[] and card_buses[].
    key_paths(run_to_stdout("xeon-pcix-133-quad-2cpu", summary, " --set wire_source.enabled=true"),
              "", written);
    CHECK(contains(summary, " bus (pcix "));
    // A TCP stream with TSO: tcp.* and the NIC's offload counters (nic.offload.*).
    key_paths(run_to_stdout("hp-ia64-netperf-tso", summary), "", written);
    CHECK(contains(summary, "tcp: "));
    for (const auto& key : written) {
        INFO("written by a run but not in the reference: " << key);
        CHECK(documented.count(key) == 1);
    }
    for (const auto& key : documented) {
        // Listed only when software touched an offset with no register, which no shipped
        // scenario does.
        if (key.rfind("nic.unimplemented_register_accesses[]", 0) == 0 ||
            key.rfind("nics[].stats.unimplemented_register_accesses[]", 0) == 0)
            continue;
        // Listed only once a port saw a context descriptor, and no shipped scenario with
        // several NICs sends with offloads (the TSO run above lists them under nic.offload).
        if (key.rfind("nics[].stats.offload.", 0) == 0) continue;
        INFO("in the reference but written by neither run: " << key);
        CHECK(written.count(key) == 1);
    }
}

TEST_CASE("a run's packet latency and frame interval percentiles are ordered and plausible") {
    std::string summary;
    json r = run_to_stdout("phi-32-66-82541", summary);
    for (const char* name : {"packet_latency_ns_by_port", "frame_interval_ns_by_port"}) {
        REQUIRE(r[name].size() == 1);
        const json& d = r[name][0];
        INFO(name << ": " << d.dump());
        REQUIRE(d["p50"].is_number());
        CHECK(d["p50"].get<double>() > 0);
        CHECK(d["p50"].get<double>() <= d["p90"].get<double>());
        CHECK(d["p90"].get<double>() <= d["p99"].get<double>());
        CHECK(d["p99"].get<double>() <= d["max"].get<double>());
    }
    // One port: the mean interval between frames is the period the rate is measured from.
    CHECK(r["frame_interval_ns_by_port"][0]["mean"].get<double>() ==
          Approx(1e9 / r["tx_pps"].get<double>()).epsilon(1e-9));
    // A packet takes at least its own frame time on the wire (64 + 8 bytes at 8 ns).
    CHECK(r["packet_latency_ns_by_port"][0]["p50"].get<double>() > 576);
}

TEST_CASE("a run's packet stages are ordered, add up to its packet latency, and are summarized") {
    std::string summary;
    json r = run_to_stdout("phi-32-66-82541", summary);
    REQUIRE(r["packet_stages_ns_by_port"].size() == 1);
    const json& stages = r["packet_stages_ns_by_port"][0];
    double sum_of_means = 0;
    for (const pcisim::PacketStage& stage : pcisim::kPacketStages) {
        const json& d = stages[stage.key];
        INFO(stage.key << ": " << d.dump());
        REQUIRE(d["p50"].is_number());
        CHECK(d["p50"].get<double>() >= 0);
        CHECK(d["p50"].get<double>() <= d["p90"].get<double>());
        CHECK(d["p90"].get<double>() <= d["p99"].get<double>());
        CHECK(d["p99"].get<double>() <= d["max"].get<double>());
        sum_of_means += d["mean"].get<double>();
        CHECK(contains(summary, "  " + std::string(stage.key) + " "));
    }
    // In us (ms only when a value reaches 1 ms), three decimals: the wire's 576 ns every time.
    CHECK(contains(summary, "port 0 packet stages (us)"));
    CHECK(contains(summary, "  wire                           0.576     0.576     0.576     0.576     0.576\n"));
    // Each stage ends where the next begins: per packet they add up to its latency.
    CHECK(sum_of_means ==
          Approx(r["packet_latency_ns_by_port"][0]["mean"].get<double>()).epsilon(1e-9));
    // Every 60-byte frame is 64 + 8 bytes at 8 ns on the wire, after the NIC's own processing.
    CHECK(stages["wire"]["max"].get<double>() == Approx(576));
    CHECK(stages["wire"]["mean"].get<double>() == Approx(576));
    CHECK(stages["processing"]["p50"].get<double>() >=
          r["scenario"]["nic"]["packet_processing_ns"].get<double>());
}

TEST_CASE("batching tail writes lengthens the tail_write stage, not the frame on the wire") {
    std::string summary;
    json stock = run_to_stdout("phi-32-66-82541", summary)["packet_stages_ns_by_port"][0];
    json batched = run_to_stdout("phi-32-66-82541", summary, " --set driver.tdt_batch=4")
                       ["packet_stages_ns_by_port"][0];
    INFO("stock " << stock.dump() << "\nbatched " << batched.dump());
    // Three packets of four wait in the ring for one, two or three more xmits before the NIC is
    // told (the stock driver writes TDT in every xmit).
    for (const char* key : {"p50", "mean"})
        CHECK(batched["tail_write"][key].get<double>() >
              1.5 * stock["tail_write"][key].get<double>());
    CHECK(batched["wire"]["mean"].get<double>() == stock["wire"]["mean"].get<double>());
}

// run and fit are checked above and in test_fit.cpp; the other commands with --json here.
TEST_CASE("explain, validate and bench with --json - put only the JSON on stdout") {
    const std::vector<std::pair<std::string, std::string>> commands = {
        {"explain " + scenario_path("intel-server-32-66"), "limited by: "},
        {"validate --case xeon-pcix-133-vanilla", "xeon-pcix-133-vanilla"},
        {"bench --case stock-60 --packets 1000 --runs 1", "one sweep point: "},
    };
    for (const auto& [command, report] : commands) {
        INFO(command);
        TempDir dir;
        const std::string out = dir / "stdout.json";
        CommandOutcome r = run_pcisim(command + " --json -", out);
        INFO(r.err);
        CHECK(r.exit_code <= 1);  // validate: 1 only says a check is out of tolerance
        CHECK(contains(r.err, report));
        json doc = json::parse(slurp(out));
        CHECK(doc.contains("provenance"));
    }
}

// The P-square estimates against the exact percentiles of a skewed sample (most packets at one
// period, a tail of slow ones, as interrupts and cleanups make it), in a scrambled order.
TEST_CASE("the percentile estimates are close to the exact percentiles") {
    std::vector<double> values;
    for (int i = 0; i < 20000; ++i) {
        double u = ((i * 7919) % 20000) / 20000.0;  // every fraction once, scrambled
        values.push_back(u < 0.8 ? 1500 + 100 * u : 1580 + 30000 * (u - 0.8));
    }
    pcisim::Distribution d;
    for (double v : values) d.add(v);
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < 3; ++i) {
        double p = pcisim::Distribution::kProbabilities[i];
        double exact = sorted[static_cast<std::size_t>(p * (sorted.size() - 1))];
        INFO("p" << p * 100 << ": exact " << exact << ", estimate " << *d.percentile(i));
        CHECK(*d.percentile(i) == Approx(exact).epsilon(0.01));
    }
    CHECK(d.max() == sorted.back());
    CHECK(d.count() == values.size());
    pcisim::Distribution few;
    for (int i = 0; i < 8; ++i) few.add(i);
    CHECK_FALSE(few.percentile(0));  // fewer samples than markers: no estimate
}

}  // namespace test_results_reference
