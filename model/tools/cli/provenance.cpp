#include "tools/cli/provenance.h"

#include <algorithm>

#include <systemc>
#include <vector>

#include "core/stats.h"
#include "run/stats_json.h"
#include "tools/cli/build_identity.h"

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

namespace {

struct Provenance {
    std::vector<std::string> command_line;
};

// Declared once: the "provenance" object and its rows in the metrics reference.
const StatGroup<Provenance>& provenance_group() {
    static const StatGroup<Provenance> g = [] {
        StatGroup<Provenance> p;
        p.stat("pcisim_version", "", "pcisim's version.",
               [](const Provenance&) { return pcisim_version(); })
            .stat("git", "", "The commit the build was configured from (-dirty: with "
                             "uncommitted changes; unknown outside a checkout).",
                  [](const Provenance&) { return pcisim_git(); })
            .stat("systemc_version", "", "The SystemC library's version.",
                  [](const Provenance&) { return systemc_version(); })
            .values("command_line", "", "The command, program name first; for run, without the "
                    "options that only choose where outputs go (--json, --vcd, --trace, --pcap, "
                    "-q; --window stays: a window past the run's end makes the run longer).",
                    [](const Provenance& x) {
                        return std::vector<StatValue>(x.command_line.begin(), x.command_line.end());
                    });
        return p;
    }();
    return g;
}

// An argument that is not UTF-8 (a file name, say) must not make the output unwritable: its
// stray bytes are shown as U+FFFD.
std::vector<std::string> shown_command_line() {
    std::vector<std::string> args;
    for (const auto& arg : command_line())
        args.push_back(nlohmann::json::parse(nlohmann::json(arg).dump(
                                                 -1, ' ', false,
                                                 nlohmann::json::error_handler_t::replace))
                           .get<std::string>());
    return args;
}

}  // namespace

nlohmann::json provenance() { return stats_json(provenance_group(), Provenance{shown_command_line()}); }

nlohmann::json provenance_without(const std::vector<std::string>& output_options,
                                  const std::vector<std::string>& output_flags) {
    const std::vector<std::string> all = shown_command_line();
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
    return stats_json(provenance_group(), Provenance{kept});
}

std::vector<MetricSpec> provenance_metrics() {
    std::vector<MetricSpec> rows;
    for (const MetricSpec& m : provenance_group().metrics())
        rows.push_back({"provenance." + m.key, m.unit, m.meaning});
    return rows;
}

std::string version_line() {
    return std::string("pcisim ") + pcisim_version() + " (git " + pcisim_git() + "), SystemC " +
           systemc_version();
}

}  // namespace pcisim::cli
