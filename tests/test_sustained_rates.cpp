// Rates that mean what they say (issue 32, items 2-4): a rate is the one the port sustains over
// the window, receive and TCP check themselves, and no share of a window is above 1.  Each case
// of the issue is run as a user would, with the number it printed before in a comment.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "core/sim_time.h"
#include "run/sustained_rate.h"
#include "test_support.h"

namespace test_sustained_rates {

using nlohmann::json;
using namespace pcisim;
using namespace pcisim::test;

namespace {

// `frames` frames `interval_us` apart from `first_us` on, as the measurement saw them.
FrameCheck frames_at(unsigned frames, double first_us, double interval_us) {
    FrameCheck f;
    f.open_window();
    for (unsigned i = 0; i < frames; ++i) {
        const Picos t = ns_to_ps((first_us + i * interval_us) * 1000);
        if (f.window_frames > 0) f.longest_gap = std::max(f.longest_gap, t - f.last);
        if (f.window_frames++ == 0) f.first = t;
        f.last = t;
    }
    return f;
}

}  // namespace

TEST_CASE("frames spread over the window are sustained, a burst is not", "[rates]") {
    const Picos window = ns_to_ps(10000 * 1000);
    // 1000 frames 10 us apart fill the 10 ms window.
    CHECK(unsteady_frames(frames_at(1000, 5, 10), 0, window, false).empty());
    // 181 frames 13 us apart at its start (hp-ia64-netperf with driver.tdt_batch=60): their
    // rate is 76577 pps, the window's 18100.
    const std::string burst = unsteady_frames(frames_at(181, 10, 13.06), 0, window, false);
    CHECK(contains(burst, "181 frames in the 10000.0 us window come in bursts"));
    CHECK(contains(burst, "18100 pps over the window"));
    CHECK(contains(burst, "% of the window)"));
    // A workload that has finished (pktgen.count reached) is judged up to its last frame.
    CHECK(unsteady_frames(frames_at(181, 10, 13.06), 0, window, true).empty());
    // Two bursts at the window's edges agree with the count but leave a gap of most of it.
    FrameCheck two = frames_at(50, 0, 10);
    const Picos late = ns_to_ps(9500.0 * 1000);
    two.longest_gap = late - two.last;
    for (int i = 0; i < 50; ++i) two.last = late + ns_to_ps(i * 10.0 * 1000), ++two.window_frames;
    CHECK_FALSE(unsteady_frames(two, 0, window, false).empty());
}

TEST_CASE("a run whose frames come in bursts fails instead of printing the burst's rate",
          "[rates]") {
    // Interrupts held back 67 ms (TIDV = TADV = 65535, no ITR): the ring drains in a burst,
    // then waits.  It printed 7483 pps for 506 frames in 200 ms (2530 pps).
    CommandOutcome o = run_pcisim("run " + scenario_path("xeon-pcix-133") +
                                  " --set driver.tidv=65535 --set driver.tadv=65535"
                                  " --set driver.itr_per_s=0", "/dev/null");
    INFO(o.err);
    CHECK(o.exit_code == 1);
    CHECK(contains(o.err, "506 frames in the 200000.0 us window come in bursts: 7483 pps between "
                          "the first and the last frame, 2530 pps over the window"));
    CHECK(contains(o.err, "raise simulation.max_window_us (200000 us)"));
}

TEST_CASE("a TCP stream stopped by unannounced segments is the watchdog's, named", "[rates][tcp]") {
    // driver.tdt_batch 100 with a window of fewer segments (98304 B, 67 of 1448 B): the ring
    // holds the stream's segments without a TDT write, no ACK comes.  With 60 (the window
    // then held 59) it printed 76577 pps, 923 Mbit/s from one burst.
    CommandOutcome o =
        run_pcisim("run " + scenario_path("hp-ia64-netperf") + " --set driver.tdt_batch=100");
    INFO(o.err);
    CHECK(o.exit_code == 1);
    CHECK(contains(o.err, " in watchdog: no progress for "));
    CHECK(contains(o.err, "the TCP stream waits for ACKs of "));
    CHECK(contains(o.err, "without a TDT write (driver.tdt_batch 100)"));
}

TEST_CASE("receive checks itself: a ring run dry is the watchdog's, with its cause", "[rates][rx]") {
    CommandOutcome o = run_pcisim("run " + scenario_path("xeon-pcix-133-rx") +
                                  " --set testing.rx_driver_no_refill=true");
    INFO(o.err);
    CHECK(o.exit_code == 1);
    CHECK(contains(o.err, "while frames arrive to be received; port 0 receives: "));
    CHECK(contains(o.err, "the driver has handed the NIC no receive descriptor (RDT = RDH)"));
    // The frames that came before the driver turned the receiver on are counted as such.
    CHECK(contains(o.err, " while the receiver was off (RCTL.EN)"));
}

TEST_CASE("a receiving port's rate is never above what the wire offered", "[rates][rx]") {
    // 1514-byte frames at the line rate of 10 Mb/s: 813 pps.  A 2 ms window held 2 frames and
    // printed 1000 pps delivered of 813 offered.
    json r = pcisim_json("run " + scenario_path("xeon-pcix-133-rx") +
                         " --set nic.link_mbps=10 --set wire_source.size=1514");
    const json& rx = r["rx"];
    CHECK(rx["rx_pps"].get<double>() <= rx["offered_pps"].get<double>());
    CHECK(rx["frames_delivered"].get<double>() >= 10);
}

TEST_CASE("a receive FIFO still filling is no steady state", "[rates][rx]") {
    // Four ports at the line rate through the quad card: the NICs fall behind, their FIFOs
    // fill.  The 2 ms window after the warm-up printed 5514500 pps delivered, 0 missed, with
    // 875 of its arrivals still in the NICs.
    json r = pcisim_json("run " + scenario_path("xeon-pcix-133-quad-2cpu") +
                         " --set wire_source.enabled=true --set wire_source.ports=2"
                         " --set wire_source.receive_only=true");
    const json& rx = r["rx"];
    const double arrived = rx["frames_arrived"], delivered = rx["frames_delivered"],
                 missed = rx["missed_frames"];
    CHECK(arrived - delivered - missed <= 0.05 * arrived);
    CHECK(missed > 0);
}

TEST_CASE("no CPU share of the window is above 1, nor the TCP sender's CPU above 100 %",
          "[rates][tcp]") {
    // These printed busy + stalled + waiting of 1.00035 (netperf with TSO) and 1.00017: a wait
    // or a register read that began before the window counted whole.
    for (const char* name : {"hp-ia64-netperf-tso", "opteron-2.0-nforce", "hp-ia64-ftp"}) {
        INFO(name);
        json r = pcisim_json("run " + scenario_path(name));
        for (const json& cpu : r["cpus"]) {
            const double sum = cpu["busy_fraction"].get<double>() +
                               cpu["mmio_stall_fraction"].get<double>() +
                               cpu["waiting_fraction"].get<double>();
            CHECK(sum <= 1 + 1e-12);
        }
        if (r.contains("tcp")) CHECK(r["tcp"]["send_cpu_pct"].get<double>() <= 100 + 1e-10);
    }
}

TEST_CASE("explain refuses a window that holds one burst, and explains one of many", "[rates]") {
    // notxints with the stock ring: 253 packets let out per 1 ms cleanup tick.  explain's 1 ms
    // window held one burst and gave a period of 1316.5 ns against the run's 3855.3.
    const std::string args = "explain " + scenario_path("xeon-pcix-133") + " --set driver.notxints=true";
    CommandOutcome burst = run_pcisim(args);
    INFO(burst.err);
    CHECK(burst.exit_code == 1);
    CHECK(contains(burst.err, "the recorded window holds no steady traffic to explain: 253 frames "
                              "in the 1000.0 us window come in bursts"));
    CHECK(contains(burst.err, "choose a --window that spans many bursts"));
    TempDir dir;
    CommandOutcome many = run_pcisim(args + " --window 6000:26000 --json " + (dir / "x.json"));
    INFO(many.err);
    REQUIRE(many.exit_code == 0);
    const json x = json::parse(slurp(dir / "x.json"));
    // 20 bursts of 253 packets: about 1e9 / 253000 ns a packet.
    CHECK(x["period_ns"].get<double>() == Approx(1e9 / 253000).epsilon(0.05));
}

}  // namespace test_sustained_rates
