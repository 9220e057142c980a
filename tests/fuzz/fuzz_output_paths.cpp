// libFuzzer target for the check every command makes of its output paths before it works
// (output::check_outputs): whatever it lets pass is written, and no input and no other output
// may change.  The input format is in output_paths_input.h.  Built with -DPCISIM_FUZZ=ON (clang
// only); run by tests/ci-extra.sh.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/output_paths_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    pcisim::fuzz::feed_output_paths_input(std::string(reinterpret_cast<const char*>(data), size));
    return 0;
}

// libsystemc refers to sc_main (C linkage, as SystemC declares it); nothing here simulates.
extern "C" int sc_main(int, char**) { return 0; }
