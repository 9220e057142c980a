#include "tools/explain/vcd_writer.h"

#include <algorithm>
#include <string>
#include <vector>

namespace pcisim {

namespace {

enum Signal { Frame, Irdy, Trdy, Devsel, Stop, Phase, Master, kFirstMasterSignal };

struct Change {
    Picos when;
    std::size_t signal;
    std::string value;
};

// VCD identifiers: printable ASCII from '!' upwards, as short as possible.
std::string vcd_id(std::size_t n) {
    std::string id;
    do {
        id += static_cast<char>('!' + n % 94);
        n /= 94;
    } while (n);
    return id;
}

std::string no_spaces(std::string s) {
    std::replace(s.begin(), s.end(), ' ', '_');
    return s.empty() ? "-" : s;
}

// The pin-level changes of one transaction (see the header for the conventions).
void add_transaction(const BusTransaction& t, const std::vector<DataWait>& waits,
                     const BusInfo& bus, std::vector<Change>& out) {
    const Picos clk = bus.period;
    const std::size_t req = kFirstMasterSignal + 2 * static_cast<std::size_t>(t.master);
    auto at = [&](Picos when, std::size_t s, std::string v) { out.push_back({when, s, std::move(v)}); };

    if (t.request < t.start) {
        at(t.request, req, "0");
        Picos grant = std::max(t.request, t.start - clk);
        for (std::size_t m = 0; m < bus.masters.size(); ++m)
            at(grant, kFirstMasterSignal + 2 * m + 1, m == static_cast<std::size_t>(t.master) ? "0" : "1");
    } else {  // parked: GNT# is already there
        for (std::size_t m = 0; m < bus.masters.size(); ++m)
            at(t.start, kFirstMasterSignal + 2 * m + 1, m == static_cast<std::size_t>(t.master) ? "0" : "1");
    }
    at(t.start, req, "1");

    const Picos last_end = t.end - bus.turnaround_clocks * clk;  // after the last data phase
    const Picos last_phase = last_end - clk;
    const Picos addressed = t.start + (bus.kind == BusKind::PciX ? 2 : 1) * clk;
    at(t.start, Frame, "0");
    at(t.start, Phase, "address");
    at(t.start, Master, no_spaces(bus.masters.at(t.master)));
    if (bus.kind == BusKind::PciX) at(t.start + clk, Phase, "attribute");
    at(addressed, Irdy, "0");
    if (addressed < t.data_start) at(addressed, Phase, "wait");
    if (t.devsel < last_end) at(t.devsel, Devsel, "0");
    switch (t.termination) {
    case Termination::Retry:
        at(t.data_start, Stop, "0");
        at(t.data_start, Phase, "retry");
        break;
    case Termination::SplitResponse:
        at(t.data_start, Phase, "split-response");
        break;
    default:
        at(t.data_start, Trdy, "0");
        at(t.data_start, Phase, "data");
        for (const auto& w : waits) {
            at(w.start, Trdy, "1");
            at(w.start, Phase, "wait");
            at(w.end, Trdy, "0");
            at(w.end, Phase, "data");
        }
        if (t.termination == Termination::Disconnect) at(last_phase, Stop, "0");
        break;
    }
    at(std::max(last_phase, t.start + clk), Frame, "1");
    for (Signal s : {Irdy, Trdy, Devsel, Stop}) at(last_end, s, "1");
    if (last_end < t.end) at(last_end, Phase, "turnaround");
    at(t.end, Phase, "idle");
    at(t.end, Master, "-");
}

}  // namespace

void write_vcd(std::ostream& out, const Recording& recording) {
    const BusInfo& bus = recording.bus();
    const TimeWindow& w = recording.window();
    const std::size_t signals = kFirstMasterSignal + 2 * bus.masters.size();

    std::vector<Change> changes;
    const auto& transactions = recording.transactions();
    const auto& waits = recording.data_waits();
    auto wait = waits.begin();
    for (std::size_t i = 0; i < transactions.size(); ++i) {
        auto first = wait;
        while (wait != waits.end() && wait->transaction == i) ++wait;
        add_transaction(transactions[i], std::vector<DataWait>(first, wait), bus, changes);
    }
    // Equal times keep transaction order, so the later transaction's values win.
    std::stable_sort(changes.begin(), changes.end(),
                     [](const Change& a, const Change& b) { return a.when < b.when; });

    auto is_string = [](std::size_t s) { return s == Phase || s == Master; };
    out << "$version pcisim $end\n$timescale 1ps $end\n$scope module bus $end\n";
    const char* names[] = {"FRAME#", "IRDY#", "TRDY#", "DEVSEL#", "STOP#", "phase", "master"};
    for (std::size_t s = 0; s < kFirstMasterSignal; ++s)
        out << (is_string(s) ? "$var string 1 " : "$var wire 1 ") << vcd_id(s) << " "
            << names[s] << " $end\n";
    for (std::size_t m = 0; m < bus.masters.size(); ++m) {
        std::size_t req = kFirstMasterSignal + 2 * m;
        std::string master = no_spaces(bus.masters[m]);
        out << "$var wire 1 " << vcd_id(req) << " " << master << "_REQ# $end\n"
            << "$var wire 1 " << vcd_id(req + 1) << " " << master << "_GNT# $end\n";
    }
    out << "$upscope $end\n$enddefinitions $end\n";

    std::vector<std::string> value(signals, "1");
    value[Phase] = "idle";
    value[Master] = "-";
    auto line = [&](std::size_t s, const std::string& v) {
        out << (is_string(s) ? "s" + v + " " : v) << vcd_id(s) << "\n";
    };
    std::size_t i = 0;
    for (; i < changes.size() && changes[i].when <= w.from; ++i) value[changes[i].signal] = changes[i].value;
    out << "#" << w.from << "\n$dumpvars\n";
    for (std::size_t s = 0; s < signals; ++s) line(s, value[s]);
    out << "$end\n";

    std::vector<std::string> shown = value;
    while (i < changes.size() && changes[i].when <= w.to) {
        Picos when = changes[i].when;
        for (; i < changes.size() && changes[i].when == when; ++i) value[changes[i].signal] = changes[i].value;
        bool stamped = false;
        for (std::size_t s = 0; s < signals; ++s) {
            if (value[s] == shown[s]) continue;
            if (!stamped) out << "#" << when << "\n", stamped = true;
            line(s, value[s]);
            shown[s] = value[s];
        }
    }
    out << "#" << w.to << "\n";
}

}  // namespace pcisim
