// pcisim sweep and merge, end to end: the built binary on the bus demo with short windows.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "tools/sweep/csv.h"
#include "tools/sweep/sweep_axes.h"
#include "tools/sweep/sweep_journal.h"
#include "tools/sweep/sweep_table.h"
#include "tools/sweep/worker_pool.h"
#include "test_support.h"

namespace test_sweep {

namespace fs = std::filesystem;
using nlohmann::json;
namespace sweep = pcisim::sweep;
using namespace pcisim::test;

namespace {

const std::string kScenario = std::string(PCISIM_SOURCE_DIR) + "/scenarios/bus-demo.json";
const std::string kShort = " --set simulation.warmup_us=20 --set simulation.batch_us=200"
                           " --set simulation.min_window_us=200";

int run(const std::string& command) {
    int status = std::system((command + " 2>/dev/null >/dev/null").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("a 3-point sweep gives the metrics of 3 single runs", "[sweep]") {
    TempDir dir;
    std::string out = dir / "sweep.csv";
    REQUIRE(run(pcisim_binary() + " sweep " + kScenario + " --vary masters.0.bytes=128:384:128" + kShort +
                " -j 2 -o " + out) == 0);
    sweep::SweepTable table = sweep::read_table(out);
    REQUIRE(table.rows.size() == 3);
    std::ifstream csv_in(out);
    auto csv = sweep::read_csv(csv_in);
    REQUIRE(csv.size() == 4);
    CHECK(csv[0][0] == "masters.0.bytes");
    CHECK(csv[0][1] == "status");
    CHECK(csv[0][2] == "error");
    for (std::size_t i = 0; i < 3; ++i) {
        const sweep::SweepRow& row = table.rows[i];
        CHECK(row.index == i);
        CHECK(row.ok);
        CHECK(row.values[0] == json(128 * (i + 1)));
        CHECK(csv[i + 1][0] == std::to_string(128 * (i + 1)));
        std::string single = dir / ("single" + std::to_string(i) + ".json");
        REQUIRE(run(pcisim_binary() + " run " + kScenario + " --set masters.0.bytes=" +
                    std::to_string(128 * (i + 1)) + kShort + " --json " + single) == 0);
        auto expected = sweep::flatten_metrics(json::parse(slurp(single)));
        REQUIRE(!expected.empty());
        CHECK(row.metrics == expected);
    }
    // Different sizes must give different rates, or the comparison above proves little.
    CHECK(table.rows[0].metrics.at("bus.data_bytes_per_s") !=
          table.rows[2].metrics.at("bus.data_bytes_per_s"));
}

TEST_CASE("a failing point is reported with its reason and the others land", "[sweep]") {
    TempDir dir;
    std::string out = dir / "sweep.csv";
    // 100 MHz is no PCI clock: that point fails the scenario check, exit code 1.
    CHECK(run(pcisim_binary() + " sweep " + kScenario + " --vary bus.clock_mhz=33,100,66" + kShort +
              " -o " + out) == 1);
    sweep::SweepTable table = sweep::read_table(out);
    REQUIRE(table.rows.size() == 3);
    CHECK(table.rows[0].ok);
    CHECK(table.rows[2].ok);
    CHECK_FALSE(table.rows[1].ok);
    CHECK(table.rows[1].error.find("bus.clock_mhz") != std::string::npos);
    CHECK(table.rows[1].metrics.empty());
    std::ifstream csv_in(out);
    auto csv = sweep::read_csv(csv_in);
    REQUIRE(csv.size() == 4);
    CHECK(csv[2][1] == "failed");
    CHECK(csv[2][2] == table.rows[1].error);
    CHECK(csv[1][1] == "ok");
}

TEST_CASE("a point that exceeds the time limit fails alone", "[sweep]") {
    TempDir dir;
    std::string out = dir / "sweep.csv";
    // A 100 s window cannot finish within 1 s (bus-demo runs at about 13x real time); a 200 us
    // window can.  One worker runs them in turn: the point after the killed one is a new
    // worker's.
    CHECK(run(pcisim_binary() + " sweep " + kScenario +
              " --vary simulation.min_window_us=200,1e8,200" +
              " --set simulation.max_window_us=1e8 --set simulation.warmup_us=20" +
              " --set simulation.batch_us=200 --timeout-s 1 -j 1 -o " + out) == 1);
    sweep::SweepTable table = sweep::read_table(out);
    REQUIRE(table.rows.size() == 3);
    CHECK(table.rows[0].ok);
    CHECK_FALSE(table.rows[1].ok);
    CHECK(table.rows[1].error.find("time limit") != std::string::npos);
    CHECK(table.rows[2].ok);
}

TEST_CASE("two shards merged equal the unsharded sweep", "[sweep]") {
    TempDir dir;
    std::string axes = " --vary masters.0.bytes=128,256,384 bus.clock_mhz=33,66" + kShort;
    REQUIRE(run(pcisim_binary() + " sweep " + kScenario + axes + " -o " + (dir / "all.csv")) == 0);
    REQUIRE(run(pcisim_binary() + " sweep " + kScenario + axes + " --shard 0/2 -o " + (dir / "s0.csv")) == 0);
    REQUIRE(run(pcisim_binary() + " sweep " + kScenario + axes + " --shard 1/2 -o " + (dir / "s1.csv")) == 0);
    CHECK(sweep::read_table(dir / "s0.csv").rows.size() == 3);
    // Shards given in any order.
    REQUIRE(run(pcisim_binary() + " merge " + (dir / "merged.csv") + " " + (dir / "s1.csv") + " " +
                (dir / "s0.csv")) == 0);
    CHECK(slurp(dir / "merged.csv") == slurp(dir / "all.csv"));
    // The JSON too, but for its provenance: the merged one names the merge command.
    json merged = json::parse(slurp(dir / "merged.json"));
    json all = json::parse(slurp(dir / "all.json"));
    CHECK(merged["provenance"]["command_line"].at(1) == "merge");
    CHECK(all["provenance"]["command_line"].at(1) == "sweep");
    merged.erase("provenance");
    all.erase("provenance");
    CHECK(merged == all);
    // Shards of another scenario are refused, naming what differs, whatever their file names.
    REQUIRE(run(pcisim_binary() + " sweep " + kScenario + axes + " --shard 1/2 --set "
                "host.memory_latency_ns=151 -o " + (dir / "other.csv")) == 0);
    CommandOutcome other =
        run_pcisim("merge " + (dir / "bad.csv") + " " + (dir / "s0.csv") + " " + (dir / "other.csv"));
    CHECK(other.exit_code == 2);
    CHECK(contains(other.err, "shard 2 comes from a different sweep: "));
    CHECK(contains(other.err, "the resolved scenario (at /host/memory_latency_ns) differs"));
    // A missing shard is an error, not a shorter result.
    CHECK(run(pcisim_binary() + " merge " + (dir / "bad.csv") + " " + (dir / "s0.csv")) == 2);
    CHECK_FALSE(fs::exists(dir / "bad.csv"));
}

TEST_CASE("merge refuses rows that are not points of their sweep", "[sweep]") {
    TempDir dir;
    std::string axes = " --vary masters.0.bytes=128,256 bus.clock_mhz=33,66" + kShort;
    REQUIRE(run(pcisim_binary() + " sweep " + kScenario + axes + " --shard 0/2 -o " + (dir / "s0.csv")) == 0);
    REQUIRE(run(pcisim_binary() + " sweep " + kScenario + axes + " --shard 1/2 -o " + (dir / "s1.csv")) == 0);
    const json good = json::parse(slurp(dir / "s1.json"));
    struct Edit {
        const char* what;
        std::function<void(json&)> edit;
        const char* message;
    };
    const std::vector<Edit> edits = {
        {"a value off its axis", [](json& d) { d["rows"][0]["values"]["bus.clock_mhz"] = 100; },
         "point 1: bus.clock_mhz is 100, where the axes put 66"},
        {"a status neither ok nor failed", [](json& d) { d["rows"][0]["status"] = "maybe"; },
         "status \"maybe\"; expected ok or failed"},
        {"a point of the other shard", [](json& d) { d["rows"][0]["point"] = 2; },
         "point 2: not in shard 1/2"},
        {"a point past the product", [](json& d) { d["rows"][0]["point"] = 9; },
         "point 9: beyond the 4 points of the sweep"},
        {"a failed row without its reason",
         [](json& d) { d["rows"][0]["status"] = "failed", d["rows"][0]["error"] = ""; },
         "status failed without its reason"},
        {"a metric that is no number", [](json& d) { d["rows"][0]["metrics"]["tx_pps"] = "fast"; },
         "metric tx_pps is \"fast\", not a number"},
        {"points_total that does not fit the axes", [](json& d) { d["points_total"] = 6; },
         "points_total 6 and shard do not fit the 4 points"},
    };
    for (const Edit& e : edits) {
        INFO(e.what);
        json doc = good;
        e.edit(doc);
        std::ofstream(dir / "s1.json") << doc.dump();
        CommandOutcome o =
            run_pcisim("merge " + (dir / "m.csv") + " " + (dir / "s0.csv") + " " + (dir / "s1.csv"));
        INFO(o.err);
        CHECK(o.exit_code == 2);
        CHECK(contains(o.err, e.message));
        CHECK_FALSE(fs::exists(dir / "m.csv"));
    }
}

TEST_CASE("bad sweep arguments exit 2 naming the key", "[sweep]") {
    TempDir dir;
    std::string base = pcisim_binary() + " sweep " + kScenario + " -o " + (dir / "x.csv");
    CHECK(run(base + " --vary bus.clock_mhz") == 2);
    CHECK(run(base + " --vary bus.clock_mhz=66:33:1") == 2);
    CHECK(run(base + " --vary bus.clock_mhz=33:66:0") == 2);
    CHECK(run(base + " --vary bus.no_such_key=1,2") == 2);
    CHECK(run(base + " --vary bus.clock_mhz=33 --shard 2/2") == 2);
    CHECK_FALSE(fs::exists(dir / "x.csv"));
    // A list item the scenario does not have would fail every point: refused up front.
    const std::string quad = "sweep " + scenario_path("xeon-pcix-133-quad-2cpu") + " -o " + (dir / "x.csv");
    CommandOutcome past = run_pcisim(quad + " --vary nics.3.model=82546,82545");
    CHECK(past.exit_code == 2);
    CHECK(contains(past.err, "--vary nics.3.model: index 3 is past the end of nics (2 items"));
    CommandOutcome no_list = run_pcisim(
        "sweep " + scenario_path("xeon-pcix-133") + " -o " + (dir / "x.csv") + " --vary nics.0.model=82546");
    CHECK(no_list.exit_code == 2);
    CHECK(contains(no_list.err, "--vary nics.0.model: nics is no list in the scenario"));
    CHECK_FALSE(fs::exists(dir / "x.csv"));
    CHECK_THROWS_WITH(sweep::parse_axis("packet.size=60:x:4"), Catch::Contains("packet.size") &&
                                                                  Catch::Contains("A:B:STEP"));
    CHECK_THROWS_WITH(sweep::check_key_known("bus.clok_mhz", "--vary bus.clok_mhz=33"),
                      Catch::Contains("bus.clok_mhz"));
}

TEST_CASE("sweep --vary ranges and lists give the expected values", "[sweep]") {
    auto range = sweep::parse_axis("packet.size=60:72:4");
    CHECK(range.key == "packet.size");
    CHECK(range.values == std::vector<json>{60, 64, 68, 72});
    CHECK(sweep::parse_axis("x=0.1:0.3:0.1").values.size() == 3);  // no float drift past B
    CHECK(sweep::parse_axis("bus.kind=pci,pcix").values == std::vector<json>{"pci", "pcix"});
    std::vector<sweep::Axis> axes = {sweep::parse_axis("a=1,2"), sweep::parse_axis("b=3,4,5")};
    CHECK(sweep::point_count(axes) == 6);
    auto p = sweep::point_at(axes, 4);  // the last axis varies fastest
    CHECK(p.values == std::vector<json>{2, 4});
    CHECK(sweep::point_overrides(axes, p) == std::vector<std::string>{"a=2", "b=4"});
    auto shard = sweep::shard_points(axes, sweep::parse_shard("1/4"));
    REQUIRE(shard.size() == 2);
    CHECK(shard[0].index == 1);
    CHECK(shard[1].index == 5);
}

// Durable sweeps (issue 18): checked outputs, a lock, a journal, bounded sizes.

namespace {

// A sweep whose one point would run for minutes: whatever ends it early did so before the point.
const std::string kLongPoint = " --set simulation.max_window_us=1e8 --set simulation.warmup_us=20"
                               " --vary simulation.min_window_us=1e8";

}  // namespace

TEST_CASE("a sweep refuses an output it cannot or must not write before the first point",
          "[sweep]") {
    TempDir dir;
    std::string sweep = "sweep " + kScenario + kLongPoint + " -o ";
    CommandOutcome missing = run_pcisim(sweep + (dir / "no/such/folder/out.csv"));
    CHECK(missing.exit_code == 2);
    CHECK(contains(missing.err, "no/such/folder does not exist; expected an existing folder"));

    // A device node would be replaced by the renamed file.
    CommandOutcome device = run_pcisim(sweep + "/dev/null");
    CHECK(device.exit_code == 2);
    CHECK(contains(device.err, "-o /dev/null: not a regular file"));
    CHECK(fs::is_character_file("/dev/null"));
    CommandOutcome folder = run_pcisim(sweep + dir.path.string());
    CHECK(folder.exit_code == 2);
    CHECK(contains(folder.err, "not a regular file"));

    // The scenario it reads, as the CSV or as the JSON beside it.
    std::string scenario = dir / "scen.json";
    fs::copy_file(kScenario, scenario);
    const std::string text = slurp(scenario);
    for (const std::string& out : {dir / "scen.json", dir / "scen.csv"}) {
        CommandOutcome input = run_pcisim("sweep " + scenario + kLongPoint + " -o " + out);
        CHECK(input.exit_code == 2);
        CHECK(contains(input.err, "is the input file " + scenario));
    }
    CHECK(slurp(scenario) == text);
    CHECK_FALSE(fs::exists(dir / "scen.journal"));
}

TEST_CASE("a second sweep on the same output is refused while the first runs", "[sweep]") {
    TempDir dir;
    std::string out = dir / "out.csv";
    pid_t first = fork();
    REQUIRE(first >= 0);
    if (first == 0) {
        std::string command = "exec " + pcisim_binary() + " sweep " + kScenario + kLongPoint +
                              " -j 1 -o " + out + " >/dev/null 2>/dev/null";
        execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!fs::exists(dir / "out.journal") && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    REQUIRE(fs::exists(dir / "out.journal"));
    CommandOutcome second = run_pcisim("sweep " + kScenario + " --vary masters.0.bytes=128" + kShort +
                                         " -o " + out);
    CHECK(second.exit_code == 2);
    CHECK(contains(second.err, out + " is being written by process " + std::to_string(first)));
    CommandOutcome merge = run_pcisim("merge " + out + " " + (dir / "shard.csv"));
    CHECK(merge.exit_code == 2);
    CHECK(contains(merge.err, "is being written by"));
    // The kernel drops the lock of a killed sweep: no stale lock stops the next one.
    kill(first, SIGKILL);
    waitpid(first, nullptr, 0);
    CHECK(run_pcisim("sweep " + kScenario + " --vary masters.0.bytes=128" + kShort + " -o " +
                              out)
              .exit_code == 0);
    CHECK_FALSE(fs::exists(dir / "out.lock"));
}

TEST_CASE("a key both set and varied is refused", "[sweep]") {
    TempDir dir;
    CommandOutcome o = run_pcisim("sweep " + kScenario + " --set masters.0.bytes=70" +
                                    " --vary masters.0.bytes=128,256 -o " + (dir / "x.csv"));
    CHECK(o.exit_code == 2);
    CHECK(contains(o.err, "--set masters.0.bytes=70: \"masters.0.bytes\" is also varied"));
    CHECK_FALSE(fs::exists(dir / "x.csv"));
    std::vector<sweep::Axis> axes = {sweep::parse_axis("masters.0.bytes=128,256")};
    // The same key written another way, or the object holding it.
    CHECK_THROWS_AS(sweep::check_not_set(axes, {"masters[0].bytes=70"}), sweep::UsageError);
    CHECK_THROWS_AS(sweep::check_not_set(axes, {"masters.0={\"bytes\":70}"}), sweep::UsageError);
    CHECK_NOTHROW(sweep::check_not_set(axes, {"masters.0.bytes_total=70", "masters.1.bytes=70"}));
}

TEST_CASE("the point count cannot overflow and large sweeps need --force", "[sweep]") {
    TempDir dir;
    std::string base = "sweep " + kScenario + " -o " + (dir / "x.csv");
    // 65536^4 = 2^64 wrapped to 0 points, once.
    std::string wraps = " --vary packet.size=1:65536:1 bus.clock_mhz=1:65536:1"
                        " driver.ring_size=1:65536:1 masters.0.bytes=1:65536:1";
    CommandOutcome o = run_pcisim(base + wraps + " --force");
    CHECK(o.exit_code == 2);
    CHECK(contains(o.err, "the product of the axes has more than"));
    std::vector<sweep::Axis> axes(4, sweep::parse_axis("packet.size=1:65536:1"));
    CHECK_THROWS_AS(sweep::point_count(axes), sweep::UsageError);
    // 1e15 points would eat the memory even with --force.
    o = run_pcisim(base + " --vary packet.size=1:100000:1 bus.clock_mhz=1:100000:1"
                               " masters.0.bytes=1:100000:1 --force");
    CHECK(o.exit_code == 2);
    CHECK(contains(o.err, "1000000000000000 points is more than one run can hold"));
    // 1.8 million points: refused without --force, and none runs.
    o = run_pcisim(base + " --vary packet.size=1:2000:1 masters.0.bytes=1:900:1");
    CHECK(o.exit_code == 2);
    CHECK(contains(o.err, "1800000 points is more than 100000"));
    CHECK(contains(o.err, "--force"));
    CHECK_FALSE(fs::exists(dir / "x.csv"));
    CHECK_FALSE(fs::exists(dir / "x.journal"));
    CHECK(sweep::shard_point_count(1800000, sweep::parse_shard("3/20")) == 90000);
    CHECK(sweep::shard_point_count(10, sweep::parse_shard("3/4")) == 2);  // points 3 and 7
}

TEST_CASE("sweep -j and --timeout-s take only sensible numbers", "[sweep]") {
    TempDir dir;
    std::string base = "sweep " + kScenario + kLongPoint + " -o " + (dir / "x.csv");
    for (const char* j : {"-1", "0", "nan", "1.5", "1e9", "x"}) {
        CommandOutcome o = run_pcisim(base + " -j " + j);
        CHECK(o.exit_code == 2);
        CHECK(contains(o.err, std::string("-j ") + j + ": expected a whole number from 1 to 1024"));
    }
    for (const char* t : {"nan", "inf", "-1"}) {
        CommandOutcome o = run_pcisim(base + " --timeout-s " + t);
        CHECK(o.exit_code == 2);
        CHECK(contains(o.err, std::string("--timeout-s ") + t + ": expected a finite number >= 0"));
    }
    CHECK_FALSE(fs::exists(dir / "x.journal"));
}

TEST_CASE("the journal keeps every whole line and drops a torn one", "[sweep]") {
    TempDir dir;
    sweep::SweepTable table;
    table.scenario_file = "s.json";
    table.axes = {sweep::parse_axis("packet.size=60,64,68")};
    table.points_total = 3;
    table.base_scenario = {{"name", "t"}};
    auto row = [](std::size_t i, bool ok) {
        sweep::SweepRow r;
        r.index = i;
        r.values = {json(60 + 4 * i)};
        r.ok = ok;
        r.error = ok ? "" : "worker killed by signal 6";
        if (ok) r.metrics["tx_pps"] = 1000.5 + i;
        return r;
    };
    std::string path = dir / "s.journal";
    {
        sweep::SweepJournal j(path, table, false);
        j.append(row(2, true));
        j.append(row(0, false));
        j.append(row(0, true));  // the failed point, run again
    }
    // A power cut in the middle of the next line.
    { std::ofstream(path, std::ios::app) << "{\"point\":1,\"val"; }
    auto rows = sweep::SweepJournal::read(path, table);
    REQUIRE(rows.size() == 2);
    CHECK(rows.at(0).ok);
    CHECK(rows.at(2).metrics == row(2, true).metrics);
    {
        sweep::SweepJournal j(path, table, true);  // continues after the last whole line
        j.append(row(1, true));
    }
    rows = sweep::SweepJournal::read(path, table);
    CHECK(rows.size() == 3);
    std::istringstream lines(slurp(path));
    std::size_t count = 0;
    for (std::string line; std::getline(lines, line); ++count)
        CHECK_FALSE(json::parse(line, nullptr, false).is_discarded());
    CHECK(count == 5);  // the identity, then 4 rows: the torn one is gone
    // Another sweep's journal is not taken for this one's.
    sweep::SweepTable other = table;
    other.sets = {"bus.clock_mhz=66"};
    CHECK_THROWS_WITH(sweep::SweepJournal::read(path, other), Catch::Contains("different sweep"));
    // Starting afresh replaces it.
    { sweep::SweepJournal j(path, other, false); }
    CHECK(sweep::SweepJournal::read(path, other).empty());
}

TEST_CASE("a sweep stopped by SIGHUP writes what it finished and --resume completes it",
          "[sweep]") {
    TempDir dir;
    std::string out = dir / "out.csv", err = dir / "err.txt";
    // Point 0 is quick, point 1 would take minutes.
    std::string args = " sweep " + kScenario + " --vary simulation.min_window_us=200,1e8" +
                       " --set simulation.max_window_us=1e8 --set simulation.warmup_us=20" +
                       " --set simulation.batch_us=200 -j 1 -o " + out;
    int status = signal_when(args, err, "sweep: 1/2", SIGHUP);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 128 + SIGHUP);
    sweep::SweepTable partial = sweep::read_table(out);
    REQUIRE(partial.rows.size() == 2);
    CHECK(partial.rows[0].ok);
    CHECK(partial.rows[1].error == "interrupted");
    CHECK_FALSE(fs::exists(dir / "out.journal"));  // its rows are in the outputs
    CommandOutcome resumed = run_pcisim(args.substr(1) + " --resume --timeout-s 0.5");
    CHECK(resumed.exit_code == 1);
    CHECK(contains(resumed.err, "resuming: 1 of 2 points already done"));
}

TEST_CASE("a sweep whose strings are not UTF-8 is refused naming the key", "[sweep]") {
    TempDir dir;
    std::string out = dir / "x.csv";
    CommandOutcome o = run_pcisim("sweep " + kScenario + " --set \"name=caf$(printf '\\351')\"" +
                                    " --vary masters.0.bytes=128" + kShort + " -o " + out);
    CHECK(o.exit_code == 2);
    CHECK(contains(o.err, "name: the string \"caf\\xE9\" is not valid UTF-8"));
    CHECK_FALSE(fs::exists(out));
    o = run_pcisim("sweep " + kScenario + " --vary \"name=a,b$(printf '\\377')\"" + kShort +
                            " -o " + out);
    CHECK(o.exit_code == 2);
    CHECK(contains(o.err, "the string \"b\\xFF\" is not valid UTF-8"));
}

TEST_CASE("a pool left by an exception leaves no worker behind", "[sweep]") {
    // on_done throws at the first result: the workers, busy or waiting for a job, are killed and
    // reaped before the exception leaves run_jobs.
    sweep::PoolOptions two;
    two.parallel = 2;
    CHECK_THROWS_WITH(sweep::run_jobs(
                          10, [](std::size_t j) { return json(j); }, two,
                          [](std::size_t, const sweep::JobOutcome&) {
                              throw std::runtime_error("the caller gave up");
                          }),
                      "the caller gave up");
    errno = 0;
    CHECK(waitpid(-1, nullptr, WNOHANG) == -1);
    CHECK(errno == ECHILD);
}

}  // namespace test_sweep
