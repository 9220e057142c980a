// libFuzzer target for everything that parses user input before a simulation starts: the
// scenario loader (JSON, platform merge, schema and combination checks), --set and --vary.
// The input format is in scenario_input.h.  Built with -DPCISIM_FUZZ=ON (clang only); run by
// tests/ci-extra.sh.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/scenario_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    pcisim::fuzz::feed_scenario_input(std::string(reinterpret_cast<const char*>(data), size));
    return 0;
}

// libsystemc refers to sc_main (C linkage, as SystemC declares it); the loader never starts a
// simulation.
extern "C" int sc_main(int, char**) { return 0; }
