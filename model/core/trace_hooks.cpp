#include "core/trace_hooks.h"

namespace pcisim {

const char* to_string(TraceStep s) {
    switch (s) {
    case TraceStep::DescriptorFetch: return "descriptor fetch";
    case TraceStep::FifoWait: return "FIFO wait";
    case TraceStep::DataRead: return "data read";
    case TraceStep::Processing: return "processing";
    case TraceStep::Wire: return "wire";
    case TraceStep::Gap: return "inter-packet gap";
    case TraceStep::WriteBack: return "write-back";
    case TraceStep::Interrupt: return "INTA#";
    case TraceStep::Xmit: return "xmit";
    case TraceStep::InterruptHandler: return "interrupt handler";
    case TraceStep::Timer: return "timer";
    case TraceStep::MmioRead: return "MMIO read stall";
    case TraceStep::WriteCommitWait: return "read behind posted writes";
    case TraceStep::RxWire: return "wire (received)";
    case TraceStep::RxFifo: return "RX FIFO";
    case TraceStep::RxDataWrite: return "data write";
    case TraceStep::RxMissFifoFull: return "missed (FIFO full)";
    case TraceStep::RxMissNoDescriptor: return "missed (no descriptor)";
    case TraceStep::RxClean: return "clean_rx_irq";
    case TraceStep::RxFrameCleaned: return "frame cleaned";
    case TraceStep::RxRefill: return "refill (alloc_rx_buffers, RDT)";
    }
    return "?";
}

}  // namespace pcisim
