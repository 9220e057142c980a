// Where the software runs (docs/smp.md): interrupts go to their affinity, the cleanup timer to
// the CPU that armed it, a UP kernel has no locked instructions, lines move between CPUs, a lock
// held on one CPU makes another spin, the seeded scheduler's placements.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>

#include "platform/host_bridge.h"
#include "test_support.h"

namespace test_smp {

using namespace pcisim;
using nlohmann::json;

namespace {

// One run of opteron-1.6 with `sets` in a process of its own (SystemC elaborates once per
// process, and these tests compare several runs).
json run(std::vector<std::string> sets) {
    // A 2 ms window, grown where notxints sends in bursts (the ring full until the cleanup
    // timer's tick) until the frames spread over it, as a rate needs (docs/robustness.md).
    for (auto& o : test::fixed_window(2000, 500)) sets.push_back(o);
    sets.push_back("simulation.max_window_us=40000");
    std::string args = "run " + test::scenario_path("opteron-1.6-pcix-133");
    for (const auto& s : sets) args += " --set " + s;
    return test::pcisim_json(args);
}

const std::vector<std::string> kNotxints = {"driver.notxints=true", "driver.ring_size=2048"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

}  // namespace

TEST_CASE("an interrupt goes to a CPU of its affinity mask") {
    json lowest = run({"irq.affinity=2"});  // CPU 1 only; pktgen on CPU 0
    REQUIRE(lowest["cpus"].size() == 2);
    CHECK(lowest["cpus"][0]["interrupts"] == 0);
    CHECK(lowest["cpus"][1]["interrupts"].get<int>() > 0);
    // Both CPUs, taken in turn: each gets about half.
    json rotate = run({"irq.affinity=3", "irq.delivery=rotate"});
    const int i0 = rotate["cpus"][0]["interrupts"], i1 = rotate["cpus"][1]["interrupts"];
    CHECK(i0 > 0);
    CHECK(i1 > 0);
    CHECK(std::abs(i0 - i1) <= 2);
    // Lowest priority on the Xeon's chipset: always the lowest-numbered CPU of the mask.
    json both = run({"irq.affinity=3"});
    CHECK(both["cpus"][1]["interrupts"] == 0);
}

TEST_CASE("the cleanup timer runs on the CPU that armed it") {
    json apart = run(with(kNotxints, {"driver.cleanup_timer_cpu=1"}));
    CHECK(apart["cpus"][0]["timer_ticks"] == 0);
    CHECK(apart["cpus"][1]["timer_ticks"].get<int>() >= 2);
    json together = run(kNotxints);
    REQUIRE(together["cpus"].size() == 1);
    CHECK(together["cpus"][0]["timer_ticks"].get<int>() >= 2);
}

TEST_CASE("lines freed on another CPU move between the caches, and the sender spins on the "
          "cleanup's lock") {
    json together = run(kNotxints);
    json apart = run(with(kNotxints, {"driver.cleanup_timer_cpu=1"}));
    CHECK(together["line_transfers_per_packet"] == 0.0);
    // The skb's refcount line (its free on CPU 1, its next use on CPU 0), its head, the
    // descriptors and buffer_info the cleanup zeroes.
    CHECK(apart["line_transfers_per_packet"].get<double>() > 4);
    CHECK(apart["cpus"][1]["line_transfers_by_use"]["skb_refcount"].get<int>() > 0);
    CHECK(apart["cpus"][0]["line_transfers_by_use"]["buffer_info"].get<int>() > 0);
    CHECK(apart["cpus"][0]["lock_spin_fraction"].get<double>() > 0.1);
    CHECK(together["cpus"][0]["lock_spin_fraction"] == 0.0);
    // Two CPUs are slower here than one: what smp.json measured.
    CHECK(apart["tx_pps"].get<double>() < 0.8 * together["tx_pps"].get<double>());
    // Without the cleanup's lock the sender does not wait for it.
    json unlocked =
        run(with(kNotxints, {"driver.cleanup_timer_cpu=1", "driver.notxints_clean_locked=false"}));
    CHECK(unlocked["cpus"][0]["lock_spin_fraction"] == 0.0);
    CHECK(unlocked["tx_pps"].get<double>() > apart["tx_pps"].get<double>());
}

TEST_CASE("a UP kernel has no locked instructions; an SMP kernel pays for each") {
    json smp = run(kNotxints);
    json up = run(with(kNotxints, {"kernel.smp=false"}));
    CHECK(up["locked_ops_per_packet"] == 0.0);
    CHECK(up["cpus"][0]["locked_ops"] == 0);
    CHECK(smp["locked_ops_per_packet"].get<double>() >= 3);
    // The same run with the lock prefix free: the SMP kernel's CPU is busier by their cost.
    json free_locks = run(with(kNotxints, {"cpu.cycles.locked_op=0"}));
    CHECK(smp["cpus"][0]["busy_fraction"].get<double>() >
          free_locks["cpus"][0]["busy_fraction"].get<double>());
}

TEST_CASE("CPUs the kernel does not run are refused, naming the key") {
    auto problems = test::load_problems(test::scenario_path("opteron-1.6-pcix-133"),
                                        {"kernel.maxcpus=1", "driver.cleanup_timer_cpu=1"});
    REQUIRE(problems.size() == 1);
    CHECK(test::contains(problems[0], "driver.cleanup_timer_cpu: CPU 1"));
    problems = test::load_problems(test::scenario_path("opteron-1.6-pcix-133"),
                                   {"kernel.smp=false", "irq.affinity=3"});
    REQUIRE(problems.size() == 1);
    CHECK(test::contains(problems[0], "irq.affinity: CPU 1"));
}

TEST_CASE("the seeded scheduler places the thread and the timer the same way for the same seed, "
          "and the placements give two modes") {
    std::vector<double> rates;
    for (int seed = 1; seed <= 6; ++seed)
        rates.push_back(run(with(kNotxints, {"placement.seed=" + std::to_string(seed)}))["tx_pps"]);
    CHECK(run(with(kNotxints, {"placement.seed=3"}))["tx_pps"].get<double>() == rates[2]);
    const auto [lo, hi] = std::minmax_element(rates.begin(), rates.end());
    CHECK(*hi > 1.3 * *lo);  // together and apart
}

TEST_CASE("a DMA read of another NUMA node's memory crosses one more hop") {
    HostConfig c;
    c.memory_bytes = 64ull << 20;
    c.numa_nodes = 2;
    c.numa_hop_ps = 30000;
    HostBridge host("host", c);
    const Picos local = host.read_time(0x100000, 64);
    CHECK(host.read_time((48ull << 20), 64) == local + 30000);
}

TEST_CASE("explain says which CPU ran what and prices what the CPUs cost each other") {
    test::TempDir dir;
    const auto outcome = test::run_pcisim(
        "explain " + test::scenario_path("opteron-1.6-pcix-133") +
        " --set driver.notxints=true --set driver.ring_size=2048 --set driver.cleanup_timer_cpu=1"
        // notxints sends in bursts between the timer's ticks: a window over several of them.
        " --window 1000:11000 --json " + (dir / "x.json"));
    INFO(outcome.err);
    REQUIRE(outcome.exit_code == 0);
    const json x = json::parse(test::slurp(dir / "x.json"));
    REQUIRE(x["cpus"].size() == 2);
    const json& sender = x["cpus"][0];
    const json& cleaner = x["cpus"][1];
    CHECK(sender["pktgen_threads"].size() == 1);
    CHECK(cleaner["pktgen_threads"].empty());
    CHECK(sender["timer_ticks"] == 0);
    CHECK(cleaner["timer_ticks"].get<int>() > 0);
    // The cleaner takes each skb's refcount line from the sender; the sender spins on its lock
    // and takes back the descriptors and buffer_info it zeroed.
    CHECK(cleaner["lines_in_by_use_per_packet"]["skb_refcount"].get<double>() > 0.9);
    CHECK(sender["lines_in_by_use_per_packet"]["buffer_info"].get<double>() > 0.3);
    CHECK(sender["lock_spin_ns_per_packet"].get<double>() > 100);
    CHECK(sender["locked_ops_per_packet"].get<double>() >= 3);
}

}  // namespace test_smp
