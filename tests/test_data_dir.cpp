// A copied or installed pcisim finds the scenarios and platforms through its data directory
// (model/core/data_dir.h): --data-dir, then PCISIM_DATA_DIR, then the installation it belongs
// to, then the source tree; a directory named explicitly without scenarios/ is an error.
#include <filesystem>
#include <string>

#include "test_support.h"

namespace test_data_dir {

namespace fs = std::filesystem;
using namespace pcisim::test;

namespace {

// Runs `command` in `dir` (a shell line with the program path in it) with PCISIM_DATA_DIR as
// given ("" for unset); the exit code and stderr.
CommandOutcome run_in(const std::string& dir, const std::string& env, const std::string& command) {
    TempDir scratch;
    std::string err = scratch / "stderr.txt";
    std::string line = "cd " + dir + " && " +
                       (env.empty() ? "env -u PCISIM_DATA_DIR " : "env PCISIM_DATA_DIR=" + env + " ") +
                       command + " >/dev/null 2>" + err;
    int status = std::system(line.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(err)};
}

void write(const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
}

}  // namespace

TEST_CASE("a copied pcisim run from another directory finds platforms in the data directory it is given") {
    TempDir dir;
    const fs::path root = dir.path;
    fs::create_directories(root / "bin");
    REQUIRE(std::system(("cp " + pcisim_binary() + " " + (root / "bin/pcisim").string()).c_str()) == 0);
    // A data directory with a platform that exists nowhere else, and a scenario naming it that is
    // not beside it.
    write(root / "data/scenarios/platforms/only-here.json",
          slurp(std::string(PCISIM_SOURCE_DIR) + "/scenarios/platforms/phi.json"));
    std::string window;
    for (const auto& s : fixed_window(100, 100)) window += " --set " + s;
    write(root / "work/s.json", R"({"name": "copied", "platform": "platforms/only-here.json"})");
    const std::string work = (root / "work").string(), data = (root / "data").string();
    const std::string pcisim = (root / "bin/pcisim").string();

    // Without a data directory for it, the platform is not found (the source tree lacks it).
    CommandOutcome missing = run_in(work, "", pcisim + " check s.json");
    CHECK(missing.exit_code == 2);
    CHECK(contains(missing.err, "\"platforms/only-here.json\" (named in s.json) was not found"));
    CHECK(run_in(work, data, pcisim + " check s.json").exit_code == 0);
    CHECK(run_in(work, "", pcisim + " --data-dir " + data + " check s.json").exit_code == 0);
    CHECK(run_in(work, "", pcisim + " check s.json --data-dir=" + data).exit_code == 0);
    // --data-dir wins over the environment.
    CHECK(run_in(work, work, pcisim + " --data-dir " + data + " check s.json").exit_code == 0);
    CommandOutcome ran = run_in(work, data, pcisim + " run s.json -q --json out.json" + window);
    INFO(ran.err);
    CHECK(ran.exit_code == 0);
    CHECK(ran.err.empty());
    CHECK(nlohmann::json::parse(slurp((root / "work/out.json").string()))["tx_pps"].get<double>() > 0);

    // A directory named explicitly must hold scenarios/: no silent fallback.
    CommandOutcome bad_env = run_in(work, work, pcisim + " check s.json");
    CHECK(bad_env.exit_code == 2);
    CHECK(bad_env.err == "pcisim: PCISIM_DATA_DIR " + work + ": no scenarios/ there; expected a "
                         "pcisim data directory (the source tree, or <prefix>/share/pcisim of an "
                         "installation)\n");
    CommandOutcome bad_option = run_in(work, "", pcisim + " check s.json --data-dir " + work);
    CHECK(bad_option.exit_code == 2);
    CHECK(contains(bad_option.err, "pcisim: --data-dir " + work + ": no scenarios/ there"));
    CHECK(run_in(work, "", pcisim + " check s.json --data-dir").exit_code == 2);
}

TEST_CASE("an installed tree finds its own share/pcisim wherever it is moved") {
    TempDir dir;
    const fs::path prefix = dir.path / "somewhere";
    fs::create_directories(prefix / "bin");
    fs::create_directories(prefix / "share/pcisim/scenarios");
    REQUIRE(std::system(("cp " + pcisim_binary() + " " + (prefix / "bin/pcisim").string()).c_str()) == 0);
    const std::string help = (dir.path / "help.txt").string();
    REQUIRE(std::system(("env -u PCISIM_DATA_DIR " + (prefix / "bin/pcisim").string() + " help >" +
                         help).c_str()) == 0);
    CHECK(contains(slurp(help), "data directory: " + (prefix / "share/pcisim").string() +
                                    " (installation)\n"));
    // The build's own binary has no installation around it: the source tree.
    REQUIRE(std::system(("env -u PCISIM_DATA_DIR " + pcisim_binary() + " help >" + help).c_str()) == 0);
    CHECK(contains(slurp(help), std::string("data directory: ") + PCISIM_SOURCE_DIR + " (source tree)\n"));
}

}  // namespace test_data_dir
