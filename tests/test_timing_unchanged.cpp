// Speed work must not move a single simulated number.  The whole calibration set and the
// driver-variant predictions (pcisim validate --predictions) are simulated and every check's
// and prediction's simulated value is compared *exactly* with tests/data/validation-baseline.json,
// which the code produced before any performance change.  A difference in the last bit means an
// optimisation changed the order or the timing of events: it is wrong, not noise (same scenario
// and seed give bit-identical results).
//
// When calibration or a mechanism is changed on purpose, the numbers change on purpose too:
// regenerate the baseline with
//   build/pcisim validate -j 2 --predictions --json tests/data/validation-baseline.json
// and commit it with the change that explains the new values.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace test_timing_unchanged {

using nlohmann::json;

namespace {

json load(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    return json::parse(in);
}

// Same entries in the same order, each naming the same point and with exactly the same value.
void compare(const json& got, const json& want, const char* value_key,
             std::initializer_list<const char*> identity) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        INFO("baseline entry " << i << ": " << want[i].dump());
        INFO("simulated now: " << got[i].dump());
        for (const char* key : identity) CHECK(got[i].value(key, json()) == want[i].value(key, json()));
        CHECK(got[i][value_key] == want[i][value_key]);
    }
}

}  // namespace

TEST_CASE("validate --predictions gives exactly the baseline's simulated values") {
    const char* bin = std::getenv("PCISIM_BINARY");
    REQUIRE(bin);
    std::string out = "timing-unchanged-test.json";
    std::remove(out.c_str());
    // Exit code 1 only says a check is out of tolerance (test_validation.cpp judges that).
    std::string cmd = std::string(bin) + " validate -j 2 --predictions --json " + out +
                      " >/dev/null 2>&1";
    REQUIRE(std::system(cmd.c_str()) != -1);
    json got = load(out);
    std::remove(out.c_str());
    json want = load(std::string(PCISIM_SOURCE_DIR) + "/tests/data/validation-baseline.json");
    compare(got["checks"], want["checks"], "simulated",
            {"case", "kind", "scenario", "size", "note", "unit"});
    compare(got["predictions"], want["predictions"], "tx_pps", {"scenario", "size", "variant"});
}

}  // namespace test_timing_unchanged
