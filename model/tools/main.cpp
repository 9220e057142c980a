// pcisim: a cycle-approximate PCI/PCI-X bus and e1000 NIC simulator.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <string>

#include "tools/cli/commands.h"
#include "tools/cli/provenance.h"
#include "core/sim_time.h"

namespace {

const char* kUsage =
    "usage: pcisim COMMAND [ARGS]\n"
    "  run SCENARIO [--set KEY=VALUE ...] [--json OUT]   simulate one scenario\n"
    "      [--vcd FILE] [--trace FILE] [--window START_US:END_US]  with waveforms / a trace\n"
    "  check SCENARIO [--set KEY=VALUE ...]              validate a scenario without running\n"
    "  schema                                            every scenario key, as Markdown\n"
    "  metrics                                           every result key, as Markdown\n"
    "  sweep SCENARIO --vary KEY=V1,V2|A:B:STEP ... [--set KEY=VALUE ...] [-j N] [-o OUT.csv]\n"
    "        [--shard I/N] [--timeout-s S] [--resume] [--force]\n"
    "                                                    one simulation per point, as CSV+JSON\n"
    "  merge OUT.csv SHARD.csv ...                       join the shards of a sweep\n"
    "  validate [--case ID] [-j N] [--doc FILE] [--json OUT] [--predictions]\n"
    "                                                    compare with the reference measurements\n"
    "  fit SWEEP.csv [--group-by KEYS] [--x COL] [--y COL] [--wire-pps-column COL]\n"
    "      [--bus-bytes-per-s B] [--json OUT]            fit pps = B/(s+k) per regime\n"
    "  explain SCENARIO [--set KEY=VALUE ...] [--json OUT] [--window START_US:END_US]\n"
    "        [--vcd FILE] [--trace FILE]                  where the time of a packet goes\n"
    "  bench [--case ID ...] [--packets N1,N2,...] [--runs R] [--json OUT]\n"
    "                                                    how fast the simulator runs\n"
    "  version, --version                                pcisim's version, git commit, SystemC\n"
    "Run 'pcisim COMMAND --help' for a command's options.\n";

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
    if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
        std::cout << kUsage;
        return checked_stdout(argc < 2 ? 2 : 0);
    }
    if (std::string(argv[1]) == "--version" || std::string(argv[1]) == "version") {
        std::cout << pcisim::cli::version_line() << "\n";
        return checked_stdout(0);
    }
    auto it = commands.find(argv[1]);
    if (it == commands.end()) {
        std::cerr << "pcisim: unknown command '" << argv[1] << "'\n" << kUsage;
        return 2;
    }
    return checked_stdout(it->second(pcisim::cli::Args(argv + 2, argv + argc)));
}

// Our own entry point instead of the library's, so that the SystemC banner is off before the
// kernel prints it.
int main(int argc, char* argv[]) {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
