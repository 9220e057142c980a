#include "tools/cli/provenance.h"

#include <algorithm>

#include <systemc>
#include <vector>

// CMake defines these for this file only (CMakeLists.txt): the git hash changes with every
// commit, and no other file should recompile for it.
#ifndef PCISIM_VERSION
#error "PCISIM_VERSION is defined by CMakeLists.txt"
#endif
#ifndef PCISIM_GIT
#error "PCISIM_GIT is defined by CMakeLists.txt"
#endif

namespace pcisim::cli {

namespace {

std::vector<std::string>& command_line() {
    static std::vector<std::string> args;
    return args;
}

std::string systemc_version() {
    return std::to_string(sc_core::sc_version_major) + "." +
           std::to_string(sc_core::sc_version_minor) + "." +
           std::to_string(sc_core::sc_version_patch) + "-" + sc_core::sc_version_originator;
}

}  // namespace

void record_command_line(int argc, char* argv[]) {
    command_line().assign(argv, argv + argc);
}

nlohmann::json provenance() {
    // An argument that is not UTF-8 (a file name, say) must not make the output unwritable:
    // its stray bytes are shown as U+FFFD.
    std::vector<std::string> args;
    for (const auto& arg : command_line())
        args.push_back(nlohmann::json::parse(nlohmann::json(arg).dump(
                                                 -1, ' ', false,
                                                 nlohmann::json::error_handler_t::replace))
                           .get<std::string>());
    return {{"pcisim_version", PCISIM_VERSION},
            {"git", PCISIM_GIT},
            {"systemc_version", systemc_version()},
            {"command_line", args}};
}

nlohmann::json provenance_without(const std::vector<std::string>& output_options,
                                  const std::vector<std::string>& output_flags) {
    nlohmann::json p = provenance();
    const std::vector<std::string> all = p["command_line"];
    std::vector<std::string> kept;
    for (std::size_t i = 0; i < all.size(); ++i) {
        bool dropped =
            std::find(output_flags.begin(), output_flags.end(), all[i]) != output_flags.end();
        for (const auto& option : output_options) {
            if (all[i] == option) {
                ++i;  // and its value
                dropped = true;
            } else if (all[i].rfind(option + "=", 0) == 0) {
                dropped = true;
            }
            if (dropped) break;
        }
        if (!dropped) kept.push_back(all[i]);
    }
    p["command_line"] = kept;
    return p;
}

std::vector<MetricSpec> provenance_metrics() {
    return {
        {"provenance.pcisim_version", "", "pcisim's version."},
        {"provenance.git", "", "The commit the build was configured from (-dirty: with "
         "uncommitted changes; unknown outside a checkout)."},
        {"provenance.systemc_version", "", "The SystemC library's version."},
        {"provenance.command_line[]", "", "The command, program name first; for run, without "
         "the options that only choose where outputs go (--json, --vcd, --trace, --pcap, -q; "
         "--window stays: a window past the run's end makes the run longer)."},
    };
}

std::string version_line() {
    return std::string("pcisim ") + PCISIM_VERSION + " (git " + PCISIM_GIT + "), SystemC " +
           systemc_version();
}

}  // namespace pcisim::cli
