// validate simulates each checked scenario once: points whose overrides change nothing share a
// run, and a run is read for every result its points ask for; anything that makes the checked
// scenario differ (the size, an override that changes a value) is a run of its own.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tools/validate/shared_runs.h"

namespace test_validate_runs {

using pcisim::validate::plan_runs;
using pcisim::validate::SimPoint;

TEST_CASE("validate: points whose checked scenarios are the same share one run") {
    // asus-32-33-shared is a uniprocessor whose pktgen sends a fresh skb per packet.
    SimPoint plain{"asus-32-33-shared", {}, 60};
    SimPoint clone_none{"asus-32-33-shared", {"pktgen.clone_skb=0"}, 60};
    SimPoint up{"asus-32-33-shared", {"kernel.smp=false"}, 60};
    SimPoint received = plain;
    received.result = "/rx/rx_pps";
    SimPoint other_size{"asus-32-33-shared", {}, 64};
    SimPoint cloning{"asus-32-33-shared", {"pktgen.clone_skb=1000000"}, 60};
    auto plan = plan_runs({plain, clone_none, up, received, plain, other_size, cloning});
    CHECK(plan.failures.empty());
    REQUIRE(plan.runs.size() == 3);
    std::vector<std::string> shared;
    for (const auto& p : plan.runs[0].points) shared.push_back(p.key());
    // The same point twice is one point.
    CHECK(shared == std::vector<std::string>{plain.key(), clone_none.key(), up.key(),
                                             received.key()});
    CHECK(plan.scenario(0).integer("packet.size") == 60);
    CHECK(plan.runs[1].points.size() == 1);
    CHECK(plan.scenario(1).integer("packet.size") == 64);
    CHECK(plan.runs[2].points.front().key() == cloning.key());
}

TEST_CASE("validate: a point whose scenario does not check fails alone, with the reason") {
    SimPoint good{"asus-32-33-shared", {}, 60};
    SimPoint bad_set{"asus-32-33-shared", {"pktgen.no_such_key=1"}, 60};
    SimPoint no_file{"no-such-scenario", {}, 60};
    auto plan = plan_runs({good, bad_set, no_file});
    REQUIRE(plan.runs.size() == 1);
    CHECK(plan.runs[0].points.front().key() == good.key());
    REQUIRE(plan.failures.size() == 2);
    CHECK(plan.failures[0].rfind(bad_set.key() + ": ", 0) == 0);
    CHECK(plan.failures[0].find("no_such_key") != std::string::npos);
    CHECK(plan.failures[1].rfind(no_file.key() + ": ", 0) == 0);
}

}  // namespace test_validate_runs
