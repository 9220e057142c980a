// One NIC's bus activity as explain's spans: shared by the transmit and the receive
// decompositions (critical_path.cpp, receive_path.cpp), which lay out their channels apart.
#pragma once

#include <string>
#include <vector>

#include "run/recording.h"
#include "tools/explain/interval_sweep.h"

namespace pcisim {

// The parts of one bus transaction, in channel order; a decomposition's mechanisms start with
// them in this order too.
enum BusPart { kPartAddress, kPartDecode, kPartData, kPartTurnaround, kPartRetry, kPartSplit, kBusParts };

// Where the bus channels start in a decomposition's channel list: reads' and writes'
// kBusParts each, another master's transaction, the NIC waiting for the bus to read or write.
struct NicBusChannels {
    int read_parts, write_parts, other_master, requesting_read, requesting_write;
};

// The bus part active in the channels from `first` on (the count of active spans per channel,
// as interval_sweep's classify gets it), the first in BusPart order; -1 when none is.
int active_bus_part(const std::vector<int>& on, int first);

// The NIC's index among the recorded bus's masters, -1 when it is not one of them.
int bus_master_index(const BusInfo& bus, const std::string& nic);

// Appends the spans of master `nic`'s transactions and of the split completions it receives,
// its waits for the bus, the target's wait states in its data phases, and every other master's
// transactions as `other_master`.
void append_nic_bus_spans(const Recording& rec, int nic, const NicBusChannels& c,
                          std::vector<Span>& spans);

// How long in [a, b) any master's transaction was on the bus.
Picos bus_busy_time(const Recording& rec, Picos a, Picos b);

}  // namespace pcisim
