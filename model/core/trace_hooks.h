// One observer interface for the processing steps of the NIC and the CPU (explain, traces).
//
// The model calls `trace::emit(...)` at a few sites; with no sink installed that is one load and
// a predictable branch, so the hooks cost nothing in ordinary runs.  One simulation per process
// (SystemC elaborates once), so a process-wide sink pointer is enough.
#pragma once

#include <cstdint>

#include "core/pci_types.h"

namespace pcisim {

// What a module was doing.  Steps have a Begin and an End; Instant marks a moment.
enum class TraceStep {
    DescriptorFetch,   // NIC: descriptor DMA read, issue to last byte
    FifoWait,          // NIC: next packet ready but the TX FIFO has no room for it
    DataRead,          // NIC: one buffer's DMA read, issue to last byte
    Processing,        // NIC: last data in to commit to the MAC (nic.packet_processing_ns)
    Wire,              // NIC MAC: preamble + frame + FCS on the wire
    Gap,               // NIC MAC: inter-packet gap after a frame
    WriteBack,         // NIC: descriptor write-back, issue to crossing the bus
    Interrupt,         // NIC: INTA# asserted (Instant)
    Xmit,              // CPU: one pktgen iteration (skb, xmit_frame, TDT write)
    InterruptHandler,  // CPU: interrupt entry, handler, exit
    Timer,             // CPU: driver timer
    MmioRead,          // CPU: stalled on a register read
    WriteCommitWait,   // bridge face: a DMA read waiting for the posted writes ahead of it
                       // to be committed (host.write_commit_ns), in the read's segment time
    // The receive side (RxPort, the wire source and the receive driver); packet: the frame's
    // number from the wire source (its payload's), -1: none.
    RxWire,            // wire source: a frame's share of the line (gap, preamble, frame, FCS)
    RxFifo,            // NIC: frame in the RX FIFO, last byte in to its data write's issue
    RxDataWrite,       // NIC: the frame's posted write to its buffer, issue to crossing the bus
    RxMissFifoFull,    // NIC: frame missed, no FIFO room (MPC) (Instant)
    RxMissNoDescriptor,  // NIC: frame missed, no FIFO room and no descriptor (MPC, RNBC) (Instant)
    RxClean,           // CPU: clean_rx_irq's loop over frames with DD (one poll)
    RxFrameCleaned,    // CPU: clean_rx_irq took this frame (Instant)
    RxRefill,          // CPU: alloc_rx_buffers, its RDT writes included
};
const char* to_string(TraceStep s);

enum class TracePhase { Begin, End, Instant };

struct TraceEvent {
    TraceStep step;
    TracePhase phase;
    const char* module;        // the module's SystemC name: one track each
    Picos when;                // may lie ahead of sc_time_stamp() (CPU cycles not yet waited)
    unsigned port = 0;         // NIC port / CPU index
    std::int64_t packet = -1;  // the port's packet number (frames in MAC order), -1: none
    std::uint32_t bytes = 0;
};

class TraceSink {
public:
    virtual ~TraceSink() = default;
    virtual void event(const TraceEvent& e) = 0;
};

namespace trace {
inline TraceSink* sink = nullptr;  // set by whoever records; nullptr: hooks do nothing

inline void emit(TraceStep step, TracePhase phase, const char* module, Picos when,
                 unsigned port = 0, std::int64_t packet = -1, std::uint32_t bytes = 0) {
    if (sink) sink->event({step, phase, module, when, port, packet, bytes});
}
}  // namespace trace

}  // namespace pcisim
