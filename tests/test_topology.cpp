// Topologies (issue 15, item 4): several NICs on a segment, NICs behind an on-card bridge, and
// pktgen threads bound to CPUs, one CPU driving several ports.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "e1000/e1000_family.h"
#include "e1000/e1000_params.h"
#include "run/nic_families.h"
#include "software/e1000_driver.h"
#include "run/scenario.h"
#include "run/topology.h"
#include "test_support.h"

namespace test_topology {

using namespace pcisim;
using namespace pcisim::test;
using nlohmann::json;

namespace {

// Where a scenario given as JSON finds the platforms it names.
const std::string kScenarios = std::string(PCISIM_SOURCE_DIR) + "/scenarios";

// Runs `scenario` (JSON text, written beside the others' platforms are found from scenarios/)
// with `sets`; the results, or the run's stderr in a failed REQUIRE.
json run_scenario(const json& scenario, const std::string& sets = "") {
    TempDir dir;
    std::string file = dir / "scenario.json";
    std::ofstream(file) << scenario.dump(2);
    return pcisim_json("run " + file + " " + sets);
}

// A card bridge with a segment like phi's own (PCI-X 64/100, the P64H2's face settings).
json card_like_phi(double latency_ns) {
    return {{"name", "card"},
            {"upstream_latency_ns", latency_ns},
            {"downstream_latency_ns", latency_ns},
            {"read_response", "delayed"},
            {"prefetch_bytes", 512},
            {"devsel", "medium"},
            {"completion_chunk_bytes", 0},
            {"bus", {{"kind", "pcix"}, {"width_bits", 64}, {"clock_mhz", 100}}}};
}

}  // namespace

TEST_CASE("several NICs on one segment all send, each port counted on its own", "[topology]") {
    json s = {{"platform", "phi-64-100-82546.json"},
              {"name", "three-nics"},
              // A CPU for each of the four ports (phi has two: pktgen.cpus 0 needs four).
              {"cpu", {{"count", 4}}},
              {"nics", {{{"ports", 2}}, {{"ports", 1}}, {{"model", "82544"}}}}};
    json r = run_scenario(s);
    REQUIRE(r["ports"].size() == 4);
    REQUIRE(r["nics"].size() == 3);
    CHECK_FALSE(r.contains("nic"));  // one NIC's stats only when there is one NIC
    double total = 0;
    for (const json& p : r["ports"]) {
        INFO(p.dump());
        CHECK(p["tx_pps"].get<double>() > 10000);
        CHECK(p["tx_frames"].get<std::uint64_t>() >= 10);
        CHECK(p["packets_queued"].get<std::uint64_t>() > 0);
        total += p["tx_pps"].get<double>();
    }
    CHECK(r["tx_pps"].get<double>() == Approx(total).epsilon(1e-12));
    std::uint64_t frames = 0;
    for (const json& n : r["nics"]) {
        double nic_total = 0;
        for (const json& p : n["tx_pps_by_port"]) nic_total += p.get<double>();
        CHECK(n["tx_pps"].get<double>() == Approx(nic_total).epsilon(1e-12));
        frames += n["stats"]["tx_frames"].get<std::uint64_t>();
    }
    CHECK(r["nics"][2]["model"] == "82544");
    CHECK(r["nics"][0]["tx_pps_by_port"].size() == 2);
    CHECK(frames >= r["tx_frames"].get<std::uint64_t>());
    // Four ports share the segment: none gets what one port alone gets.
    json alone = run_scenario({{"platform", "phi-64-100-82546.json"}, {"name", "one-nic"}});
    for (const json& p : r["ports"])
        CHECK(p["tx_pps"].get<double>() < alone["tx_pps"].get<double>());
}

TEST_CASE("a card bridge adds its latency to the reads of the NIC behind it", "[topology]") {
    // One port, nothing else on either bus: a card bridge of no latency whose segment and face
    // are the devices' own changes nothing; with latency the NIC is slower per packet.
    json direct = {
        {"platform", "phi-64-100-82546.json"},
        {"name", "direct"},
        {"nics", json::array({json::object()})}};
    json behind = direct;
    behind["nics"][0]["card_bridge"] = "card";
    behind["card_bridges"] = json::array({card_like_phi(0)});
    double on_segment = run_scenario(direct)["tx_pps"].get<double>();
    json through_nothing = run_scenario(behind);
    CHECK(through_nothing["tx_pps"].get<double>() == on_segment);
    CHECK(through_nothing["nics"][0]["segment"] == "card");
    CHECK(through_nothing["card_buses"][0]["transactions_in_window"].get<std::uint64_t>() > 0);
    behind["card_bridges"] = json::array({card_like_phi(300)});
    double slower = run_scenario(behind)["tx_pps"].get<double>();
    CHECK(slower < 0.95 * on_segment);
}

TEST_CASE("one CPU driving two ports shares its time between them", "[topology]") {
    // The CPU is the bottleneck (xmit_frame costs 10 us at 2.4 GHz): one CPU for both ports
    // sends about half of what a CPU each does, split evenly between the ports.
    json s = {{"platform", "phi-64-100-82546.json"},
              {"name", "cpu-bound"},
              {"pktgen", {{"ports", 2}}},
              {"cpu", {{"cycles", {{"xmit_frame", 24000}}}}}};
    s["pktgen"]["cpus"] = 2;
    json each = run_scenario(s);
    s["pktgen"]["cpus"] = 1;
    json shared = run_scenario(s);
    REQUIRE(each["cpus"].size() == 2);
    REQUIRE(shared["cpus"].size() == 1);
    double two = each["tx_pps"].get<double>(), one = shared["tx_pps"].get<double>();
    CHECK(one < 0.6 * two);
    CHECK(one > 0.4 * two);
    CHECK(shared["cpus"][0]["busy_fraction"].get<double>() > 0.9);
    const json& by_port = shared["tx_pps_by_port"];
    CHECK(by_port[0].get<double>() == Approx(by_port[1].get<double>()).epsilon(0.02));
    CHECK(shared["ports"][1]["cpu"] == 0);
    CHECK(shared["cpus"][0]["packets_queued"].get<std::uint64_t>() ==
          shared["ports"][0]["packets_queued"].get<std::uint64_t>() +
              shared["ports"][1]["packets_queued"].get<std::uint64_t>());
}

// The shortcuts (one CPU running ahead, now with two ports; the MAC's lazy wire on several NICs)
// are off while a trace records: both ways must give the same results to the last bit.  The
// trace watches the devices' segment, so a card's bus keeps its own run-ahead in both runs.
TEST_CASE("topologies give the same results with and without the shortcuts", "[topology]") {
    for (const char* name : {"phi-64-100-82546-2port-1cpu", "xeon-pcix-133-quad-2cpu"}) {
        INFO(name);
        TempDir dir;
        std::string base = "run " + scenario_path(name);
        for (const auto& set : fixed_window(2000, 1000)) base += " --set " + set;
        base += " --json ";
        REQUIRE(run_pcisim(base + (dir / "ahead.json")).exit_code == 0);
        REQUIRE(run_pcisim(base + (dir / "observed.json") + " --trace " + (dir / "trace.json") +
                           " --window 0:2999")
                    .exit_code == 0);
        std::string ahead = results_without_provenance(dir / "ahead.json");
        CHECK(ahead != "null");
        CHECK(ahead == results_without_provenance(dir / "observed.json"));
    }
}

TEST_CASE("ports are dealt to the pktgen CPUs in turn unless a NIC is bound to one", "[topology]") {
    json s = {{"platform", "phi-64-100-82546.json"},
              {"nics", {{{"ports", 2}}, {{"ports", 2}}}},
              {"pktgen", {{"cpus", 2}}}};
    auto dealt = [](const json& doc, const std::vector<std::string>& sets = {}) {
        Scenario sc = Scenario::from_json(doc, std::string(PCISIM_SOURCE_DIR) + "/scenarios", sets);
        return Topology::from(sc, 64).port_cpu;
    };
    CHECK(dealt(s) == std::vector<unsigned>{0, 1, 0, 1});
    CHECK(dealt(s, {"nics.0.cpu=0", "nics.1.cpu=1"}) == std::vector<unsigned>{0, 0, 1, 1});
    CHECK(dealt(s, {"pktgen.cpus=0", "cpu.count=4"}) == std::vector<unsigned>{0, 1, 2, 3});
    // The single nic.* form keeps one CPU per port.
    CHECK(dealt({{"nic", {{"model", "82546"}}}, {"pktgen", {{"ports", 2}}}}) ==
          std::vector<unsigned>{0, 1});
}

TEST_CASE("a NIC of nics[] takes nic.* for every key it leaves out, also after an override",
          "[topology]") {
    json s = {{"platform", "phi-64-100-82546.json"},
              {"nics", {json::object(), {{"packet_processing_ns", 500}}}}};
    Scenario sc = Scenario::from_json(s, std::string(PCISIM_SOURCE_DIR) + "/scenarios");
    CHECK_FALSE(sc.resolved()["nics"][0].contains("model"));  // not filled in: inherited
    Scenario swept = sc.with({"nic.packet_processing_ns=250", "nic.mmrbc_bytes=1024"});
    auto first = e1000::E1000Params::from(swept, "nics.0");
    auto second = e1000::E1000Params::from(swept, "nics.1");
    CHECK(first.model == "82546");
    CHECK(first.packet_processing_ps == 250000);
    CHECK(second.packet_processing_ps == 500000);  // its own value stays
    CHECK(first.mmrbc_bytes == 1024);
    CHECK(second.mmrbc_bytes == 1024);
}

TEST_CASE("bad topology input names the key, the value and what was expected", "[topology]") {
    json base = {{"platform", "phi-64-100-82546.json"},
                 {"nics", json::array({json::object()})}};
    struct Bad {
        std::vector<std::string> sets;
        json cards;          // card_bridges[], when the case needs one
        std::string starts;  // the one problem's first words
        std::string says;
        std::size_t problems = 1;  // the first is the one checked
    };
    const json card = {{{"name", "c"}}};
    const std::vector<Bad> bad = {
        {{"nics.0.card_bridge=quad"}, nullptr,
         "nics[0].card_bridge: \"quad\" names no card_bridges[]",
         "expected \"\" (no card bridge is given)"},
        {{"nics.0.card_bridge=quad"}, card, "nics[0].card_bridge: \"quad\" names no card_bridges[]",
         "expected \"\" or one of \"c\"", 2},  // and "c" has no NIC behind it
        {{}, card, "card_bridges[0]: no NIC sits behind \"c\"", "expected a nics[] entry"},
        {{"nics.0.cpu=1"}, nullptr, "nics[0].cpu: 1 with pktgen.cpus 0", "expected -1"},
        {{"pktgen.cpus=2", "nics.0.cpu=2"}, nullptr, "nics[0].cpu: 2 is not one of the 2 CPUs",
         "expected -1 .. 1"},
        {{"pktgen.cpus=2"}, nullptr, "pktgen.cpus: 2 leaves cpu1 without a port",
         "expected at most"},
        {{"nics.0.model=82544", "nics.0.ports=2"}, nullptr,
         "nics[0].ports: 2 is more than the 1 port(s)", "expected at most 1"},
        {{"nics.0.model=82540"}, nullptr,
         "nics[0].model: \"82540\" is a PCI-only part, on a bus.kind", "expected \"82544\" or"},
        {{"nics.0.model=82540", "nics.0.card_bridge=c", "card_bridges.0.bus.kind=pcix",
          "card_bridges.0.bus.clock_mhz=133"},
         card,
         "nics[0].model: \"82540\" is a PCI-only part, on a card_bridges[0].bus.kind",
         "expected"},
        {{"card_bridges.0.bus.clock_mhz=100", "nics.0.card_bridge=c"}, card,
         "card_bridges[0].bus.clock_mhz: 100", "is not a pci clock; expected 33 or 66"},
        {{"nic.enabled=false"}, nullptr, "nics: 1 NICs with nic.enabled false",
         "expected nic.enabled true"},
        {{"nics.0.devsel=quick"}, nullptr, "nics[0].devsel: \"quick\" is not allowed",
         "expected one of"},
        {{"card_bridges.0.name=nic1", "nics.0.card_bridge=nic1"}, card,
         "card_bridges[0].name: \"nic1\" is the name of one of the model's own modules",
         "expected a name of its own"},
    };
    for (const Bad& b : bad) {
        INFO(b.starts);
        json doc = base;
        if (!b.cards.is_null()) doc["card_bridges"] = b.cards;
        std::vector<std::string> p = json_problems(doc.dump(), b.sets, kScenarios);
        REQUIRE(p.size() == b.problems);
        INFO(p[0]);
        CHECK(p[0].rfind(b.starts, 0) == 0);
        CHECK(contains(p[0], b.says));
    }
    json many = base;
    many["nics"] = json::array();
    for (int i = 0; i < 17; ++i) many["nics"].push_back(json::object());
    auto p = json_problems(many.dump(), {}, kScenarios);
    REQUIRE_FALSE(p.empty());
    CHECK(p[0].rfind("nics: 17 NICs; expected at most 16", 0) == 0);
}

TEST_CASE("a NIC is read by the family of its nic.model and its driver probes its device ID",
          "[topology]") {
    const Scenario s = Scenario::load(scenario_path("phi-32-66-82541"), {"nic.model=82544"});
    const Topology t = Topology::from(s, 64);
    REQUIRE(t.nics.size() == 1);
    const NicSpec& spec = *t.nics[0].spec;
    CHECK(spec.model() == "82544");
    CHECK(e1000::params_of(spec).traits.pcix_dword_erratum);
    CHECK(spec.device_id() == 0x1008);
    // The 82544's PCI-X workaround only on a PCI-X bus, and its write-back as 2.6.9 leaves it.
    DriverOptions on_pcix, on_pci;
    on_pcix.probe(spec.device_id(), true);
    on_pci.probe(spec.device_id(), false);
    CHECK(on_pcix.pcix_82544);
    CHECK_FALSE(on_pci.pcix_82544);
    CHECK_FALSE(on_pcix.full_tx_desc_writeback);
    DriverOptions later;
    later.probe(e1000::E1000Params::for_model("82546").traits.identity.device_id, true);
    CHECK_FALSE(later.pcix_82544);
    CHECK(later.full_tx_desc_writeback);
}

}  // namespace test_topology
