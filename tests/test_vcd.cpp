// The VCD view of the bus: a known burst gives exactly the expected pin transitions, and only
// the window is written.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "bus_test_parts.h"
#include "run/recording.h"
#include "tools/explain/vcd_writer.h"

namespace test_vcd {

using namespace pcisim;
using namespace pcisim::test;

namespace {

constexpr Picos kClk = 30303;  // PCI 33 MHz

using Transition = std::tuple<Picos, std::string, std::string>;  // time, signal, value

// Every value written after $enddefinitions (the $dumpvars block included), by signal name.
std::set<Transition> parse_vcd(const std::string& text) {
    std::istringstream in(text);
    std::map<std::string, std::string> names;
    std::set<Transition> out;
    std::string line;
    Picos now = 0;
    bool body = false;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string first;
        words >> first;
        if (first == "$var") {
            std::string type, size, id, name;
            words >> type >> size >> id >> name;
            names[id] = name;
        } else if (first == "$enddefinitions") {
            body = true;
        } else if (body && first[0] == '#') {
            now = std::stoull(first.substr(1));
        } else if (body && first[0] == 's') {
            std::string id;
            words >> id;
            out.emplace(now, names.at(id), first.substr(1));
        } else if (body && (first[0] == '0' || first[0] == '1')) {
            out.emplace(now, names.at(first.substr(1)), first.substr(0, 1));
        }
    }
    return out;
}

}  // namespace

TEST_CASE("a single write burst on PCI 32/33 gives exactly the expected VCD transitions") {
    BusWithTarget segment(BusKind::Pci, 32, 33);
    PciBus& bus = segment.bus;
    RecordingMaster m("m", bus);
    Recording rec({0, 40 * kClk});
    rec.open(bus);
    bus.write(m.id, 0x1000, 64, 7);
    sc_core::sc_start();
    rec.close(bus);
    std::ostringstream vcd;
    write_vcd(vcd, rec);

    // REQ# at clock 0; GNT# one clock before FRAME#; FRAME# at 2 (idle bus, not parked);
    // fast DEVSEL and write data from clock 3; 16 data phases (3..18), FRAME# released in the
    // last one; turnaround in clock 19; idle from 20 (GNT# stays: parked).
    std::set<Transition> expected = {
        {0, "FRAME#", "1"}, {0, "IRDY#", "1"}, {0, "TRDY#", "1"}, {0, "DEVSEL#", "1"},
        {0, "STOP#", "1"}, {0, "phase", "idle"}, {0, "master", "-"}, {0, "m_REQ#", "0"},
        {0, "m_GNT#", "1"},
        {1 * kClk, "m_GNT#", "0"},
        {2 * kClk, "FRAME#", "0"}, {2 * kClk, "m_REQ#", "1"}, {2 * kClk, "phase", "address"},
        {2 * kClk, "master", "m"},
        {3 * kClk, "IRDY#", "0"}, {3 * kClk, "TRDY#", "0"}, {3 * kClk, "DEVSEL#", "0"},
        {3 * kClk, "phase", "data"},
        {18 * kClk, "FRAME#", "1"},
        {19 * kClk, "IRDY#", "1"}, {19 * kClk, "TRDY#", "1"}, {19 * kClk, "DEVSEL#", "1"},
        {19 * kClk, "phase", "turnaround"},
        {20 * kClk, "phase", "idle"}, {20 * kClk, "master", "-"},
    };
    CHECK(parse_vcd(vcd.str()) == expected);
}

TEST_CASE("a retried read shows STOP# without TRDY#, then the data with DEVSEL# and TRDY#") {
    BusWithTarget segment(BusKind::Pci, 32, 33, Devsel::Medium);
    PciBus& bus = segment.bus;
    FixedTarget& target = segment.target;
    target.answer.kind = TargetOffer::Retry;
    RecordingMaster m("m", bus);
    // The target answers Retry to the first attempt only.
    At switch_to_data("switch", 3 * kClk, [&] { target.answer.kind = TargetOffer::Data; });
    Recording rec({0, 40 * kClk});
    rec.open(bus);
    bus.read(m.id, 0x1000, 8, 1);
    sc_core::sc_start();
    rec.close(bus);
    std::ostringstream vcd;
    write_vcd(vcd, rec);
    std::set<Transition> got = parse_vcd(vcd.str());

    // Attempt 1: FRAME# at 2, medium DEVSEL# in 4, STOP# (Retry) in 4, turnaround 5; REQ#
    // released for the 2 back-off clocks (6, 7); the bus stays parked on the master, so
    // attempt 2 starts at 8: DEVSEL# and TRDY# in 10, 2 data phases (10, 11), turnaround 12.
    for (const Transition& t : std::set<Transition>{
             {4 * kClk, "STOP#", "0"}, {4 * kClk, "DEVSEL#", "0"}, {4 * kClk, "phase", "retry"},
             {4 * kClk, "FRAME#", "1"}, {5 * kClk, "STOP#", "1"}, {5 * kClk, "phase", "turnaround"},
             {6 * kClk, "phase", "idle"}, {8 * kClk, "FRAME#", "0"}, {8 * kClk, "phase", "address"},
             {10 * kClk, "TRDY#", "0"}, {10 * kClk, "phase", "data"}, {11 * kClk, "FRAME#", "1"},
             {12 * kClk, "TRDY#", "1"}, {13 * kClk, "phase", "idle"}})
        CHECK(got.count(t) == 1);
    for (const auto& [when, signal, value] : got)
        if (signal == "TRDY#" && value == "0") CHECK(when == 10 * kClk);  // no data on the retry
}

TEST_CASE("only the window is written to the VCD") {
    BusWithTarget segment(BusKind::Pci, 32, 33);
    PciBus& bus = segment.bus;
    RecordingMaster m("m", bus);
    Recording rec({100 * kClk, 200 * kClk});
    rec.open(bus);
    // Three bursts: before, inside and after the window.
    At early("early", 0, [&] { bus.write(m.id, 0x1000, 64, 1); });
    At inside("inside", 120 * kClk, [&] { bus.write(m.id, 0x1000, 64, 2); });
    At late("late", 300 * kClk, [&] { bus.write(m.id, 0x1000, 64, 3); });
    sc_core::sc_start();
    rec.close(bus);
    REQUIRE(rec.transactions().size() == 1);
    CHECK(rec.transactions()[0].tag == 2);
    std::ostringstream vcd;
    write_vcd(vcd, rec);
    for (const auto& [when, signal, value] : parse_vcd(vcd.str())) {
        CHECK(when >= 100 * kClk);
        CHECK(when <= 200 * kClk);
    }
}

}  // namespace test_vcd
