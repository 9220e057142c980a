// Simulations one after another in one process, each in a SystemC context of its own
// (run/kernel_context.h): a sweep's or validate's worker runs many points that way, and a point's
// results must not depend on what its worker ran before.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "simulated_runs.h"
#include "tools/sweep/worker_pool.h"

namespace test_kernel_context {

using namespace pcisim;
using nlohmann::json;

namespace {

// As unlike as sweep points get: PCI-X at 60 bytes, the Athlon's 64-bit PCI with its CPU caches
// at 1500, two ports with an SMP kernel, receive beside transmit.
struct Point {
    std::string scenario;
    std::vector<std::string> sets;
};
const std::vector<Point> kPoints = {
    {"xeon-pcix-133", {"packet.size=60"}},
    {"athlon-64-66-82546gb", {"packet.size=1500"}},
    {"xeon-pcix-133-2port-2cpu", {"kernel.smp=true"}},
    {"xeon-pcix-133-rx-tx", {}},
};

// The results as text: a rate that was not measured is NaN, which no JSON equals.
std::string simulate_point(std::size_t i) {
    return test::simulate_fixed(kPoints[i].scenario, kPoints[i].sets, 300, 100).dump();
}

// Each point's results from a process of its own, and from one worker that ran `order`.
std::vector<std::string> in_one_worker(const std::vector<std::size_t>& order) {
    std::vector<std::string> results(order.size());
    sweep::PoolOptions one_worker;
    one_worker.parallel = 1;
    sweep::run_jobs(
        order.size(), [&](std::size_t j) { return json(simulate_point(order[j])); }, one_worker,
        [&](std::size_t j, const sweep::JobOutcome& o) {
            INFO(o.error);
            REQUIRE(o.ok);
            results[j] = o.result.get<std::string>();
        });
    return results;
}

}  // namespace

TEST_CASE("a simulation gives the same results after others in its process as first in one") {
    // Each point first in a worker of its own, and one worker running them all in turn.  (The
    // workers fork before the test's process simulates: a fork of a process whose SystemC
    // threads have run leaves AddressSanitizer unsure of the new thread's stack, and it warns.)
    std::vector<std::string> first_in_worker;
    for (std::size_t i = 0; i < kPoints.size(); ++i)
        first_in_worker.push_back(in_one_worker({i})[0]);
    const std::vector<std::size_t> reversed = {3, 2, 1, 0};
    const std::vector<std::string> one_after_another = in_one_worker(reversed);
    // The test's own process: each point after the one before it, the first point again last.
    std::vector<std::string> in_turn;
    for (std::size_t i = 0; i < kPoints.size(); ++i) in_turn.push_back(simulate_point(i));
    CHECK(simulate_point(0) == in_turn[0]);
    for (std::size_t k = 0; k < reversed.size(); ++k) {
        const std::size_t i = reversed[k];
        INFO(kPoints[i].scenario);
        CHECK(one_after_another[k] == first_in_worker[i]);
        CHECK(one_after_another[k] == in_turn[i]);
    }
}

}  // namespace test_kernel_context
