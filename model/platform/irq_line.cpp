#include "platform/irq_line.h"

#include <stdexcept>

#include "platform/cpu_scheduler.h"

namespace pcisim {

IrqLine::IrqLine(std::vector<CpuScheduler*> targets, IrqDelivery delivery, CpuSoftware& handler)
    : targets_(std::move(targets)), delivery_(delivery), handler_(handler) {
    if (targets_.empty()) throw std::logic_error("an interrupt line with no CPU to go to");
    delivered_ = targets_.front();
}

void IrqLine::set_interrupt(bool asserted) {
    if (asserted == asserted_) return;
    asserted_ = asserted;
    if (asserted) {
        ++deliveries_;
        if (delivery_ == IrqDelivery::Rotate) {
            delivered_ = targets_[next_];
            next_ = (next_ + 1) % targets_.size();
        }
    }
    delivered_->update_line();
}

void IrqLine::set_line_quiet(bool quiet) {
    quiet_ = quiet;
    for (CpuScheduler* cpu : targets_) cpu->update_quiet();
}

}  // namespace pcisim
