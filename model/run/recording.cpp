#include "run/recording.h"

#include <algorithm>
#include <stdexcept>

#include "platform/pci_bus.h"
#include "core/sim_time.h"

namespace pcisim {

TimeWindow TimeWindow::parse(const std::string& text) {
    auto colon = text.find(':');
    std::size_t used_from = 0, used_to = 0;
    double from = -1, to = -1;
    try {
        if (colon != std::string::npos) {
            from = std::stod(text.substr(0, colon), &used_from);
            to = std::stod(text.substr(colon + 1), &used_to);
        }
    } catch (const std::exception&) {
        from = -1;
    }
    if (colon == std::string::npos || used_from != colon || used_to != text.size() - colon - 1 ||
        from < 0 || to <= from)
        throw std::invalid_argument("--window: '" + text +
                                    "' is not START_US:END_US with 0 <= START < END");
    return {ns_to_ps(from * 1000), ns_to_ps(to * 1000)};
}

void Recording::describe(const PciBus& bus) {
    const BusConfig& c = bus.config();
    bus_.kind = c.kind;
    bus_.width_bits = c.width_bits;
    bus_.clock_mhz = c.clock_mhz;
    bus_.period = bus.period();
    bus_.turnaround_clocks = c.turnaround_clocks;
    bus_.masters.clear();
    for (std::size_t i = 0; i < bus.master_count(); ++i)
        bus_.masters.push_back(bus.master_name(static_cast<int>(i)));
}

void Recording::open(PciBus& bus) {
    describe(bus);
    source_ = &bus;
    bus.set_transaction_observer(&Recording::on_transaction, this);
    trace::sink = this;
}

void Recording::close(PciBus& bus) {
    bus.set_transaction_observer(nullptr, nullptr);
    source_ = nullptr;
    if (trace::sink == this) trace::sink = nullptr;
}

void Recording::on_transaction(void* self, const BusTransaction& t) {
    auto* r = static_cast<Recording*>(self);
    if (t.end <= r->window_.from || std::min(t.request, t.start) >= r->window_.to) return;
    r->transactions_.push_back(t);
    bool moved_data = t.termination != Termination::Retry &&
                      t.termination != Termination::SplitResponse && t.bytes_done > 0;
    if (!moved_data || !r->source_) return;
    // A burst cut short by the latency timer ends before the waits planned for its rest.
    Picos last_data = t.end - r->bus_.turnaround_clocks * r->bus_.period;
    for (const auto& [start, end] : r->source_->data_wait_runs())
        if (start < last_data)
            r->data_waits_.push_back({r->transactions_.size() - 1, start, std::min(end, last_data)});
}

void Recording::event(const TraceEvent& e) {
    if (e.when >= window_.from && e.when <= window_.to) events_.push_back(e);
}

}  // namespace pcisim
