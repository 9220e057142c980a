// Robustness, end to end with the built binary: injected faults (testing.* keys) must be caught
// by the invariant checks and the watchdog, and a sweep must survive a crashing worker and an
// interrupt.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "tools/sweep/sweep_table.h"
#include "test_support.h"

namespace test_robustness {

namespace fs = std::filesystem;
namespace sweep = pcisim::sweep;
using namespace pcisim::test;

TEST_CASE("the watchdog stops a deadlocked ring and says what waits on what", "[robust]") {
    TempDir dir;
    // No write-backs: the driver never sees DD, never cleans, and the queue stops for good.
    // The window is long enough that only the watchdog can end the run.
    CommandOutcome o = run_pcisim("run " + scenario_path("phi-32-66-82541") +
                             " --set testing.nic_drop_writebacks=true"
                             " --set simulation.watchdog_us=1000"
                             " --set simulation.min_window_us=50000");
    CHECK(o.exit_code == 1);
    INFO(o.err);
    CHECK(contains(o.err, "invariant violated at "));
    CHECK(contains(o.err, " in watchdog: no progress for "));
    CHECK(contains(o.err, "driver queue stopped with 253 of 256 descriptors in use"));
    CHECK(contains(o.err, "NIC TDH 253 TDT 253"));
    CHECK(contains(o.err, "TX FIFO 0 of 16384 B used"));
    // The same scenario without the fault runs to the end.
    CHECK(run_pcisim("run " + scenario_path("phi-32-66-82541") + " --set simulation.watchdog_us=1000")
              .exit_code == 0);
}

TEST_CASE("a driver that overruns the TX ring is stopped by the NIC's check", "[robust]") {
    TempDir dir;
    CommandOutcome o = run_pcisim("run " + scenario_path("phi-32-66-82541") +
                             " --set testing.driver_ignore_ring_space=true");
    CHECK(o.exit_code == 1);
    INFO(o.err);
    // One line says it all (a sanitizer build may print its own warnings around it).
    std::istringstream lines(o.err);
    std::string line, diagnostic;
    while (std::getline(lines, line))
        if (line.rfind("pcisim run: simulation failed: ", 0) == 0) diagnostic = line;
    CHECK(diagnostic.find("invariant violated at ") != std::string::npos);
    CHECK(diagnostic.find(" in nic.port0: TX ring overrun: TDT written ") != std::string::npos);
}

TEST_CASE("the watchdog is never shorter than the quiet times the driver asks for", "[robust]") {
    TempDir dir;
    // notxints cleans from a 1 ms timer: frames may pause for about that long by design, so a
    // 100 us watchdog is widened to twice the timer period and the run completes.
    CHECK(run_pcisim("run " + scenario_path("phi-32-66-82541") +
                       " --set driver.notxints=true --set simulation.watchdog_us=100")
              .exit_code == 0);
}

TEST_CASE("a run over its wall-clock limit stops with a diagnostic", "[robust]") {
    TempDir dir;
    // 100 s of simulated time cannot be done in 0.2 s of wall clock.
    CommandOutcome o = run_pcisim("run " + scenario_path("phi-32-66-82541") +
                             " --set simulation.min_window_us=1e8"
                             " --set simulation.max_window_us=1e8 --set simulation.max_wall_s=0.2");
    CHECK(o.exit_code == 1);
    INFO(o.err);
    CHECK(contains(o.err, "wall-clock limit simulation.max_wall_s = 0.2 s exceeded"));
    CHECK(contains(o.err, "port 0: pktgen queued "));
}

namespace {

// A sweep with -j 1 of three points whose middle one fails: one worker runs the points in turn,
// the one after the failure is a new worker's, and the first and last run alike.  The middle
// point's error.
std::string middle_point_error(const std::string& vary) {
    TempDir dir;
    std::string out = dir / "sweep.csv";
    CommandOutcome o = run_pcisim("sweep " + scenario_path("phi-32-66-82541") + " --vary " +
                                  vary + " -j 1 -o " + out);
    CHECK(o.exit_code == 1);
    sweep::SweepTable t = sweep::read_table(out);
    REQUIRE(t.rows.size() == 3);
    CHECK(t.rows[0].ok);
    CHECK(t.rows[2].ok);
    CHECK_FALSE(t.rows[1].ok);
    if (t.rows[0].ok && t.rows[2].ok)
        CHECK(t.rows[0].metrics.at("tx_pps") == t.rows[2].metrics.at("tx_pps"));
    return t.rows[1].error;
}

}  // namespace

TEST_CASE("a sweep with a crashing point writes every other point", "[robust][sweep]") {
    // crash_at_us 1e9 is never reached; 50 us is, in the warm-up.
    std::string error = middle_point_error("testing.crash_at_us=0,50,1e9");
    INFO(error);
    CHECK(contains(error, "killed by signal 6"));
    CHECK(contains(error, "testing.crash_at_us: aborting at 50 us"));
}

TEST_CASE("a sweep with a point its worker refuses writes every other point", "[robust][sweep]") {
    CHECK(contains(middle_point_error("packet.size=60,100000,60"),
                   "packet.size: 100000 is out of range"));
}

TEST_CASE("an interrupted sweep leaves a valid partial output that --resume completes",
          "[robust][sweep]") {
    TempDir dir;
    std::string out = dir / "sweep.csv", err = dir / "sweep.err";
    // -j 1: point 0 takes milliseconds, point 1 (100 s of simulated bus, several wall seconds)
    // far longer, point 2 waits its turn.  SIGINT once point 0 is reported done.
    std::string args = " sweep " + scenario_path("bus-demo") +
                       " --vary simulation.min_window_us=200,1e8,300"
                       " --set simulation.max_window_us=1e8 --set simulation.warmup_us=20"
                       " --set simulation.batch_us=200 -j 1 -o " + out;
    int status = signal_when(args, err, "sweep: 1/3", SIGINT);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 130);
    sweep::SweepTable partial = sweep::read_table(out);
    REQUIRE(partial.rows.size() == 3);
    CHECK(partial.rows[0].ok);
    CHECK(partial.rows[1].error == "interrupted");
    CHECK(partial.rows[2].error == "interrupted");
    CHECK(partial.rows[2].index == 2);
    CHECK(contains(slurp(out), "interrupted"));

    // Resumed with a time limit: point 0 is kept, point 1 now fails by its limit, point 2 runs.
    CommandOutcome resumed = run_pcisim(args.substr(1) + " --resume --timeout-s 1");
    CHECK(resumed.exit_code == 1);
    CHECK(contains(resumed.err, "resuming: 1 of 3 points already done"));
    sweep::SweepTable done = sweep::read_table(out);
    REQUIRE(done.rows.size() == 3);
    CHECK(done.rows[0].metrics == partial.rows[0].metrics);
    CHECK(contains(done.rows[1].error, "time limit"));
    CHECK(done.rows[2].ok);
    // A different sweep is not resumed from this output.
    CHECK(run_pcisim(args.substr(1) + " --set bus.clock_mhz=66 --resume").exit_code == 2);
}

TEST_CASE("a long run shows its progress on a terminal, and never in a pipe", "[robust]") {
    TempDir dir;
    // 100 s of simulated time stopped by the wall-clock limit after 3 s: longer than the 2 s a
    // run stays quiet.
    const std::string run = pcisim_binary() + " run " + scenario_path("phi-32-66-82541") +
                            " --set simulation.min_window_us=1e8"
                            " --set simulation.max_window_us=1e8 --set simulation.max_wall_s=3";
    const std::string piped = dir / "piped.txt";
    std::system((run + " >/dev/null 2>" + piped).c_str());
    CHECK_FALSE(contains(slurp(piped), "simulating"));
    // script(1) gives the run a terminal; what it wrote there lands in the file.
    const std::string terminal = dir / "terminal.txt";
    std::system(("script -qec '" + run + "' " + terminal + " </dev/null >/dev/null 2>&1").c_str());
    const std::string shown = slurp(terminal);
    INFO(shown);
    CHECK(contains(shown, "pcisim run: phi-32-66-82541: simulating, 2 s of wall time"));
    CHECK(contains(shown, "wall-clock limit simulation.max_wall_s = 3 s exceeded"));
}

namespace {
// A sweep of `points` bus-demo points of `window_us` each writing to `out`.
std::string short_sweep(int points, const std::string& out, int window_us = 200, int jobs = 2) {
    const std::string window = std::to_string(window_us);
    return pcisim_binary() + " sweep " + scenario_path("bus-demo") +
           " --vary simulation.seed=1:" + std::to_string(points) +
           ":1 --set simulation.warmup_us=20 --set simulation.batch_us=200"
           " --set simulation.min_window_us=" + window + " --set simulation.max_window_us=" +
           window + " -j " + std::to_string(jobs) + " -o " + out;
}
}  // namespace

TEST_CASE("a sweep whose journal cannot be written stops, keeps whole lines, and resumes",
          "[robust][sweep]") {
    TempDir dir;
    const std::string out = dir / "f.csv", err = dir / "err.txt";
    // A 16 KiB file-size limit (SIGXFSZ ignored, so the write fails with EFBIG) stands for a
    // full disk: the journal's header and some rows fit, then a row does not.
    const std::string limited = "bash -c \"ulimit -f 16; trap '' XFSZ; exec " +
                                short_sweep(40, out) + "\" >/dev/null 2>" + err;
    int status = std::system(limited.c_str());
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 1);
    const std::string said = slurp(err);
    INFO(said);
    CHECK(contains(said, "cannot write " + (dir / "f.journal") + ": File too large; stopped the sweep"));
    CHECK(contains(said, "continue with the same command and --resume"));
    // Every point counted is in the journal, and the journal ends with a whole line.
    const std::string journal = slurp(dir / "f.journal");
    REQUIRE_FALSE(journal.empty());
    CHECK(journal.back() == '\n');
    const auto lines = static_cast<std::size_t>(std::count(journal.begin(), journal.end(), '\n'));
    CHECK(lines < 41);
    CHECK(contains(said, std::to_string(lines - 1) + " points of this run are in"));
    CHECK(contains(said, "sweep: " + std::to_string(lines - 1) + "/40 points"));
    CHECK_FALSE(contains(said, "sweep: " + std::to_string(lines) + "/40 points"));
    // Without the limit, --resume runs only the rest.
    CommandOutcome resumed = run_pcisim(short_sweep(40, out).substr(pcisim_binary().size()) +
                                        " --resume");
    CHECK(resumed.exit_code == 0);
    CHECK(contains(resumed.err, "resuming: " + std::to_string(lines - 1) + " of 40 points"));
    CHECK(sweep::read_table(out).rows.size() == 40);
}

TEST_CASE("a sweep whose report pipe closes stops cleanly and resumes", "[robust][sweep]") {
    TempDir dir;
    const std::string out = dir / "p.csv", rc = dir / "rc.txt";
    // Points of 20 ms simulated, one at a time: head has gone long before the last.
    std::system(("bash -c '" + short_sweep(6, out, 20000, 1) +
                 " 2>&1 | head -n 1 >/dev/null; echo ${PIPESTATUS[0]} >" + rc + "'")
                    .c_str());
    CHECK(slurp(rc) == "141\n");  // 128 + SIGPIPE, as the shell reports a command it ended
    sweep::SweepTable partial = sweep::read_table(out);
    REQUIRE(partial.rows.size() == 6);
    CHECK(partial.rows[0].ok);
    CHECK(partial.rows[5].error == "interrupted");
    CommandOutcome resumed =
        run_pcisim(short_sweep(6, out, 20000, 1).substr(pcisim_binary().size()) + " --resume");
    CHECK(resumed.exit_code == 0);
    CHECK(contains(resumed.err, "resuming: "));
}

}  // namespace test_robustness
