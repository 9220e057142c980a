// --pcap FILE: every frame on the wire, each stamped with its simulated time, read back with a
// pcap reader (tests/pcap/read_capture.py: scapy's pcapng reader, Debian's python3-scapy).
#include <string>

#include <nlohmann/json.hpp>

#include "test_support.h"

namespace test_pcap {

using namespace pcisim::test;
using nlohmann::json;

namespace {

struct Captured {
    json results;  // the run's --json
    json capture;  // what read_capture.py read from the --pcap file
};

Captured run_with_capture(const std::string& scenario, const std::string& sets = "") {
    TempDir dir;
    const std::string pcap = dir / "wire.pcapng", results = dir / "r.json", read = dir / "read.json";
    CommandOutcome r = run_pcisim("run " + scenario_path(scenario) + sets + " -q --pcap " + pcap +
                                  " --json " + results);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const std::string reader = "/usr/bin/python3 " + std::string(PCISIM_SOURCE_DIR) +
                               "/tests/pcap/read_capture.py " + pcap + " >" + read;
    REQUIRE(std::system(reader.c_str()) == 0);
    return {json::parse(slurp(results)), json::parse(slurp(read))};
}

}  // namespace

TEST_CASE("a capture (--pcap) holds the TSO segments as the wire carries them, each at its simulated time") {
    Captured c = run_with_capture("hp-ia64-netperf-tso");
    REQUIRE(c.capture["interfaces"].size() == 1);
    CHECK(c.capture["interfaces"][0]["name"] == "nic.port0");
    CHECK(c.capture["interfaces"][0]["linktype"] == 1);  // Ethernet
    CHECK(c.capture["interfaces"][0]["tsresol"] == 9);   // nanoseconds
    const json& frames = c.capture["frames"];
    // Every frame the port sent since time zero, and nothing else.
    REQUIRE(frames.size() == c.results["nic"]["ports"][0]["frames_sent"].get<std::size_t>());
    REQUIRE(frames.size() > 100);
    const unsigned mss = c.results["scenario"]["tcp"]["mss"].get<unsigned>();
    for (std::size_t i = 0; i < frames.size(); ++i) {
        const json& f = frames[i];
        INFO("frame " << i << ": " << f.dump());
        CHECK(f["direction"] == "out");
        CHECK(f["scapy_ns"] == f["ns"]);  // scapy reads the same time
        REQUIRE(f.contains("tcp"));
        const json& t = f["tcp"];
        // Segments of at most one MSS, with their own IP length and checksums: cut by the NIC.
        CHECK(t["payload"].get<unsigned>() <= mss);
        CHECK(t["ip_len"].get<unsigned>() == 40 + t["payload"].get<unsigned>());
        CHECK(f["len"].get<unsigned>() == 14 + t["ip_len"].get<unsigned>());
        CHECK(t["checksums_ok"] == true);
        if (i == 0) continue;
        const json& before = frames[i - 1];
        // The stream's bytes in order, none missing.
        CHECK(t["seq"].get<std::uint64_t>() ==
              before["tcp"]["seq"].get<std::uint64_t>() + before["tcp"]["payload"].get<std::uint64_t>());
        // One frame after the other on a 1 Gb/s wire: preamble 8, frame, FCS 4, gap 12 at 8 ns.
        CHECK(f["ns"].get<std::uint64_t>() - before["ns"].get<std::uint64_t>() >=
              8 * (8 + before["len"].get<std::uint64_t>() + 4 + 12));
    }
}

TEST_CASE("a capture (--pcap) holds both directions of a port: the wire source's frames at the line rate") {
    Captured c = run_with_capture("xeon-pcix-133-rx-tx");
    const json& frames = c.capture["frames"];
    std::size_t out = 0, in = 0;
    std::uint64_t last_in = 0, last = 0;
    for (const json& f : frames) {
        INFO(f.dump());
        CHECK(f["ns"].get<std::uint64_t>() >= last);  // in time order
        last = f["ns"];
        CHECK(f["len"] == 60);
        if (f["direction"] == "out") {
            ++out;
            continue;
        }
        REQUIRE(f["direction"] == "in");
        // Back to back at 1 Gb/s: 60 + 24 bytes at 8 ns.
        if (in++ > 0) CHECK(f["ns"].get<std::uint64_t>() - last_in == 672);
        last_in = f["ns"];
    }
    CHECK(out == c.results["nic"]["ports"][0]["frames_sent"].get<std::size_t>());
    const json& rx = c.results["nic"]["rx"]["ports"][0];
    // Each frame the NIC delivered or missed arrived; a few may still be in its FIFO.
    const std::size_t taken = rx["frames_delivered"].get<std::size_t>() + rx["frames_missed"].get<std::size_t>();
    CHECK(in >= taken);
    CHECK(in - taken <= rx["fifo_bytes"].get<std::size_t>() / 64);
}

TEST_CASE("a capture (--pcap) changes no simulated number") {
    for (const char* scenario : {"phi-32-66-82541", "hp-ia64-netperf-tso", "xeon-pcix-133-rx-tx"}) {
        INFO(scenario);
        TempDir dir;
        const std::string plain = dir / "plain.json", captured = dir / "captured.json";
        REQUIRE(run_pcisim("run " + scenario_path(scenario) + " -q --json " + plain).exit_code == 0);
        REQUIRE(run_pcisim("run " + scenario_path(scenario) + " -q --pcap " + (dir / "w.pcapng") +
                           " --json " + captured).exit_code == 0);
        // Byte for byte, provenance included (--pcap only chooses where frames go).
        CHECK(slurp(plain) == slurp(captured));
    }
}

TEST_CASE("explain --pcap writes the frames of the run it explains") {
    TempDir dir;
    const std::string pcap = dir / "e.pcapng";
    CommandOutcome r = run_pcisim("explain " + scenario_path("phi-32-66-82541") + " -q --pcap " + pcap);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const std::string read = "/usr/bin/python3 " + std::string(PCISIM_SOURCE_DIR) +
                             "/tests/pcap/read_capture.py " + pcap + " >" + (dir / "read.json");
    REQUIRE(std::system(read.c_str()) == 0);
    json capture = json::parse(slurp(dir / "read.json"));
    CHECK(capture["frames"].size() > 100);
    // An unwritable capture is refused before the run.
    CommandOutcome bad = run_pcisim("explain " + scenario_path("phi-32-66-82541") +
                                    " --pcap /nonexistent-dir/x.pcapng");
    CHECK(bad.exit_code == 2);
    CHECK(contains(bad.err, "--pcap"));
}

}  // namespace test_pcap
