// The test runner: main() below starts SystemC, which calls sc_main(); Catch runs from there.
// ctest starts one process per test case (catch_discover_tests), because SystemC elaborates
// once per process.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

#include "core/sim_time.h"

int sc_main(int argc, char* argv[]) {
    pcisim::use_picosecond_resolution();
    return Catch::Session().run(argc, argv);
}

// Our own entry point instead of the library's, so that the SystemC banner is off before the
// kernel prints it.
int main(int argc, char* argv[]) {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
