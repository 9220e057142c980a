// pcisim bench, end to end on one small case: the report's shape and the counts that do not
// depend on the machine.  How fast it runs is the bench's output, never a test's condition.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

using nlohmann::json;

TEST_CASE("pcisim bench reports every figure per size and the start-up of a sweep point") {
    const char* bin = std::getenv("PCISIM_BINARY");
    REQUIRE(bin);
    std::string out = "bench-test.json";
    std::string cmd = std::string(bin) +
                      " bench --case stock-60 --packets 1000,2000 --runs 1 --json " + out +
                      " >/dev/null 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    std::ifstream in(out);
    REQUIRE(in);
    json r = json::parse(in);
    std::remove(out.c_str());

    REQUIRE(r["cases"].size() == 1);
    const json& c = r["cases"][0];
    CHECK(c["id"] == "stock-60");
    REQUIRE(c["sizes"].size() == 2);
    for (const auto& s : c["sizes"]) {
        INFO(s.dump());
        // Runs go on to whole batches: at least the packets asked for.
        CHECK(s["frames"].get<double>() >= s["packets"].get<double>());
        CHECK(s["deltas_per_packet"].get<double>() > 1);
        CHECK(s["simulated_s"].get<double>() > 0);
        for (const char* key : {"wall_s", "cpu_s", "packets_per_wall_s", "real_time_factor",
                                "peak_rss_mib", "fork_s", "load_s", "elaborate_s"})
            CHECK(s[key].get<double>() > 0);
    }
    const json& p = c["sweep_point"];
    CHECK(p["startup_share"].get<double>() > 0);
    CHECK(p["startup_share"].get<double>() < 1);
}

TEST_CASE("pcisim bench rejects an unknown case") {
    const char* bin = std::getenv("PCISIM_BINARY");
    REQUIRE(bin);
    std::string cmd = std::string(bin) + " bench --case nosuch >/dev/null 2>&1";
    int status = std::system(cmd.c_str());
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 2);
}
