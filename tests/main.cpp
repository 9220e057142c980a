// The test runner.  SystemC's library owns main() and calls sc_main(); Catch runs from there.
// ctest starts one process per test case (catch_discover_tests), because SystemC elaborates
// once per process.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

#include "sim_time.h"

int sc_main(int argc, char* argv[]) {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);  // keep stdout for results
    pcisim::use_picosecond_resolution();
    return Catch::Session().run(argc, argv);
}
