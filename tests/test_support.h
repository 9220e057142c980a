// Helpers shared by the tests that run whole scenarios.
#pragma once

#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "run/scenario.h"

namespace pcisim::test {

// The pcisim built with the tests (CMake passes its path), else build/pcisim.
inline std::string pcisim_binary() {
    const char* b = std::getenv("PCISIM_BINARY");
    return b ? b : std::string(PCISIM_SOURCE_DIR) + "/build/pcisim";
}

// A scratch directory removed at the end of the test.
struct TempDir {
    std::filesystem::path path;
    TempDir() {
        std::string p = (std::filesystem::temp_directory_path() / "pcisim-test-XXXXXX").string();
        REQUIRE(mkdtemp(p.data()));
        path = p;
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string operator/(const std::string& name) const { return (path / name).string(); }
};

inline std::string scenario_path(const std::string& name) {
    return std::string(PCISIM_SOURCE_DIR) + "/scenarios/" + name + ".json";
}

inline std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream b;
    b << in.rdbuf();
    return b.str();
}

// What the built pcisim did with `args`: its exit code (-1 when killed by a signal) and what it
// wrote to standard error; standard output goes to `stdout_to`.
struct CommandOutcome {
    int exit_code;
    std::string err;
};
inline CommandOutcome run_pcisim(const std::string& args,
                                 const std::string& stdout_to = "/dev/null") {
    TempDir dir;
    std::string err = dir / "stderr.txt";
    int status =
        std::system((pcisim_binary() + " " + args + " >" + stdout_to + " 2>" + err).c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(err)};
}

// A run's results file without its provenance: what was simulated, whatever the command line
// that asked for it (--window, which makes a recorded run's command line differ, is in it).
inline std::string results_without_provenance(const std::string& path) {
    nlohmann::json r = nlohmann::json::parse(slurp(path), nullptr, false);
    if (r.is_object()) r.erase("provenance");
    return r.dump();
}

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// Starts the built pcisim with `args` (stderr to `err`), sends it `signal` once its stderr shows
// `progress` (or after 60 s), and returns its wait status.
inline int signal_when(const std::string& args, const std::string& err,
                       const std::string& progress, int signal) {
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        std::string command = "exec " + pcisim_binary() + " " + args + " >/dev/null 2>" + err;
        execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!contains(slurp(err), progress) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    kill(pid, signal);
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    return status;
}

// The problems loading `file` with `sets` reports, one per line; empty when it loads.
inline std::vector<std::string> load_problems(const std::string& file,
                                              const std::vector<std::string>& sets = {}) {
    try {
        Scenario::load(file, sets);
    } catch (const ScenarioError& e) {
        return e.problems();
    }
    return {};
}

// Overrides for a run of exactly `window_us` measured after exactly `warmup_us`, in one batch.
inline std::vector<std::string> fixed_window(double window_us, double warmup_us) {
    return {"simulation.warmup_us=" + std::to_string(warmup_us),
            "simulation.max_warmup_us=" + std::to_string(warmup_us),
            "simulation.batch_us=" + std::to_string(window_us),
            "simulation.min_window_us=" + std::to_string(window_us),
            "simulation.max_window_us=" + std::to_string(window_us)};
}

// The problems loading the scenario JSON `text` with `sets` reports (its relative paths from
// `dir`), one per line; empty when it loads.
inline std::vector<std::string> json_problems(const std::string& text,
                                              const std::vector<std::string>& sets = {},
                                              const std::string& dir = "test") {
    try {
        Scenario::from_json(nlohmann::json::parse(text), dir, sets);
    } catch (const ScenarioError& e) {
        return e.problems();
    }
    return {};
}

// `pcisim ARGS --json FILE`: its exit code, its standard error and, when it succeeded, the JSON
// it wrote (else null).
struct JsonOutcome {
    int exit_code;
    std::string err;
    nlohmann::json json;
};
inline JsonOutcome run_pcisim_json(const std::string& args) {
    TempDir dir;
    const std::string out = dir / "out.json";
    CommandOutcome c = run_pcisim(args + " --json " + out);
    JsonOutcome o{c.exit_code, c.err, nullptr};
    if (o.exit_code == 0) o.json = nlohmann::json::parse(slurp(out));
    return o;
}

// The same for a command that must succeed: its JSON (its standard error in a failed REQUIRE).
inline nlohmann::json pcisim_json(const std::string& args) {
    JsonOutcome o = run_pcisim_json(args);
    INFO(o.err);
    REQUIRE(o.exit_code == 0);
    return o.json;
}

}  // namespace pcisim::test
