// Calibration cannot silently regress: the whole calibration set is simulated (pcisim validate,
// about 10 s on two cores) and must stay within its tolerances.  The one measurement the
// model does not reproduce is named here with the mechanism suspected (docs/validation.md);
// any other check going out of tolerance, or the median error rising above 3 %, fails.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

using nlohmann::json;

TEST_CASE("pcisim validate: every calibration case of both tiers within tolerance but the known miss") {
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
    CHECK(status != -1);
    // Both tiers, each with the same tolerances: the stock driver and the driver variants.
    CHECK(r["tiers"]["stock"]["median_abs_pct"].get<double>() <= 3.0);
    CHECK(r["tiers"]["stock"]["points"].get<int>() == 72);
    CHECK(r["tiers"]["variants"]["median_abs_pct"].get<double>() <= 3.0);
    CHECK(r["tiers"]["variants"]["points"].get<int>() == 35);
    CHECK(r["tiers"]["variants"]["failed"].get<int>() == 0);
    CHECK(r["provenance"]["command_line"].at(1) == "validate");
    for (const auto& c : r["checks"]) {
        if (c["ok"]) continue;
        // p4-865, 1500 B, ring 256: measured 56356 pps with many pktgen errors reported; the
        // model gives about 51 kpps (ring 4096, 52693 measured, is within tolerance).
        bool known = c["case"] == "p4-865-32-33-82544-vanilla" && c["size"] == 1500 &&
                     c["note"] == "ring 256";
        INFO(c.dump());
        CHECK(known);
        // The report says the miss is the documented one, where the FAIL is printed.
        CHECK(c["known_miss"] == "docs/calibration.md");
        CHECK(text.find("outside tolerance: p4-865-32-33-82544-vanilla 1500 B ring 256 (known "
                        "miss, docs/calibration.md)") != std::string::npos);
    }
    CHECK(text.find("not a known miss") == std::string::npos);
}
