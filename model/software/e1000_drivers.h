// The e1000 family's drivers as the harness builds them (software/port_driver.h): the Linux
// 2.6.9 driver's transmit half (e1000_driver.h) and receive half (e1000_rx_driver.h) for a port
// of an 8254x (e1000/e1000_family.h), and the checks of a scenario's traffic against the part's
// packet buffer and descriptor cache under that driver's descriptor rules.
#pragma once

#include "software/port_driver.h"

namespace pcisim {

const PortDrivers& e1000_drivers();

}  // namespace pcisim
