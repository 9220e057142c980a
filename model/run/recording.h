// What happened in a time window: every bus transaction of the NIC's segment and every NIC/CPU
// step (trace_hooks.h), for the waveform view, the trace view and explain.
//
// It is installed on the bus and as the trace sink only while the window is open (the
// Simulation opens and closes it at the window's edges), so nothing is recorded, and nothing
// costs anything, outside the window.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/pci_types.h"
#include "core/trace_hooks.h"

namespace pcisim {

class PciBus;

// "START_US:END_US" (microseconds of simulated time); throws std::invalid_argument.
struct TimeWindow {
    Picos from = 0, to = 0;
    static TimeWindow parse(const std::string& text);
};

// The segment as the recording saw it.
struct BusInfo {
    BusKind kind = BusKind::Pci;
    unsigned width_bits = 32;
    double clock_mhz = 33;
    Picos period = 0;
    unsigned turnaround_clocks = 1;
    std::vector<std::string> masters;  // by master id
    double bytes_per_s() const { return width_bits / 8.0 * clock_mhz * 1e6; }
};

// Clocks inside a transaction's data phases in which the target held TRDY# off.
struct DataWait {
    std::size_t transaction;  // index into Recording::transactions()
    Picos start, end;
};

// The port whose steps explain follows: its NIC's module (also its master name on the bus),
// the port's index and the CPU that runs its driver.  The Simulation sets it to its first
// transmitting port and records that NIC's segment (a card's bus for a NIC behind a card bridge).
// A receiving port also has the wire source that sends to it.  The modules of the port whose
// steps the trace names are the NIC's to say (Nic::port_module, mac_module, receive_module).
struct RecordedPort {
    std::string nic = "nic";
    unsigned port = 0;
    std::string cpu = "cpu0";
    std::string wire;  // receive: the wire source's module
    std::string port_module = "nic.port0";
    std::string mac_module = "nic.port0.mac";  // its wire
    std::string rx_module = "nic.port0.rx";    // its receive engine
};

class Recording : public TraceSink {
public:
    explicit Recording(TimeWindow window) : window_(window) {}

    // Starts and stops recording (at the window's edges).
    void open(PciBus& bus);
    void close(PciBus& bus);
    // The bus observer (PciBus::set_transaction_observer); open() installs it.
    static void on_transaction(void* self, const BusTransaction& t);
    void event(const TraceEvent& e) override;

    const TimeWindow& window() const { return window_; }
    void follow(RecordedPort port) { port_ = std::move(port); }
    const RecordedPort& port() const { return port_; }
    // The receiving port explain follows, on the recorded segment; nullptr: none receives there.
    void follow_receive(RecordedPort port) { receiver_ = std::move(port), receives_ = true; }
    const RecordedPort* receive_port() const { return receives_ ? &receiver_ : nullptr; }
    const BusInfo& bus() const { return bus_; }
    const std::vector<BusTransaction>& transactions() const { return transactions_; }
    const std::vector<TraceEvent>& events() const { return events_; }
    const std::vector<DataWait>& data_waits() const { return data_waits_; }
    // Reads the segment's description without recording (tests that drive a bus themselves).
    void describe(const PciBus& bus);

private:
    TimeWindow window_;
    RecordedPort port_;
    RecordedPort receiver_;
    bool receives_ = false;
    BusInfo bus_;
    const PciBus* source_ = nullptr;            // the bus being recorded
    std::vector<BusTransaction> transactions_;  // in bus order
    std::vector<TraceEvent> events_;            // in the order they were reported
    std::vector<DataWait> data_waits_;          // in transaction order
};

}  // namespace pcisim
