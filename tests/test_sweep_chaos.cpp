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
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "test_support.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace pcisim::test;

namespace {

using Clock = std::chrono::steady_clock;

// 10 points of the bus demo, each a few tens of milliseconds, two at a time.
const std::string kSweepArgs =
    " sweep " + scenario_path("bus-demo") +
    " --vary masters.0.bytes=64:640:64 --set simulation.warmup_us=20"
    " --set simulation.batch_us=1000 --set simulation.min_window_us=1000 -j 2";

// Starts pcisim with `args` in its own process; stderr goes to `err`.
pid_t start(const std::string& args, const std::string& err) {
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

// The point indices of the rows in a journal (its first line is the sweep's identity).
std::vector<std::size_t> journaled_points(const std::string& path) {
    std::vector<std::size_t> points;
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
    std::set<std::size_t> recorded;  // points the journal held after the last kill
    int kills = 0;
    for (int attempt = 0; attempt < 6; ++attempt) {
        pid_t pid = start(kSweepArgs + " --resume -o " + out, err);
        // Anywhere in the sweep's start-up, its points or its final write: a fraction of the
        // uninterrupted sweep's time, at most 3/4 so that the first run cannot finish first.
        double fraction = static_cast<double>(rng()) / 4294967296.0;
        auto delay = std::chrono::milliseconds(
            static_cast<long>(fraction * 0.75 * static_cast<double>(sweep_ms.count())));
        std::this_thread::sleep_for(delay);
        kill(pid, SIGKILL);
        int code = finish(pid);
        INFO("attempt " << attempt << ": killed after " << delay.count() << " ms");
        if (code == 0) break;  // finished before the kill: nothing left to lose
        REQUIRE(code == -SIGKILL);
        ++kills;
        std::string said = slurp(err);
        // The run saw every point recorded before it started.
        if (said.find("resuming: ") != std::string::npos) CHECK(resumed_count(said) == recorded.size());
        if (!fs::exists(journal)) continue;  // killed before it was created
        std::vector<std::size_t> now = journaled_points(journal);
        std::set<std::size_t> unique(now.begin(), now.end());
        CHECK(unique.size() == now.size());  // none twice
        for (std::size_t p : recorded) CHECK(unique.count(p));  // none lost
        recorded = unique;
    }
    CHECK(kills > 0);
    REQUIRE(finish(start(kSweepArgs + " --resume -o " + out, err)) == 0);
    CHECK(resumed_count(slurp(err)) >= recorded.size());
    CHECK(slurp(out) == slurp(ref));
    CHECK(slurp(dir / "chaos.json") == slurp(dir / "ref.json"));
    // Done: the journal's rows are in the outputs, and the lock is gone.
    CHECK_FALSE(fs::exists(journal));
    CHECK_FALSE(fs::exists(dir / "chaos.lock"));
}
