// pcisim bench, end to end on one small case: the report's shape and the counts that do not
// depend on the machine.  How fast it runs is the bench's output, never a test's condition.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace test_bench {

using nlohmann::json;

namespace {

// `pcisim bench OPTIONS --json FILE`, which must succeed: its report.
json bench_report(const std::string& options) {
    const char* bin = std::getenv("PCISIM_BINARY");
    REQUIRE(bin);
    const std::string out = "bench-test.json";
    const std::string cmd =
        std::string(bin) + " bench " + options + " --json " + out + " >/dev/null 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    std::ifstream in(out);
    REQUIRE(in);
    json r = json::parse(in);
    std::remove(out.c_str());
    return r;
}

}  // namespace

TEST_CASE("pcisim bench reports every figure per size and the start-up of a sweep point") {
    json r = bench_report("--case stock-60 --packets 1000,2000 --runs 1");

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

TEST_CASE("pcisim bench --against runs both builds in alternating pairs and gives each ratio") {
    const char* bin = std::getenv("PCISIM_BINARY");
    REQUIRE(bin);
    // The build against itself: the report's shape, each pair's two runs and their order.
    json r = bench_report(std::string("--against ") + bin +
                          " --case stock-60 --packets 1000 --pairs 2");
    CHECK(r["packets"] == 1000);
    REQUIRE(r["cases"].size() == 1);
    const json& c = r["cases"][0];
    CHECK(c["id"] == "stock-60");
    REQUIRE(c["pairs"].size() == 2);
    CHECK(c["pairs"][0]["self_first"] == true);
    CHECK(c["pairs"][1]["self_first"] == false);
    for (const auto& p : c["pairs"]) {
        INFO(p.dump());
        CHECK(p["self_cpu_s"].get<double>() > 0);
        CHECK(p["other_cpu_s"].get<double>() > 0);
        CHECK(p["ratio"].get<double>() ==
              Approx(p["self_cpu_s"].get<double>() / p["other_cpu_s"].get<double>()));
    }
    CHECK(c["min_ratio"].get<double>() <= c["median_ratio"].get<double>());
    CHECK(c["median_ratio"].get<double>() <= c["max_ratio"].get<double>());
    // The same build simulates the same delta cycles per packet.
    CHECK(c["self_deltas_per_packet"] == c["other_deltas_per_packet"]);
}

TEST_CASE("pcisim bench --against refuses what it cannot compare") {
    const char* bin = std::getenv("PCISIM_BINARY");
    REQUIRE(bin);
    auto exit_code = [&](const std::string& options) {
        int status = std::system((std::string(bin) + " bench " + options + " >/dev/null 2>&1").c_str());
        REQUIRE(WIFEXITED(status));
        return WEXITSTATUS(status);
    };
    CHECK(exit_code("--against /nonexistent/pcisim --case stock-60") == 2);
    CHECK(exit_code(std::string("--against ") + bin + " --packets 1000,2000") == 2);
    CHECK(exit_code("--pairs 3 --case stock-60") == 2);
    // A binary that is not pcisim gives no benchmark JSON: a failure naming it.
    CHECK(exit_code("--against /bin/true --case stock-60 --packets 1000 --pairs 1") == 1);
}

}  // namespace test_bench
