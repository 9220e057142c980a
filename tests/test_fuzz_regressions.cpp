// Replays every input of the scenario fuzz target's corpus (tests/fuzz/corpus/) and every
// crasher it found (tests/fuzz/crashers/) through the same code: none may crash or throw
// anything but the loader's own errors.  The same for the output-path target's corpus
// (tests/fuzz/outputs-corpus/): no output it lets pass may change an input or another output.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "fuzz/output_paths_input.h"
#include "fuzz/scenario_input.h"

namespace test_fuzz_regressions {

namespace fs = std::filesystem;

TEST_CASE("the fuzz corpus and every kept crasher load without crashing") {
    std::size_t inputs = 0;
    for (const char* dir : {"corpus", "crashers"}) {
        fs::path path = fs::path(PCISIM_SOURCE_DIR) / "tests" / "fuzz" / dir;
        for (const auto& entry : fs::directory_iterator(path)) {
            if (!entry.is_regular_file() || entry.path().filename() == ".gitkeep") continue;
            std::ifstream in(entry.path(), std::ios::binary);
            std::stringstream bytes;
            bytes << in.rdbuf();
            INFO(entry.path().string());
            CHECK_NOTHROW(pcisim::fuzz::feed_scenario_input(bytes.str()));
            ++inputs;
        }
    }
    CHECK(inputs > 0);
}

TEST_CASE("the output-path fuzz corpus never lets an output replace an input or another output") {
    std::size_t inputs = 0;
    fs::path path = fs::path(PCISIM_SOURCE_DIR) / "tests" / "fuzz" / "outputs-corpus";
    for (const auto& entry : fs::directory_iterator(path)) {
        if (!entry.is_regular_file()) continue;
        std::ifstream in(entry.path(), std::ios::binary);
        std::stringstream bytes;
        bytes << in.rdbuf();
        INFO(entry.path().string());
        CHECK_NOTHROW(pcisim::fuzz::feed_output_paths_input(bytes.str()));
        ++inputs;
    }
    CHECK(inputs > 0);
}

}  // namespace test_fuzz_regressions
