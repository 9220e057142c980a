// pcisim: a cycle-approximate PCI/PCI-X bus and e1000 NIC simulator.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "tools/cli/commands.h"
#include "tools/cli/provenance.h"
#include "tools/output/verbosity.h"
#include "core/data_dir.h"
#include "core/sim_time.h"

namespace {

const char* kUsage =
    "usage: pcisim [--data-dir DIR] [-q] COMMAND [ARGS]\n"
    "  run SCENARIO [--set KEY=VALUE ...] [--json OUT]   simulate one scenario ('-': from stdin)\n"
    "      [--vcd FILE] [--trace FILE] [--pcap FILE] [--window START_US:END_US]\n"
    "                                                    with waveforms / a trace / the frames\n"
    "  check SCENARIO [--set KEY=VALUE ...]              validate a scenario without running\n"
    "  schema                                            every scenario key, as Markdown\n"
    "  metrics                                           every result key, as Markdown\n"
    "  sweep SCENARIO --vary KEY=V1,V2|A:B:STEP ... [--set KEY=VALUE ...] [-j N] [-o OUT.csv]\n"
    "        [--shard I/N] [--timeout-s S] [--resume] [--force] [--columns LIST]\n"
    "                                                    one simulation per point, as CSV+JSON\n"
    "  merge OUT.csv SHARD.csv ...                       join the shards of a sweep\n"
    "  validate [--case ID] [-j N] [--doc FILE] [--json OUT] [--predictions] [--strict]\n"
    "                                                    compare with the reference measurements\n"
    "  fit SWEEP.csv [--group-by KEYS] [--x COL] [--y COL] [--wire-pps-column COL]\n"
    "      [--bus-bytes-per-s B] [--json OUT]            fit pps = B/(s+k) per regime\n"
    "  explain SCENARIO [--set KEY=VALUE ...] [--json OUT] [--window START_US:END_US]\n"
    "        [--vcd FILE] [--trace FILE] [--pcap FILE]   where the time of a packet goes\n"
    "  bench [--case ID ...] [--packets N1,N2,...] [--runs R] [--json OUT]\n"
    "                                                    how fast the simulator runs\n"
    "  help [COMMAND]                                    this text, or a command's options\n"
    "  version, --version                                pcisim's version, git commit, SystemC\n"
    "Options of every command, before or after it:\n"
    "  --data-dir DIR   the scenarios, platforms and calibration set (scenarios/ under DIR);\n"
    "                   default $PCISIM_DATA_DIR, then <prefix>/share/pcisim of the\n"
    "                   installation, then the source tree the build came from\n"
    "  -q, --quiet      no progress and no readable report: only errors, warnings and\n"
    "                   validate's verdict (the files asked for are still written)\n"
    "Exit status: 0 success, 1 a run or check that failed, 2 bad input.\n"
    "Run 'pcisim help COMMAND' for a command's options.\n";

// The data directory line under the usage: where scenario names are looked up.
std::string data_dir_line() {
    try {
        pcisim::DataDir d = pcisim::find_data_dir();
        if (d.path.empty()) return "data directory: none found (give --data-dir)\n";
        return "data directory: " + d.path.string() + " (" + d.found_by + ")\n";
    } catch (const pcisim::DataDirError& e) {
        return std::string("data directory: ") + e.what() + "\n";
    }
}

// --data-dir DIR and -q may stand anywhere: they are taken out of the arguments before the
// command sees them.  Returns false (with a message) for a --data-dir without its directory.
bool take_common_options(std::vector<std::string>& args) {
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "-q" || a == "--quiet") {
            pcisim::output::set_quiet(true);
        } else if (a == "--data-dir" || a.rfind("--data-dir=", 0) == 0) {
            std::string dir = a == "--data-dir" ? (i + 1 < args.size() ? args[++i] : "")
                                                : a.substr(std::strlen("--data-dir="));
            if (dir.empty()) {
                std::cerr << "pcisim: --data-dir needs a directory\n";
                return false;
            }
            pcisim::set_data_dir(dir);
        } else {
            rest.push_back(a);
        }
    }
    args = std::move(rest);
    return true;
}

// A full disk, a closed pipe or /dev/full must not pass for success: every command's report
// goes to stdout, so a write that failed there fails the command (exit 1).
int checked_stdout(int code) {
    errno = 0;
    std::cout.flush();
    if (std::cout.good() && std::fflush(stdout) == 0 && !std::ferror(stdout)) return code;
    std::cerr << "pcisim: cannot write the standard output"
              << (errno ? std::string(": ") + std::strerror(errno) : std::string()) << "\n";
    return 1;
}

}  // namespace

// Called by SystemC's sc_elab_and_sim() from main() below.
int sc_main(int argc, char* argv[]) {
    pcisim::use_picosecond_resolution();
    pcisim::cli::record_command_line(argc, argv);
    const std::map<std::string, int (*)(const pcisim::cli::Args&)> commands = {
        {"run", pcisim::cli::run},
        {"check", pcisim::cli::check},
        {"schema", pcisim::cli::schema},
        {"metrics", pcisim::cli::metrics},
        {"sweep", pcisim::cli::sweep},
        {"merge", pcisim::cli::merge},
        {"fit", pcisim::cli::fit},
        {"validate", pcisim::cli::validate},
        {"explain", pcisim::cli::explain},
        {"bench", pcisim::cli::bench},
    };
    std::vector<std::string> args(argv + 1, argv + argc);
    if (!take_common_options(args)) return 2;
    const std::string command = args.empty() ? "" : args.front();
    if (command.empty() || command == "--help" || command == "-h" ||
        (command == "help" && args.size() == 1)) {
        std::cout << kUsage << data_dir_line();
        return checked_stdout(command.empty() ? 2 : 0);
    }
    if (command == "--version" || command == "version") {
        std::cout << pcisim::cli::version_line() << "\n";
        return checked_stdout(0);
    }
    // "help COMMAND" is "COMMAND --help".
    const bool help = command == "help";
    auto it = commands.find(help ? args[1] : command);
    if (it == commands.end()) {
        std::cerr << "pcisim: unknown command '" << (help ? args[1] : command) << "'\n" << kUsage;
        return 2;
    }
    try {
        pcisim::find_data_dir();  // a --data-dir or PCISIM_DATA_DIR without scenarios/ is an error
    } catch (const pcisim::DataDirError& e) {
        std::cerr << "pcisim: " << e.what() << "\n";
        return 2;
    }
    pcisim::cli::Args rest = help ? pcisim::cli::Args{"--help"}
                                  : pcisim::cli::Args(args.begin() + 1, args.end());
    return checked_stdout(it->second(rest));
}

// Our own entry point instead of the library's, so that the SystemC banner is off before the
// kernel prints it.
int main(int argc, char* argv[]) {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
