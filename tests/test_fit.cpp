// pcisim fit: recovering B and k, regimes and steps from synthetic curves with known answers.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

#include "tools/fit/curve_fit.h"
#include "tools/fit/formula_fit.h"
#include "tools/fit/regimes.h"
#include "tools/fit/sweep_curves.h"
#include "test_support.h"

namespace test_fit {

using namespace pcisim::fit;
using Catch::Detail::Approx;

namespace {

std::vector<Sample> curve(double B, double k, int from, int to, int step) {
    std::vector<Sample> v;
    for (int s = from; s <= to; s += step) v.push_back({double(s), B / (s + k)});
    return v;
}

std::vector<double> wire_of(const std::vector<Sample>& samples) {
    std::vector<double> w;
    for (const auto& s : samples) w.push_back(wire_limit_pps(s.size));
    return w;
}

// The shared 32/33 bus of the reference: one more chunk every 128 bytes.
double staircase(double s) { return 132e6 / (s + 260 + 130 * std::floor(s / 128)); }

}  // namespace

TEST_CASE("the free fit recovers B and k from exact data", "[fit]") {
    auto f = fit_free(curve(264e6, 335, 60, 340, 20));
    REQUIRE(f);
    CHECK(f->bytes_per_s == Approx(264e6).epsilon(0.001));
    CHECK(f->latency_bytes == Approx(335).epsilon(0.001));
    CHECK(f->overhead_us() == Approx(335 / 264.0).epsilon(0.001));
    CHECK(f->max_rel_residual < 1e-9);
    CHECK(formula_text(f->bytes_per_s, f->latency_bytes) == "264000000/(s+335)");
}

TEST_CASE("the fixed-B fit recovers k and reports the misfit of a wrong B", "[fit]") {
    auto data = curve(132e6, 260, 60, 124, 4);
    FormulaFit right = fit_fixed(data, 132e6);
    CHECK(right.latency_bytes == Approx(260).epsilon(0.001));
    CHECK(right.rms_rel_residual < 1e-9);
    FormulaFit wrong = fit_fixed(data, 264e6);
    CHECK(wrong.rms_rel_residual > 0.001);
}

TEST_CASE("a flat or single-point piece has no free fit", "[fit]") {
    CHECK_FALSE(fit_free({{60, 5e5}}));
    CHECK_FALSE(fit_free({{60, 5e5}, {100, 5e5}, {140, 5.1e5}}));
}

TEST_CASE("wire-limited points are split off", "[fit]") {
    std::vector<Sample> samples;
    for (int s = 60; s <= 1500; s += 40)
        samples.push_back({double(s), std::min(264e6 / (s + 335), wire_limit_pps(s))});
    Regimes r = split_regimes(samples, wire_of(samples));
    REQUIRE(r.pieces.size() == 1);
    // 264e6/(s+335) meets 125e6/(s+24) at s = 255.7.
    CHECK(samples[r.pieces[0].last].size < 256);
    CHECK(samples[r.wire_limited.front()].size > 200);
    CHECK(r.wire_limited.size() + r.pieces[0].last - r.pieces[0].first + 1 == samples.size());
}

TEST_CASE("the steps of a staircase are found where they are", "[fit]") {
    std::vector<Sample> samples;
    for (int s = 60; s <= 500; s += 4) samples.push_back({double(s), staircase(s)});
    Regimes r = split_regimes(samples, wire_of(samples));
    REQUIRE(r.wire_limited.empty());
    REQUIRE(r.pieces.size() == 4);
    std::vector<double> starts;
    for (const auto& p : r.pieces) starts.push_back(samples[p.first].size);
    CHECK(starts == std::vector<double>{60, 128, 256, 384});
    // Each piece is exactly B/(s+k) with k growing by one chunk latency per step.
    for (std::size_t i = 0; i < r.pieces.size(); ++i) {
        std::vector<Sample> piece(samples.begin() + r.pieces[i].first,
                                  samples.begin() + r.pieces[i].last + 1);
        auto f = fit_free(piece);
        REQUIRE(f);
        CHECK(f->bytes_per_s == Approx(132e6).epsilon(0.001));
        CHECK(f->latency_bytes == Approx(260 + 130 * i).epsilon(0.001));
    }
}

TEST_CASE("measurement noise alone makes no steps", "[fit]") {
    // +-0.3 % alternating noise on a smooth curve.
    std::vector<Sample> samples = curve(264e6, 335, 60, 250, 5);
    for (std::size_t i = 0; i < samples.size(); ++i) samples[i].pps *= i % 2 ? 1.003 : 0.997;
    Regimes r = split_regimes(samples, wire_of(samples));
    CHECK(r.pieces.size() == 1);
}

namespace {

// Standard normal deviates from std::mt19937 by Box-Muller: mt19937's sequence is fixed by the
// standard, std::normal_distribution's is not, so every library gives the same data.
class Normal {
public:
    explicit Normal(unsigned seed) : rng_(seed) {}
    double operator()() {
        const double two_pi = 6.283185307179586;
        double u1 = (rng_() + 1.0) / 4294967297.0, u2 = rng_() / 4294967296.0;
        return std::sqrt(-2 * std::log(u1)) * std::cos(two_pi * u2);
    }

private:
    std::mt19937 rng_;
};

}  // namespace

TEST_CASE("exact data gives standard errors of about zero", "[fit]") {
    auto data = curve(264e6, 335, 60, 340, 20);
    auto f = fit_free(data);
    REQUIRE(f);
    REQUIRE(f->bytes_per_s_se);
    REQUIRE(f->latency_bytes_se);
    CHECK(*f->bytes_per_s_se < 264e6 * 1e-9);
    CHECK(*f->latency_bytes_se < 1e-6);
    FormulaFit fixed = fit_fixed(data, 264e6);
    CHECK(*fixed.bytes_per_s_se == 0);
    CHECK(*fixed.latency_bytes_se < 1e-6);
}

TEST_CASE("no degree of freedom left: no standard error", "[fit]") {
    auto two = fit_free({{60, 264e6 / 395}, {100, 264e6 / 435}});
    REQUIRE(two);
    CHECK_FALSE(two->bytes_per_s_se);
    CHECK_FALSE(two->latency_bytes_se);
    CHECK_FALSE(fit_fixed({{60, 264e6 / 395}}, 264e6).latency_bytes_se);
}

// 400 curves with 1 % Gaussian noise on pps: the interval fit +- 1.96 standard errors should
// hold the true B and k about 95 % of the time.  A standard error off by a factor of two would
// give about 68 % or 99.99 %.
TEST_CASE("standard errors of noisy data cover the true B and k at their nominal rate", "[fit]") {
    const double B = 264e6, k = 335;
    Normal noise(20041231);
    int trials = 400, b_covered = 0, k_covered = 0, k_fixed_covered = 0;
    double se_sum = 0;
    for (int t = 0; t < trials; ++t) {
        std::vector<Sample> data = curve(B, k, 60, 340, 10);
        for (auto& s : data) s.pps *= 1 + 0.01 * noise();
        auto f = fit_free(data);
        REQUIRE(f);
        b_covered += std::fabs(f->bytes_per_s - B) <= 1.96 * *f->bytes_per_s_se;
        k_covered += std::fabs(f->latency_bytes - k) <= 1.96 * *f->latency_bytes_se;
        FormulaFit fixed = fit_fixed(data, B);
        k_fixed_covered += std::fabs(fixed.latency_bytes - k) <= 1.96 * *fixed.latency_bytes_se;
        se_sum += *f->latency_bytes_se;
    }
    INFO("B covered " << b_covered << ", k covered " << k_covered << ", k (fixed B) covered "
                      << k_fixed_covered << " of " << trials << "; mean SE of k "
                      << se_sum / trials);
    CHECK(b_covered >= 0.90 * trials);
    CHECK(b_covered <= 0.99 * trials);
    CHECK(k_covered >= 0.90 * trials);
    CHECK(k_covered <= 0.99 * trials);
    CHECK(k_fixed_covered >= 0.90 * trials);
    CHECK(k_fixed_covered <= 0.99 * trials);
}

TEST_CASE("fit reads a sweep CSV into curves per bus and fits each", "[fit]") {
    std::ostringstream csv;
    csv << "bus.width_bits,packet.size,status,error,tx_pps,wire_limit_pps\n";
    for (int s = 60; s <= 400; s += 4) {
        csv << "32," << s << ",ok,," << staircase(s) << "," << wire_limit_pps(s) << "\n";
        csv << "64," << s << ",ok,," << std::min(528e6 / (s + 400), wire_limit_pps(s)) << ",\n";
    }
    csv << "64,404,failed,\"bus.clock_mhz: 100, not a pci clock\",,\n";
    std::istringstream in(csv.str());
    CurveColumns cols;
    cols.bus_bytes_per_s = 132e6;
    auto curves = read_curves(in, cols);
    REQUIRE(curves.size() == 2);
    CHECK(curves[0].group == std::vector<std::pair<std::string, std::string>>{{"bus.width_bits", "32"}});
    CHECK(curves[1].samples.size() == curves[0].samples.size());  // the failed row is skipped

    auto staircase_fit = fit_curve(curves[0]);
    CHECK(staircase_fit["steps_at"] == nlohmann::json({128, 256, 384}));
    const auto& first = staircase_fit["pieces"][0];
    CHECK(first["from"] == 60);
    CHECK(first["to"] == 128);
    CHECK(first["fixed"]["k_bytes"].get<double>() == Approx(260).epsilon(0.001));
    CHECK(describe(staircase_fit).find("p = 132000000/(s+260) for 60 <= s < 128") !=
          std::string::npos);

    auto wide = fit_curve(curves[1]);
    CHECK_FALSE(wide["wire_limited"].is_null());
    CHECK(wide["pieces"].size() == 1);
    CHECK(wide["pieces"][0]["free"]["k_bytes"].get<double>() == Approx(400).epsilon(0.001));
}

TEST_CASE("a CSV without the y column is an error naming it", "[fit]") {
    std::istringstream in("packet.size,status,error,pps\n60,ok,,1\n");
    CHECK_THROWS_WITH(read_curves(in, CurveColumns{}), Catch::Contains("tx_pps"));
}

TEST_CASE("a rate or size that is not a finite number is an error naming its cell", "[fit]") {
    // stod reads "inf" and "nan": they made every fit "rms -nan %" with exit 0.
    for (const char* bad : {"inf", "nan", "-inf", "1e999"}) {
        std::istringstream in(std::string("packet.size,status,error,tx_pps\n60,ok,,5e5\n64,ok,,") +
                              bad + "\n");
        CHECK_THROWS_WITH(read_curves(in, CurveColumns{}),
                          Catch::Contains(std::string("line 3, column tx_pps: \"") + bad +
                                          "\" is not a finite number"));
    }
    std::istringstream size("packet.size,status,error,tx_pps\ninf,ok,,5e5\n");
    CHECK_THROWS_WITH(read_curves(size, CurveColumns{}),
                      Catch::Contains("line 2, column packet.size: \"inf\""));
}

TEST_CASE("an ok point that sent nothing is an error, not a row left out", "[fit]") {
    for (const char* rate : {"0", "-5"}) {
        std::istringstream in(std::string("packet.size,status,error,tx_pps\n60,ok,,5e5\n64,ok,,") +
                              rate + "\n68,ok,,4.9e5\n");
        CHECK_THROWS_WITH(read_curves(in, CurveColumns{}),
                          Catch::Contains(std::string("line 3, column tx_pps: \"") + rate +
                                          "\" is not a packet rate > 0"));
    }
    // A failed point's empty rate is no such error: its status says why.
    std::istringstream failed("packet.size,status,error,tx_pps\n60,ok,,5e5\n64,failed,crash,\n");
    CHECK(read_curves(failed, CurveColumns{}).at(0).samples.size() == 1);
}

TEST_CASE("fit warns when the sweep did not finish every point, and fits the rest", "[fit]") {
    using namespace pcisim::test;
    TempDir dir;
    const std::string csv = dir / "sweep.csv";
    std::ofstream(csv) << "packet.size,status,error,tx_pps\n60,ok,,5e5\n64,ok,,4.9e5\n"
                          "68,ok,,4.8e5\n72,failed,time limit of 10 s exceeded,\n";
    CommandOutcome failed = run_pcisim("fit " + csv);
    INFO(failed.err);
    CHECK(failed.exit_code == 0);
    CHECK(contains(failed.err, "warning: " + csv + " is incomplete: 1 row(s) with a status other "
                               "than ok; fitting the 3 finished points only"));

    // An interrupted sweep: its JSON counts every point, its CSV lacks the unfinished ones.
    const std::string sweep = dir / "real.csv";
    REQUIRE(run_pcisim("sweep " + scenario_path("phi-32-33-82540") +
                       " --vary packet.size=60,64,68,72 -j 2 --set simulation.warmup_us=20"
                       " --set simulation.batch_us=200 --set simulation.min_window_us=200 -o " +
                       sweep)
                .exit_code == 0);
    CommandOutcome complete = run_pcisim("fit " + sweep);
    CHECK(complete.exit_code == 0);
    CHECK_FALSE(contains(complete.err, "warning"));
    std::string text = slurp(sweep);
    text.erase(text.rfind('\n', text.size() - 2) + 1);  // drop the last row
    std::ofstream(sweep) << text;
    CommandOutcome cut = run_pcisim("fit " + sweep);
    INFO(cut.err);
    CHECK(cut.exit_code == 0);
    CHECK(contains(cut.err, "1 of 4 points have no row; fitting the 3 finished points only"));
}

TEST_CASE("fit --json - writes only the JSON to stdout, with standard errors, the text to stderr",
          "[fit]") {
    using namespace pcisim::test;
    TempDir dir;
    const std::string csv = dir / "sweep.csv", out = dir / "stdout.json";
    std::ofstream(csv) << "packet.size,status,error,tx_pps\n60,ok,,5e5\n64,ok,,4.9e5\n"
                          "68,ok,,4.81e5\n72,ok,,4.7e5\n";
    CommandOutcome r = run_pcisim("fit " + csv + " --json -", out);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(contains(r.err, "B free : p = "));
    CHECK(contains(r.err, "(standard errors)"));
    nlohmann::json doc = nlohmann::json::parse(slurp(out));
    const nlohmann::json& fit = doc["curves"][0]["pieces"][0]["free"];
    CHECK(fit["k_bytes_se"].get<double>() > 0);
    CHECK(fit["B_bytes_per_s_se"].get<double>() > 0);
}

TEST_CASE("fit refuses what is no sweep CSV before reading it whole", "[fit]") {
    using namespace pcisim::test;
    TempDir dir;
    REQUIRE(std::system(("mkfifo " + (dir / "fifo")).c_str()) == 0);
    // /dev/zero grew the old reader to 10 GB; a FIFO would block; a file with no line end is
    // one record that never ends.
    std::ofstream(dir / "endless.csv") << std::string(17 << 20, 'x');
    const std::pair<std::string, std::string> cases[] = {
        {"/dev/zero", "/dev/zero: not a regular file; expected a sweep's CSV file"},
        {dir / "fifo", ": not a regular file"},
        {dir / "missing.csv", "missing.csv: No such file or directory"},
        {dir / "endless.csv", "line 1: a record longer than 16777216 bytes"},
    };
    for (const auto& [file, message] : cases) {
        CommandOutcome o = run_pcisim("fit " + file);
        INFO(file << ": " << o.err);
        CHECK(o.exit_code == 2);
        CHECK(contains(o.err, message));
    }
}

}  // namespace test_fit
