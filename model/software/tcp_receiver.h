// The far end of a TCP stream (netperf's netserver, an ftp client) and the way its ACKs come
// back.  It reads every frame the sender's NIC puts on the wire (the headers as they arrived:
// sequence numbers must be continuous), and acknowledges like Linux's receiver: at once after
// every second full segment, otherwise when the delayed-ACK timer (tcp.delayed_ack_us) runs
// out.  Its CPU takes tcp.receiver_segment_us per segment, one after another, and a segment is
// acknowledged when it has been processed.  Its window is what Linux advertises for the doubled
// receive buffer (TcpStreamOptions::receive_window; the application reads at once).
//
// The ACK is a timed event, not a frame through the NIC's receive path: it reaches the sender
// tcp.rtt_us after the segment that triggered it left the wire (the propagation, the peer's
// work and the ACK's own wire time in one figure) and raises the sender's interrupt line, ORed
// with the NIC's own; the sender's handler then pays cpu.cycles.tcp_ack per ACK plus the
// driver's interrupt handler (an ICR read).  The receive DMA of the 64-byte ACK frames and the
// rest of the NAPI poll's register accesses are not modelled (docs/tso.md).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include <systemc>

#include "core/pci_types.h"
#include "software/tcp_sender.h"

namespace pcisim {

class TcpReceiver : public sc_core::sc_module, public InterruptSink {
public:
    SC_HAS_PROCESS(TcpReceiver);
    // `cpu_line` is where the sender's interrupt line goes (the CPU, or its scheduler's line).
    TcpReceiver(sc_core::sc_module_name name, const TcpStreamOptions& options,
                InterruptSink& cpu_line);

    // The NIC's interrupt line passes through here.
    void set_interrupt(bool asserted) override;
    void set_line_quiet(bool) override { cpu_line_.set_line_quiet(false); }

    // A frame left the sender's wire, its last byte at `wire_end`.
    void on_wire(const std::uint8_t* frame, unsigned len, Picos wire_end);
    // The ACKs that have reached the sender by now (cumulative, in stream bytes), taken once.
    std::vector<std::uint64_t> take_acks();

    std::uint64_t window() const { return window_; }
    std::uint32_t first_seq() const { return kInitialSeq; }

    struct Counters {
        std::uint64_t segments = 0, payload_bytes = 0;  // through the receiver's stack
        std::uint64_t acks_sent = 0, delayed_acks = 0;
        std::uint64_t bad_checksums = 0;  // frames whose IP or TCP checksum did not verify
    };
    const Counters& counters() const { return counters_; }
    void reset_counters() { counters_ = Counters{}; }
    std::uint64_t received() const { return rcv_nxt_; }  // stream bytes in order

    static constexpr std::uint32_t kInitialSeq = 0x10000000;  // the sender's ISN

private:
    enum class Due { Processed, AckArrives, DelayedAckTimer };
    void processed(std::uint64_t payload, Picos at);  // a segment through the receiver's stack
    void send_ack(Picos at);  // an ACK of everything processed leaves now
    void at_event();          // SC_METHOD: what is due now
    void update_line();

    TcpStreamOptions options_;
    std::uint64_t window_;
    InterruptSink& cpu_line_;
    Picos busy_until_ = 0;             // the receiver's CPU has processed what arrived by then
    std::uint64_t rcv_nxt_ = 0;        // stream bytes received in order
    std::uint64_t processed_ = 0;      // of those, through the receiver's stack
    std::uint64_t acked_ = 0;          // the highest ACK sent
    unsigned unacked_segments_ = 0;
    std::uint16_t next_ip_id_ = 0;
    bool first_frame_ = true;
    std::multimap<Picos, std::pair<Due, std::uint64_t>> due_;
    std::vector<std::uint64_t> arrived_;
    bool nic_line_ = false, line_ = false;
    Counters counters_;
    sc_core::sc_event event_{"due"};
};

}  // namespace pcisim
