// PCI signal waveforms of a recorded window as a VCD file (GTKWave), synthesized from the
// bus transactions: FRAME#, IRDY#, TRDY#, DEVSEL#, STOP#, REQ#/GNT# per master (0 = asserted,
// as on the wire), the bus phase and the current master as strings (a GTKWave extension of
// VCD); REQ#/GNT# are named MASTER_REQ#, MASTER_GNT#.  Values change only at clock edges;
// time unit 1 ps.
//
// What the view assumes beyond the transaction records (the bus computes transactions, not
// pins): GNT# goes to a master one clock before its FRAME# (or when it asserts REQ#, if later)
// and stays with it (parking) until another master is granted; REQ# is released at FRAME#;
// IRDY# from the clock after the address (PCI-X: attribute) phase; TRDY# from the first data
// clock, off in the clocks the target waits for data mid-burst; STOP# in the last clock of a Retry or of a target Disconnect; FRAME# is released in
// the last data phase.  Phases: address, attribute (PCI-X), wait (DEVSEL decode, read
// turnaround, target wait states), data, retry, split-response, turnaround, idle.
#pragma once

#include <ostream>

#include "run/recording.h"

namespace pcisim {

void write_vcd(std::ostream& out, const Recording& recording);

}  // namespace pcisim
