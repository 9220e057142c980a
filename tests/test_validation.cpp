// Calibration cannot silently regress: the whole calibration set is simulated (pcisim validate,
// about 10 s on two cores) and must stay within its tolerances.  The measurements the model
// does not reproduce are named here, each documented in docs/calibration.md; any other check
// going out of tolerance, or a tier's median error rising above 3 %, fails.  validate itself
// passes (exit 0, "PASS, 10 known misses") with exactly those misses, and fails with --strict.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

namespace test_validation {

using nlohmann::json;

TEST_CASE("pcisim validate: every calibration case of both tiers within tolerance but the known misses") {
    const char* bin = std::getenv("PCISIM_BINARY");
    REQUIRE(bin);
    std::string out = "validation-test.json";
    std::string table = "validation-test.txt";
    std::string cmd =
        std::string(bin) + " validate -j 2 --json " + out + " >" + table + " 2>/dev/null";
    int status = std::system(cmd.c_str());
    std::ifstream table_in(table);
    std::string text((std::istreambuf_iterator<char>(table_in)), std::istreambuf_iterator<char>());
    std::remove(table.c_str());
    std::ifstream in(out);
    REQUIRE(in);
    json r = json::parse(in);
    std::remove(out.c_str());
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(r["ok"] == true);
    CHECK(r["verdict"] == "PASS, 10 known misses");
    CHECK(text.find("validate: PASS, 10 known misses (2 tiers)") != std::string::npos);
    // Both tiers, each with the same tolerances: the stock driver and the driver variants.
    CHECK(r["tiers"]["stock"]["median_abs_pct"].get<double>() <= 3.0);
    CHECK(r["tiers"]["stock"]["points"].get<int>() == 72);
    CHECK(r["tiers"]["variants"]["median_abs_pct"].get<double>() <= 3.0);
    CHECK(r["tiers"]["variants"]["points"].get<int>() == 89);
    CHECK(r["provenance"]["command_line"].at(1) == "validate");
    // The documented misses (docs/calibration.md), and nothing else:
    // - p4-865, 1500 B, ring 256: measured 56356 pps with many pktgen errors reported; the
    //   model gives about 51 kpps (ring 4096, 52693 measured, is within tolerance);
    // - athlon, fresh skbs: the measured curve dips at 68 and 80-88 B (80 and 84 B cannot be
    //   met together with 64 and 112 B by a time per packet whose growth per byte never
    //   falls), and 128 B is 6.5 % slow;
    // - athlon, copy driver: 60 and 64 B read one cache line, as the stock driver's 60 B does,
    //   yet were measured 4-27 % away from it.
    const std::vector<std::tuple<std::string, double, std::string>> documented = {
        {"p4-865-32-33-82544-vanilla", 1500, "ring 256"},
        {"athlon-64-66-82546gb-vanilla-noclone", 68, ""},
        {"athlon-64-66-82546gb-vanilla-noclone", 80, ""},
        {"athlon-64-66-82546gb-vanilla-noclone", 84, ""},
        {"athlon-64-66-82546gb-vanilla-noclone", 88, ""},
        {"athlon-64-66-82546gb-vanilla-noclone", 128, ""},
        {"athlon-64-66-82546gb-copy-clone", 60, ""},
        {"athlon-64-66-82546gb-copy-clone", 64, ""},
        {"athlon-64-66-82546gb-copy-noclone", 60, ""},
        {"athlon-64-66-82546gb-copy-noclone", 64, ""},
    };
    int misses = 0;
    for (const auto& c : r["checks"]) {
        // The smp tier is reported beside the verdict (default_tiers), its misses in
        // docs/smp.md; tests/test_smp.cpp checks its points.
        if (c["ok"] || c["tier"] == "smp") continue;
        ++misses;
        bool known = std::any_of(documented.begin(), documented.end(), [&](const auto& d) {
            return c["case"] == std::get<0>(d) && c["size"] == std::get<1>(d) &&
                   c["note"] == std::get<2>(d);
        });
        INFO(c.dump());
        CHECK(known);
        // The report says the miss is a documented one, where the FAIL is printed.
        CHECK(c["known_miss"] == "docs/calibration.md");
    }
    // A documented miss that comes within tolerance fails too: its documentation is then stale
    // (update scenarios/calibration.json, docs/calibration.md and this list).
    CHECK(misses == static_cast<int>(documented.size()));
    CHECK(text.find("outside tolerance: p4-865-32-33-82544-vanilla 1500 B ring 256 (known "
                    "miss, docs/calibration.md)") != std::string::npos);
    // No miss of a tier in the verdict is a new one (a reported tier's lines say so apart).
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("outside tolerance: ", 0) == 0)
            CHECK(line.find("not a known miss") == std::string::npos);
}

namespace {

struct Validated {
    int exit_code;
    std::string out;
};

Validated validate(const std::string& options) {
    const char* bin = std::getenv("PCISIM_BINARY");
    REQUIRE(bin);
    std::string out = "validate-case-test.txt";
    int status = std::system((std::string(bin) + " validate " + options + " >" + out +
                              " 2>/dev/null").c_str());
    std::ifstream in(out);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::remove(out.c_str());
    REQUIRE(WIFEXITED(status));
    return {WEXITSTATUS(status), text};
}

}  // namespace

TEST_CASE("validate passes with a documented known miss, --strict fails on it, -q prints the verdict") {
    // The athlon's copy driver with clone_skb: two known misses, 60 and 64 B
    // (docs/calibration.md); the case alone keeps its tier's median within target.
    const std::string one_case = "--case athlon-64-66-82546gb-copy-clone -j 2";
    Validated plain = validate(one_case);
    CHECK(plain.exit_code == 0);
    CHECK(plain.out.find("validate: PASS, 2 known misses (2 tiers)") != std::string::npos);
    Validated strict = validate(one_case + " --strict");
    CHECK(strict.exit_code == 1);
    CHECK(strict.out.find("validate: FAIL: 2 known misses (--strict) (2 tiers)") !=
          std::string::npos);
    Validated quiet = validate(one_case + " -q");
    CHECK(quiet.exit_code == 0);
    CHECK(quiet.out == "validate: PASS, 2 known misses\n");
}

}  // namespace test_validation
