// A sweep killed with SIGKILL at pseudo-random moments (a fixed seed: the same moments in every
// run) and resumed each time ends with the same bytes as a sweep never interrupted, and no kill
// loses a point the journal recorded or records one twice.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "test_support.h"

namespace test_sweep_chaos {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace pcisim::test;

namespace {

using Clock = std::chrono::steady_clock;

// 10 points of the bus demo, two at a time: a quarter of a second or so in all.
const std::string kSweepArgs =
    " sweep " + scenario_path("bus-demo") +
    " --vary masters.0.bytes=64:640:64 --set simulation.warmup_us=20"
    " --set simulation.batch_us=1000 --set simulation.min_window_us=1000 -j 2";

// Starts pcisim with `args` in its own process; stderr goes to `err`.  The file is emptied here,
// before the fork: a kill that comes before the child's shell has opened it must not leave the
// previous run's words to be read as this run's.
pid_t start(const std::string& args, const std::string& err) {
    std::ofstream(err, std::ios::trunc);
    pid_t pid = fork();
    if (pid == 0) {
        std::string command = "exec " + pcisim_binary() + args + " >/dev/null 2>" + err;
        execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    return pid;
}

int finish(pid_t pid) {
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

// The point indices of the rows in a journal (its first line is the sweep's identity), in the
// order they were recorded.
std::vector<std::size_t> journaled_points(const std::string& path) {
    std::vector<std::size_t> points;
    if (!fs::exists(path)) return points;
    std::istringstream in(slurp(path));
    std::string line;
    for (bool header = true; std::getline(in, line); header = false) {
        if (header) continue;
        json row = json::parse(line, nullptr, false);
        if (row.is_discarded()) break;  // torn by the kill: not a recorded point
        REQUIRE(row.at("status") == "ok");
        points.push_back(row.at("point").get<std::size_t>());
    }
    return points;
}

// The ok points of a sweep's JSON output, when it has written one.
std::set<std::size_t> output_points(const std::string& path) {
    std::set<std::size_t> points;
    if (!fs::exists(path)) return points;
    const json doc = json::parse(slurp(path));  // not a temporary: the loop holds its rows
    for (const auto& row : doc.at("rows"))
        if (row.at("status") == "ok") points.insert(row.at("point").get<std::size_t>());
    return points;
}

// "resuming: N of 10 points already done" -> N.
std::size_t resumed_count(const std::string& err) {
    const std::string mark = "resuming: ";
    std::size_t at = err.find(mark);
    REQUIRE(at != std::string::npos);
    return std::stoul(err.substr(at + mark.size()));
}

}  // namespace

TEST_CASE("a sweep killed with SIGKILL and resumed gives the output of an uninterrupted one",
          "[sweep][chaos]") {
    TempDir dir;
    const std::string ref = dir / "ref.csv", out = dir / "chaos.csv", err = dir / "err.txt";
    const std::string journal = dir / "chaos.journal";

    Clock::time_point t0 = Clock::now();
    REQUIRE(finish(start(kSweepArgs + " -o " + ref, err)) == 0);
    const auto sweep_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
    INFO("uninterrupted sweep: " << sweep_ms.count() << " ms");

    std::mt19937 rng(20041203);  // fixed: the same kill moments every run
    std::set<std::size_t> recorded;  // the points a resume would find after the last kill
    int kills = 0;
    // At most this fraction of the uninterrupted sweep's time, so that a run is killed before it
    // finishes; halved and the sweep started afresh if the very first run finished anyway (the
    // uninterrupted sweep was slowed by a busy machine).
    double longest = 0.6;
    for (int attempt = 0; attempt < 12 && kills < 6; ++attempt) {
        pid_t pid = start(kSweepArgs + " --resume -o " + out, err);
        // Anywhere in the sweep's start-up, its points or its final write.
        double fraction = static_cast<double>(rng()) / 4294967296.0;
        auto delay = std::chrono::milliseconds(
            static_cast<long>(fraction * longest * static_cast<double>(sweep_ms.count())));
        std::this_thread::sleep_for(delay);
        kill(pid, SIGKILL);
        int code = finish(pid);
        INFO("attempt " << attempt << ": killed after " << delay.count() << " ms");
        if (code == 0 && kills == 0) {
            for (const std::string& f : {out, journal, std::string(dir / "chaos.json")})
                fs::remove(f);
            longest /= 2;
            continue;
        }
        if (code == 0) break;  // finished before the kill: nothing left to lose
        REQUIRE(code == -SIGKILL);
        ++kills;
        std::string said = slurp(err);
        // The run saw every point recorded before it started (when it lived to say so whole).
        if (said.find(" points already done") != std::string::npos)
            CHECK(resumed_count(said) == recorded.size());
        // What --resume will find: the journal, and OUT.json once a run got as far as writing
        // it (the kill may come after that, before the run ends).
        std::vector<std::size_t> in_journal = journaled_points(journal);
        std::set<std::size_t> now(in_journal.begin(), in_journal.end());
        CHECK(now.size() == in_journal.size());  // none twice
        std::set<std::size_t> in_output = output_points(dir / "chaos.json");
        now.insert(in_output.begin(), in_output.end());
        for (std::size_t p : recorded) CHECK(now.count(p));  // none lost
        recorded = now;
    }
    CHECK(kills > 0);
    REQUIRE(finish(start(kSweepArgs + " --resume -o " + out, err)) == 0);
    CHECK(resumed_count(slurp(err)) >= recorded.size());
    CHECK(slurp(out) == slurp(ref));
    // The JSON too, but for its provenance: that names the command line, and the two runs
    // wrote to different files.  The resumed sweep's is its first run's, whichever run ended it.
    json chaos = json::parse(slurp(dir / "chaos.json"));
    json reference = json::parse(slurp(dir / "ref.json"));
    const json first_command = chaos["provenance"]["command_line"];
    CHECK(first_command.dump().find("chaos.csv") != std::string::npos);
    CHECK(chaos["provenance"]["git"] == reference["provenance"]["git"]);
    chaos.erase("provenance");
    reference.erase("provenance");
    CHECK(chaos == reference);
    // Done: the journal's rows are in the outputs, the lock is gone, and so are the temporary
    // files of a run killed while writing the outputs.
    CHECK_FALSE(fs::exists(journal));
    CHECK_FALSE(fs::exists(dir / "chaos.lock"));
    for (const auto& entry : fs::directory_iterator(dir.path))
        CHECK(entry.path().filename().string().find(".tmp-") == std::string::npos);
}

}  // namespace test_sweep_chaos
