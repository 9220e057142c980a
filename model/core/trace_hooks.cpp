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
    }
    return "?";
}

}  // namespace pcisim
