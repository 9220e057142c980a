// plots/regenerate runs headless on a tiny synthetic sweep and writes every figure.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "test_support.h"
#include "tools/validate/validation_report.h"

namespace test_plots {

namespace fs = std::filesystem;
using namespace pcisim::test;

namespace {

const std::string kSource = PCISIM_SOURCE_DIR;
const char* kFigures[] = {"pps_vs_size", "simulated_vs_measured", "overhead_vs_bus"};

// Two buses of a sweep as 'pcisim sweep' writes it: varied keys, status, error, metrics.
void write_sweep(const fs::path& csv) {
    std::ofstream out(csv);
    out << "bus.clock_mhz,packet.size,status,error,bus.width_bits,tx_pps,wire_limit_pps\n";
    for (int mhz : {33, 66})
        for (int s = 60; s <= 1500; s += 120) {
            double wire = 125e6 / (s + 24);
            out << mhz << "," << s << ",ok,,32," << std::min(mhz * 4e6 / (s + 300), wire) << ","
                << wire << "\n";
        }
    out << "66,1620,failed,\"time limit of 10 s exceeded\",,,\n";
}

bool figures_written(const fs::path& dir) {
    for (const char* name : kFigures)
        for (const char* ext : {".png", ".svg"}) {
            fs::path f = dir / (std::string(name) + ext);
            if (!fs::exists(f) || fs::file_size(f) < 1000) return false;
        }
    return true;
}

int run(const std::string& command) {
    // No display: the script must not need one.
    int status = std::system(("env -u DISPLAY " + command + " >/dev/null 2>&1").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("plots/regenerate draws a sweep and its fits headless", "[plots]") {
    TempDir tmp;
    write_sweep(tmp.path / "sweep.csv");
    REQUIRE(run(pcisim_binary() + " fit " + (tmp.path / "sweep.csv").string() + " --json " +
                (tmp.path / "fits.json").string()) == 0);
    fs::path out = tmp.path / "figures";
    CHECK(run("/usr/bin/python3 " + kSource + "/plots/regenerate --sweep " +
              (tmp.path / "sweep.csv").string() + " --fits " + (tmp.path / "fits.json").string() +
              " --out " + out.string()) == 0);
    CHECK(figures_written(out));
}

TEST_CASE("plots/regenerate draws the errors, the variants and the SMP points from validate's "
          "JSON", "[plots]") {
    TempDir tmp;
    write_sweep(tmp.path / "sweep.csv");
    // A stock check on a measured curve and a variant curve, as 'pcisim validate --json' has them.
    {
        std::ofstream out(tmp.path / "validation.json");
        out << R"({"checks": [
          {"case": "phi-32-33-82540-vanilla", "tier": "stock", "kind": "curve", "scenario": "s",
           "size": 60, "measured": 432000, "simulated": 440000, "error": 1.85, "unit": "pps",
           "ok": true, "note": "", "known_miss": ""},
          {"case": "v", "tier": "variants", "kind": "curve", "scenario": "s", "size": 60,
           "measured": 500000, "simulated": 480000, "error": -4.0, "unit": "pps", "ok": true,
           "note": "", "known_miss": ""},
          {"case": "v", "tier": "variants", "kind": "curve", "scenario": "s", "size": 64,
           "measured": 500000, "simulated": 440000, "error": -12.0, "unit": "pps", "ok": false,
           "note": "", "known_miss": "docs/calibration.md"},
          {"case": "w", "tier": "smp", "kind": "point", "scenario": "s", "size": 60,
           "measured": 600000, "simulated": 610000, "error": 1.7, "unit": "pps", "ok": true,
           "note": "the cleanup timer on the other CPU", "known_miss": ""}]})";
    }
    fs::path out = tmp.path / "figures";
    CHECK(run("/usr/bin/python3 " + kSource + "/plots/regenerate --sweep " +
              (tmp.path / "sweep.csv").string() + " --validation " +
              (tmp.path / "validation.json").string() + " --out " + out.string()) == 0);
    CHECK(figures_written(out));
    CHECK(fs::exists(out / "variants_vs_measured.png"));
    CHECK(fs::exists(out / "smp_vs_measured.png"));
}

TEST_CASE("plots/regenerate works without fits and rejects a missing column", "[plots]") {
    TempDir tmp;
    write_sweep(tmp.path / "sweep.csv");
    fs::path out = tmp.path / "figures";
    std::string script = "/usr/bin/python3 " + kSource + "/plots/regenerate --sweep " +
                         (tmp.path / "sweep.csv").string() + " --out " + out.string();
    CHECK(run(script) == 0);
    CHECK(figures_written(out));
    CHECK(run(script + " --y no_such_column") != 0);
}

// One process (one import of matplotlib) runs every line, so the refusals cost nothing more.
TEST_CASE("plots/figures draws each line's figures in one process, a failed line losing no "
          "other, and regenerate --figures only those named",
          "[plots]") {
    TempDir tmp;
    write_sweep(tmp.path / "sweep.csv");
    const std::string sweep = (tmp.path / "sweep.csv").string();
    const fs::path first = tmp.path / "first", second = tmp.path / "second";
    {
        std::ofstream lines(tmp.path / "lines.txt");
        lines << "regenerate --sweep " << sweep << " --figures pps_vs_size --out " << first
              << "\n"
              << "plot-everything --out " << first << "\n"
              << "regenerate --sweep " << sweep << " --y no_such_column --out " << first << "\n"
              << "regenerate --sweep " << sweep << " --figures pps_vs_size,nope --out " << first
              << "\n"
              << "regenerate --sweep " << sweep << " --figures smp_vs_measured --out " << first
              << "\n"
              << "\n"
              << "regenerate --sweep '" << sweep
              << "' --figures overhead_vs_bus,pps_vs_size -j 2 --out " << second << "\n";
    }
    const std::string err = (tmp.path / "err.txt").string();
    int status = std::system(("env -u DISPLAY /usr/bin/python3 " + kSource + "/plots/figures <" +
                              (tmp.path / "lines.txt").string() + " >/dev/null 2>" + err)
                                 .c_str());
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 1);
    const std::string said = slurp(err);
    INFO(said);
    CHECK(said.find("unknown script 'plot-everything'") != std::string::npos);
    CHECK(said.find("failed: regenerate --sweep " + sweep + " --y no_such_column") !=
          std::string::npos);
    // An unknown figure, and a figure of validate's results without them, are refused by name.
    CHECK(said.find("unknown figure 'nope'") != std::string::npos);
    CHECK(said.find("smp_vs_measured needs --validation") != std::string::npos);
    CHECK(fs::exists(first / "pps_vs_size.png"));
    CHECK_FALSE(fs::exists(first / "overhead_vs_bus.png"));
    CHECK_FALSE(fs::exists(first / "smp_vs_measured.png"));
    for (const char* name : {"overhead_vs_bus", "pps_vs_size"})
        for (const char* ext : {".png", ".svg"})
            CHECK(fs::exists(second / (std::string(name) + ext)));
    CHECK_FALSE(fs::exists(second / "simulated_vs_measured.png"));
}

TEST_CASE("the figure the validation report embeds is one plots/regenerate draws", "[plots]") {
    // plots/reproduce writes the report (validation.md) beside the figures/ it draws into.
    const std::string report = pcisim::validate::report_markdown({}, {}, {}, {}, {});
    const std::string link = "](figures/";
    std::size_t at = report.find(link);
    REQUIRE(at != std::string::npos);
    at += link.size();
    const std::string figure = report.substr(at, report.find(".png)", at) - at);
    INFO("the report embeds figures/" << figure << ".png");
    CHECK(std::find(std::begin(kFigures), std::end(kFigures), figure) != std::end(kFigures));
    CHECK(fs::exists(kSource + "/docs/figures/" + figure + ".png"));
}

}  // namespace test_plots
