#include "tools/explain/nic_bus_spans.h"

#include <algorithm>

namespace pcisim {

int active_bus_part(const std::vector<int>& on, int first) {
    for (int part = 0; part < kBusParts; ++part)
        if (on[first + part]) return part;
    return -1;
}

int bus_master_index(const BusInfo& bus, const std::string& nic) {
    auto it = std::find(bus.masters.begin(), bus.masters.end(), nic);
    return it == bus.masters.end() ? -1 : static_cast<int>(it - bus.masters.begin());
}

void append_nic_bus_spans(const Recording& rec, int nic, const NicBusChannels& c,
                          std::vector<Span>& spans) {
    const BusInfo& bus = rec.bus();
    const Picos clk = bus.period;
    // nic >= 0: a transaction that is not a split completion has requester -1.
    auto is_nic = [nic](const BusTransaction& t) {
        return nic >= 0 && (t.master == nic || t.requester == nic);
    };
    auto parts_of = [&c](const BusTransaction& t) {
        return t.command == BusCommand::MemWrite ? c.write_parts : c.read_parts;
    };
    for (const auto& w : rec.data_waits()) {
        const BusTransaction& t = rec.transactions()[w.transaction];
        if (is_nic(t))  // the decode channel outranks the data phases it interrupts
            spans.push_back({w.start, w.end, parts_of(t) + kPartDecode});
    }
    for (const auto& t : rec.transactions()) {
        if (!is_nic(t)) {
            spans.push_back({t.start, t.end, c.other_master});
            continue;
        }
        // Split completions carry the NIC's read data.
        const bool write = t.command == BusCommand::MemWrite;
        const int parts = parts_of(t);
        if (t.master == nic)
            spans.push_back({t.request, t.start, write ? c.requesting_write : c.requesting_read});
        if (t.termination == Termination::Retry) {
            spans.push_back({t.start, t.end, parts + kPartRetry});
        } else if (t.termination == Termination::SplitResponse) {
            spans.push_back({t.start, t.end, parts + kPartSplit});
        } else {
            Picos addressed = t.start + (bus.kind == BusKind::PciX ? 2 : 1) * clk;
            Picos last = t.end - bus.turnaround_clocks * clk;
            spans.push_back({t.start, addressed, parts + kPartAddress});
            spans.push_back({addressed, t.data_start, parts + kPartDecode});
            spans.push_back({t.data_start, last, parts + kPartData});
            spans.push_back({last, t.end, parts + kPartTurnaround});
        }
    }
}

Picos bus_busy_time(const Recording& rec, Picos a, Picos b) {
    std::vector<Span> all_bus;
    for (const auto& t : rec.transactions()) all_bus.push_back({t.start, t.end, 0});
    Picos busy = 0;
    for (const auto& s : sweep_spans(all_bus, 1, a, b, first_active))
        if (s.label == 0) busy += s.end - s.start;
    return busy;
}

}  // namespace pcisim
