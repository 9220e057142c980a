// Helpers shared by the tests that run whole scenarios.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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

// Overrides for a run of exactly `window_us` measured after exactly `warmup_us`, in one batch.
inline std::vector<std::string> fixed_window(double window_us, double warmup_us) {
    return {"simulation.warmup_us=" + std::to_string(warmup_us),
            "simulation.max_warmup_us=" + std::to_string(warmup_us),
            "simulation.batch_us=" + std::to_string(window_us),
            "simulation.min_window_us=" + std::to_string(window_us),
            "simulation.max_window_us=" + std::to_string(window_us)};
}

}  // namespace pcisim::test
