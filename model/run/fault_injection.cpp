// Test-only scenario keys (testing.*): faults injected on purpose so that the tests can show the
// invariant checks, the watchdog and the sweep's crash handling at work.  The modules they break
// read them: the NIC's parameters (nic_drop_writebacks), DriverOptions (driver_ignore_ring_space),
// RxDriverOptions (rx_driver_no_refill) and the RunMonitor (crash_at_us).  No real scenario sets them.
#include "run/schema.h"

namespace pcisim {

std::vector<ParamSpec> testing_params() {
    return {
        boolean("testing.nic_drop_writebacks", false,
                "Test only: the NIC never writes descriptors back, so the driver never cleans "
                "and the ring deadlocks (the watchdog's test)."),
        boolean("testing.driver_ignore_ring_space", false,
                "Test only: the driver skips its ring-space check and overruns the ring (an "
                "invariant violation's test)."),
        boolean("testing.rx_driver_no_refill", false,
                "Test only: the receive driver fills its ring once and never again, so the NIC "
                "runs out of descriptors and misses every frame (the receive watchdog's test)."),
        number("testing.crash_at_us", "us", 0, 0, 1e9,
               "Test only: the process aborts (SIGABRT) at this simulated time (a crashing "
               "sweep point's test); 0 = never."),
    };
}

}  // namespace pcisim
