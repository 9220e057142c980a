#include "platform/cpu_scheduler.h"

namespace pcisim {

InterruptSink& CpuScheduler::add(CpuSoftware& software) {
    software_.push_back(&software);
    lines_.push_back(std::make_unique<Line>(*this));
    return *lines_.back();
}

void CpuScheduler::start() {
    for (CpuSoftware* s : software_) s->start();
}

int CpuScheduler::next_ready() const {
    for (std::size_t i = 0; i < software_.size(); ++i) {
        std::size_t k = (next_ + i) % software_.size();
        if (software_[k]->has_work()) return static_cast<int>(k);
    }
    return -1;
}

// One packet on the next port in turn that can take one (a stopped queue is skipped, as
// pktgen skips a device whose queue is stopped).
void CpuScheduler::run_once() {
    int k = next_ready();
    if (k < 0) return;
    next_ = (static_cast<std::size_t>(k) + 1) % software_.size();
    software_[k]->run_once();
}

void CpuScheduler::interrupt() {
    bool first = true;
    for (std::size_t k = 0; k < software_.size(); ++k) {
        if (!lines_[k]->asserted) continue;
        if (!first) cpu_.charge(cpu_.costs().interrupt_entry_exit_cycles);
        first = false;
        software_[k]->interrupt();
    }
}

// The pending ports' handlers run as if called from the poll list: each pays its entry and
// exit, as after the first port in interrupt().
void CpuScheduler::serve_others(const CpuSoftware& running) {
    if (serving_others_) return;
    serving_others_ = true;
    for (std::size_t k = 0; k < software_.size(); ++k) {
        if (software_[k] == &running || !lines_[k]->asserted) continue;
        cpu_.charge(cpu_.costs().interrupt_entry_exit_cycles);
        software_[k]->interrupt();
    }
    serving_others_ = false;
}

// Every port's driver has its own timer, due at the same ticks.
void CpuScheduler::timer() {
    for (std::size_t k = 0; k < software_.size(); ++k) {
        if (k > 0) cpu_.charge(cpu_.costs().timer_tick_cycles);
        software_[k]->timer();
    }
}

bool CpuScheduler::quiet() const {
    int k = next_ready();
    return k >= 0 && software_[k]->quiet();
}

void CpuScheduler::Line::set_interrupt(bool a) {
    asserted = a;
    owner.update_line();
}

void CpuScheduler::Line::set_line_quiet(bool q) {
    quiet = q;
    owner.update_quiet();
}

void CpuScheduler::update_line() {
    bool any = false;
    for (const auto& l : lines_) any = any || l->asserted;
    cpu_.set_interrupt(any);
}

void CpuScheduler::update_quiet() {
    bool all = true;
    for (const auto& l : lines_) all = all && l->quiet;
    cpu_.set_line_quiet(all);
}

}  // namespace pcisim
