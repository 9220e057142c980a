// A device's interrupt line as the I/O APIC delivers it to the CPUs.
//
// Linux 2.6.9 programs every I/O APIC entry for lowest-priority delivery, in logical mode, to
// all online CPUs (arch/i386/kernel/io_apic.c setup_IO_APIC_irqs, TARGET_CPUS), and never
// changes a CPU's task priority after boot (apic.c setup_local_APIC: "We never change this
// later on"), so every CPU in the set ties and the hardware breaks the tie.  The Xeon's chipset
// keeps delivering to the same CPU (Intel SDM vol. 3, 10.7.2.6), the lowest-numbered one in
// practice: irq.delivery "lowest".  An APIC bus that rotates the arbitration priority after
// each message (the P6-style serial APIC bus, SDM vol. 3B app. F) spreads the interrupts over
// the set in turn: "rotate".  /proc/irq/N/smp_affinity narrows the set (i386 programs only the
// first CPU of the mask; x86_64 the whole mask): the scenario's irq_affinity.
//
// Level-triggered: the CPU is chosen when the line rises, and the line stays with that CPU
// until the driver's ICR read lowers it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/pci_types.h"

namespace pcisim {

class CpuScheduler;
class CpuSoftware;

enum class IrqDelivery { Lowest, Rotate };

class IrqLine : public InterruptSink {
public:
    // `targets`: the CPUs the line may go to, lowest-numbered first (at least one); `handler`:
    // whose interrupt() runs there (the driver's ISR, request_irq).
    IrqLine(std::vector<CpuScheduler*> targets, IrqDelivery delivery, CpuSoftware& handler);

    void set_interrupt(bool asserted) override;
    void set_line_quiet(bool quiet) override;

    // Asserted and delivered to `cpu`.
    bool pending_on(const CpuScheduler& cpu) const { return asserted_ && delivered_ == &cpu; }
    bool quiet() const { return quiet_; }
    CpuSoftware& handler() const { return handler_; }
    const std::vector<CpuScheduler*>& targets() const { return targets_; }
    std::uint64_t deliveries() const { return deliveries_; }

private:
    std::vector<CpuScheduler*> targets_;
    IrqDelivery delivery_;
    CpuSoftware& handler_;
    CpuScheduler* delivered_;
    std::size_t next_ = 0;  // Rotate: the target after the last one
    bool asserted_ = false, quiet_ = false;
    std::uint64_t deliveries_ = 0;
};

}  // namespace pcisim
