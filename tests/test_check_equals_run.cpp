// `pcisim check` passes exactly what `pcisim run` runs (issue 32, item 5): every combination the
// issue found that check passed and run then refused with exit 1 and no key named is now refused
// by both with exit 2, naming the key; and what the run takes, check passes.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "test_support.h"

namespace test_check_equals_run {

using namespace pcisim::test;

namespace {

struct Case {
    std::string scenario, sets, key;  // key: what both must name ("" when both pass)
};

}  // namespace

TEST_CASE("check and run agree on every combination of issue 32", "[check]") {
    const std::vector<Case> cases = {
        // hp-ia64-netperf: passed check, then the run stopped on them (exit 1).
        {"hp-ia64-netperf", "--set wire_source.enabled=true", "wire_source.enabled: true"},
        {"hp-ia64-netperf", "--set driver.copy=true", "driver.copy: true"},
        {"hp-ia64-netperf", "--set tcp.socket_buffer_bytes=2048", "tcp.socket_buffer_bytes: 2048"},
        {"hp-ia64-netperf", "--set tcp.mss=88 --set driver.tso=true",
         "nic.descriptor_cache_entries: 64 cannot hold the 141 descriptors"},
        {"hp-ia64-netperf", "--set tcp.mss=8960 --set nic.pba_rx_kb=56",
         "tcp.mss: 8960 makes 9014 B segments, which never fit the 8192 B transmit FIFO"},
        {"hp-ia64-netperf", "--set tcp.message_bytes=67108864", "host.memory_mib: 64 does not hold"},
        {"hp-ia64-netperf", "--set nic.descriptor_cache_entries=4 --set driver.tso=true",
         "nic.descriptor_cache_entries: 4 cannot hold"},
        // Receive: passed both, and printed 0 pps delivered (all missed) with exit 0.
        {"xeon-pcix-133-rx", "--set driver.rx_rdt_batch=256",
         "driver.rx_rdt_batch: 256 is not below driver.rx_ring_size 256"},
        {"xeon-pcix-133-rx", "--set nic.pba_rx_kb=0", "nic.pba_rx_kb: 0 KB of receive buffer"},
        // wire_source.ports against each NIC's ports, not pktgen.ports.
        {"xeon-pcix-133-quad-2cpu",
         "--set nics.0.ports=1 --set wire_source.enabled=true --set wire_source.ports=2",
         "wire_source.ports: 2 is more than the 1 port(s) with a driver (nics[0].ports)"},
        // Refused before, run by both now: the quad card's NICs have two ports each (pktgen.ports
        // is 1), and PCI-X runs at any clock up to its mode's maximum.
        {"xeon-pcix-133-quad-2cpu",
         "--set wire_source.enabled=true --set wire_source.ports=2 --set wire_source.receive_only=true",
         ""},
        {"xeon-pcix-133-quad-2cpu", "--set card_bridges.0.bus.clock_mhz=120", ""},
        {"xeon-pcix-133", "--set bus.clock_mhz=120", ""},
    };
    for (const Case& c : cases) {
        const std::string args = scenario_path(c.scenario) + " " + c.sets;
        INFO(c.scenario << " " << c.sets);
        CommandOutcome check = run_pcisim("check " + args);
        CommandOutcome run = run_pcisim("run " + args);
        INFO("check: " << check.err << "\nrun: " << run.err);
        CHECK(check.exit_code == run.exit_code);
        CHECK(check.exit_code == (c.key.empty() ? 0 : 2));
        if (c.key.empty()) continue;
        CHECK(contains(check.err, "pcisim: " + c.key));
        CHECK(contains(run.err, "pcisim: " + c.key));
    }
}

}  // namespace test_check_equals_run
