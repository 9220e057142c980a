// The bulk TCP sender (workload.kind tcp_stream) and its receiver at the far end of the wire:
// the stream leaves in order within the window, the receiver ACKs every second segment, the
// wire bounds the throughput, and where the payload comes from decides what the NIC's reads
// find modified in the sender's cache.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <systemc>

#include "core/invariants.h"
#include "core/sim_time.h"
#include "run/scenario.h"
#include "run/simulation.h"
#include "software/tcp_frame.h"
#include "software/tcp_receiver.h"
#include "simulated_runs.h"
#include "test_support.h"

namespace test_tcp_sender {

using namespace pcisim;
using nlohmann::json;

namespace {

json run(std::vector<std::string> sets, double us = 3000, double max_us = 0) {
    for (auto& o : test::fixed_window(us, 1000)) sets.push_back(o);
    // A window that may grow (max_us): until the measured rates are the sustained ones.
    if (max_us > 0) sets.push_back("simulation.max_window_us=" + std::to_string(max_us));
    return test::simulate("hp-ia64-netperf", sets);
}

struct Line : InterruptSink {
    bool asserted = false;
    void set_interrupt(bool a) override { asserted = a; }
};

// A segment of `payload` bytes starting at stream byte `offset`, as the sender writes it.
std::vector<std::uint8_t> segment(std::uint64_t offset, std::uint32_t payload, std::uint16_t id) {
    std::vector<std::uint8_t> f(tcp_frame::kHeaderBytes + payload, 0);
    tcp_frame::Segment s;
    s.seq = TcpReceiver::kInitialSeq + static_cast<std::uint32_t>(offset);
    s.ip_id = id;
    s.payload = payload;
    tcp_frame::write_headers(f.data(), s, tcp_frame::Checksum::Software);
    return f;
}

}  // namespace

TEST_CASE("the receiver ACKs every second segment after a round trip, a lone one after the "
          "delayed-ACK timer") {
    use_picosecond_resolution();
    TcpStreamOptions o;
    o.rtt = ns_to_ps(50 * 1000.0);
    o.delayed_ack = ns_to_ps(1000 * 1000.0);
    Line cpu;
    TcpReceiver peer("peer", o, cpu);
    auto f0 = segment(0, 1448, 7), f1 = segment(1448, 1448, 8), f2 = segment(2896, 1448, 9);
    peer.on_wire(f0.data(), unsigned(f0.size()), 0);
    peer.on_wire(f1.data(), unsigned(f1.size()), ns_to_ps(10 * 1000.0));
    sc_core::sc_start(sc_core::sc_time(59, sc_core::SC_US));
    CHECK_FALSE(cpu.asserted);  // the ACK of both leaves at 10 us and arrives at 60 us
    sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_US));
    CHECK(cpu.asserted);
    CHECK(peer.take_acks() == std::vector<std::uint64_t>{2896});
    CHECK_FALSE(cpu.asserted);
    peer.on_wire(f2.data(), unsigned(f2.size()), ns_to_ps(61 * 1000.0));
    sc_core::sc_start(sc_core::sc_time(1000, sc_core::SC_US));  // to 1061 us: timer runs out
    CHECK(peer.take_acks().empty());
    sc_core::sc_start(sc_core::sc_time(60, sc_core::SC_US));    // its ACK arrives at 1111 us
    CHECK(peer.take_acks() == std::vector<std::uint64_t>{4344});
    CHECK(peer.counters().acks_sent == 2);
    CHECK(peer.counters().delayed_acks == 1);
    CHECK(peer.counters().bad_checksums == 0);
}

TEST_CASE("a receiver slower than the wire ACKs when its CPU has processed the segments") {
    use_picosecond_resolution();
    TcpStreamOptions o;
    o.rtt = ns_to_ps(50 * 1000.0);
    o.receiver_segment = ns_to_ps(20 * 1000.0);
    o.delayed_ack = ns_to_ps(1000 * 1000.0);
    Line cpu;
    TcpReceiver peer("peer", o, cpu);
    auto f0 = segment(0, 1448, 7), f1 = segment(1448, 1448, 8);
    // Off the wire at 0 and 10 us, processed at 20 and 40 us: the ACK leaves at 40 us.
    peer.on_wire(f0.data(), unsigned(f0.size()), 0);
    peer.on_wire(f1.data(), unsigned(f1.size()), ns_to_ps(10 * 1000.0));
    sc_core::sc_start(sc_core::sc_time(89, sc_core::SC_US));
    CHECK_FALSE(cpu.asserted);
    sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_US));
    CHECK(cpu.asserted);
    CHECK(peer.take_acks() == std::vector<std::uint64_t>{2896});
}

TEST_CASE("the socket buffers as Linux sets them: doubled, the window three quarters of the "
          "receive buffer, the send buffer counting true sizes") {
    TcpStreamOptions o;
    o.socket_buffer_bytes = 65536;
    CHECK(o.send_buffer() == 131072);
    CHECK(o.receive_window() == 98304);  // tcp_adv_win_scale 2
    o.adv_win_scale = 1;
    CHECK(o.receive_window() == 65536);
    o.adv_win_scale = -2;
    CHECK(o.receive_window() == 32768);
    o.adv_win_scale = 2;
    o.tso = true;
    CHECK(o.size_goal() == 33 * 1448);  // whole MSSs up to half the window

    // The send buffer binds before the window when each skb's overhead is large: 32 KB asked
    // is a 64 KB send buffer; skbs of 1448 + 1500 bytes are allocated while less than that is
    // queued, so 23 (33304 bytes of payload) against a 49152-byte window.  Without overhead it
    // holds 46 and the window binds.
    test::TempDir tmp;
    auto run_overhead = [&](int overhead) {
        std::string args = test::scenario_path("hp-ia64-netperf") +
                           " --set tcp.socket_buffer_bytes=32768 --set tcp.skb_overhead_bytes=" +
                           std::to_string(overhead);
        for (const auto& a : test::fixed_window(3000, 1000)) args += " --set " + a;
        const std::string out = tmp / ("o" + std::to_string(overhead));
        REQUIRE(test::run_pcisim("run " + args + " --json " + out).exit_code == 0);
        return json::parse(test::slurp(out))["tcp"];
    };
    json heavy = run_overhead(1500), light = run_overhead(0);
    INFO(heavy.dump() << "\n" << light.dump());
    CHECK(heavy["max_in_flight_bytes"].get<std::uint64_t>() <= 23 * 1448);
    CHECK(heavy["max_in_flight_bytes"].get<std::uint64_t>() > 20 * 1448);
    CHECK(light["max_in_flight_bytes"].get<std::uint64_t>() <= 49152);
    CHECK(light["max_in_flight_bytes"].get<std::uint64_t>() > 49152 - 2 * 1448);
}

TEST_CASE("the receiver rejects a gap in the sequence numbers or the IP ids") {
    use_picosecond_resolution();
    TcpStreamOptions o;
    Line cpu;
    TcpReceiver peer("peer", o, cpu);
    auto f0 = segment(0, 1448, 1), gap = segment(2896, 1448, 2), id_gap = segment(1448, 1448, 3);
    peer.on_wire(f0.data(), unsigned(f0.size()), 0);
    CHECK_THROWS_WITH(peer.on_wire(gap.data(), unsigned(gap.size()), 0),
                      Catch::Contains("where " + std::to_string(TcpReceiver::kInitialSeq + 1448) +
                                      " was next"));
    CHECK_THROWS_WITH(peer.on_wire(id_gap.data(), unsigned(id_gap.size()), 0),
                      Catch::Contains("IP id 3 where 2 was next"));
}

TEST_CASE("the headers the stack writes carry verifying checksums, offloaded or not") {
    auto f = segment(0, 1000, 5);
    tcp_frame::Parsed p = tcp_frame::parse(f.data(), unsigned(f.size()));
    CHECK(p.ok);
    CHECK(p.payload == 1000);
    CHECK(p.ip_checksum_ok);
    CHECK(p.tcp_checksum_ok);
    f[tcp_frame::kHeaderBytes + 10] ^= 1;  // a payload bit flipped
    CHECK_FALSE(tcp_frame::parse(f.data(), unsigned(f.size())).tcp_checksum_ok);
    // Offloaded: the field holds the pseudo-header sum the NIC completes, not the checksum.
    std::vector<std::uint8_t> g(tcp_frame::kHeaderBytes + 1000, 0);
    tcp_frame::Segment s;
    s.payload = 1000;
    tcp_frame::write_headers(g.data(), s, tcp_frame::Checksum::Offload);
    p = tcp_frame::parse(g.data(), unsigned(g.size()));
    CHECK(p.ip_checksum_ok);
    CHECK_FALSE(p.tcp_checksum_ok);
}

TEST_CASE("a netperf stream stays inside its window, in order, with an ACK per two segments") {
    json r = run({"tcp.socket_buffer_bytes=32768", "tcp.checksum_offload=false"});
    const json& t = r["tcp"];
    INFO(t.dump());
    // In order: the receiver checks every sequence number and IP id as it arrives.
    CHECK(t["segments"].get<std::uint64_t>() > 100);
    CHECK(t["bad_checksums"] == 0);
    // The window, three quarters of the doubled 32 KB receive buffer: never more in flight,
    // and all of it used (the writer sleeps on the full send buffer).
    CHECK(t["max_in_flight_bytes"].get<std::uint64_t>() <= 49152);
    CHECK(t["max_in_flight_bytes"].get<std::uint64_t>() > 49152 - 2 * 1448);
    CHECK(t["writer_blocked"].get<std::uint64_t>() > 0);
    // One ACK per two segments (a window boundary splits at most a pair), none by the timer.
    const double segments = t["segments"].get<double>(), acks = t["acks"].get<double>();
    CHECK(acks == Approx(segments / 2).margin(2));
    CHECK(t["delayed_acks"] == 0);
}

TEST_CASE("throughput is bounded by the wire: a large window and a short round trip reach it") {
    json r = run({"tcp.socket_buffer_bytes=1048576", "tcp.rtt_us=20", "cpu.clock_mhz=4000",
                  "tcp.receiver_segment_us=0"}, 3000, 30000);
    // Each 1448-byte payload takes 1448 + 54 headers + 4 FCS + 8 preamble + 12 IFG on the wire.
    const double wire = 1000.0 * 1448 / (1448 + 78);
    const double mbit = r["tcp"]["throughput_mbit_s"].get<double>();
    // A 3 ms window counted one segment more than its length holds (949.9 Mbit/s); the run
    // takes a longer one until the payload is not above what the wire carries.
    CHECK(mbit <= wire);
    CHECK(mbit > 0.97 * wire);
}

TEST_CASE("a copied payload is modified in the sender's cache when the NIC reads it, a "
          "sendfile payload is not") {
    // One simulation per process: the two runs as the command line makes them.
    test::TempDir tmp;
    auto run_mode = [&](const std::string& mode) {
        std::string args = test::scenario_path("hp-ia64-netperf") + " --set tcp.mode=" + mode;
        for (const auto& o : test::fixed_window(3000, 1000)) args += " --set " + o;
        REQUIRE(test::run_pcisim("run " + args + " --json " + (tmp / mode)).exit_code == 0);
        return json::parse(test::slurp(tmp / mode));
    };
    json copy = run_mode("copy"), sendfile = run_mode("sendfile");
    INFO(copy["tcp"].dump() << "\n" << sendfile["tcp"].dump());
    // A 1502-byte frame covers 12 lines of 128 bytes: copied, all of them are modified when
    // the NIC reads them; sent from page-cache pages, only the header line the stack wrote.
    const double copied = copy["tcp"]["modified_lines_read_per_segment"].get<double>();
    const double sent = sendfile["tcp"]["modified_lines_read_per_segment"].get<double>();
    CHECK(copied >= 11);
    CHECK(sent <= 1.5);
    CHECK(copy["tcp"]["send_cpu_pct"].get<double>() > sendfile["tcp"]["send_cpu_pct"].get<double>());
}

TEST_CASE("bad tcp keys are rejected naming the key, the value and what was expected") {
    const std::string file = test::scenario_path("hp-ia64-netperf");
    auto problems = test::load_problems(file, {"tcp.mode=splice"});
    REQUIRE(problems.size() == 1);
    CHECK_THAT(problems[0], Catch::Contains("tcp.mode") && Catch::Contains("splice") &&
                                Catch::Contains("sendfile"));
    problems = test::load_problems(file, {"tcp.mss=20"});
    REQUIRE(problems.size() == 1);
    CHECK_THAT(problems[0], Catch::Contains("tcp.mss") && Catch::Contains("88"));
    problems = test::load_problems(file, {"workload.kind=udp"});
    REQUIRE(problems.size() == 1);
    CHECK_THAT(problems[0], Catch::Contains("workload.kind") && Catch::Contains("tcp_stream"));
    // What the sender's config refuses is a scenario problem at load (pcisim check), not a run
    // that fails: a buffer smaller than two segments, ...
    auto one = [&](std::vector<std::string> sets) {
        auto p = test::load_problems(file, sets);
        REQUIRE(p.size() == 1);
        return p[0];
    };
    CHECK_THAT(one({"tcp.socket_buffer_bytes=2048"}),
               Catch::Contains("tcp.socket_buffer_bytes: 2048") && Catch::Contains("at least 2896"));
    // ... or a window smaller than two segments (4096 doubled, a sixteenth: 512 bytes).
    CHECK_THAT(one({"tcp.socket_buffer_bytes=4096", "tcp.adv_win_scale=-4"}),
               Catch::Contains("tcp.adv_win_scale: -4") && Catch::Contains("window of 512 bytes"));
    // Combinations the sender does not take.
    CHECK_THAT(one({"driver.tso=true", "tcp.checksum_offload=false"}),
               Catch::Contains("tcp.checksum_offload: false with driver.tso true"));
    CHECK_THAT(one({"wire_source.enabled=true"}),
               Catch::Contains("wire_source.enabled: true with workload.kind tcp_stream"));
    CHECK_THAT(one({"driver.copy=true"}), Catch::Contains("driver.copy: true with workload.kind tcp_stream"));
}

TEST_CASE("plots/tcp draws a message-size and MSS sweep headless", "[plots]") {
    test::TempDir tmp;
    {
        std::ofstream out(tmp / "sweep.csv");
        out << "tcp.message_bytes,tcp.mss,status,error,tcp.send_service_demand_us_per_kb,"
               "tcp.throughput_mbit_s\n";
        for (int mss : {536, 1448})
            for (int m = 1024; m <= 131072; m *= 4)
                out << m << "," << mss << ",ok,,3.1," << 900.0 * mss / (mss + 78) << "\n";
        out << "512,1448,failed,\"time limit\",,\n";
    }
    const std::string figures = tmp / "figures";
    int status = std::system(("env -u DISPLAY /usr/bin/python3 " + std::string(PCISIM_SOURCE_DIR) +
                              "/plots/tcp --sweep " + (tmp / "sweep.csv") + " --out " + figures +
                              " >/dev/null 2>&1")
                                 .c_str());
    CHECK(status == 0);
    for (const char* ext : {".png", ".svg"}) {
        std::filesystem::path f = figures + "/tcp_stream" + ext;
        CHECK(std::filesystem::exists(f));
        if (std::filesystem::exists(f)) CHECK(std::filesystem::file_size(f) > 1000);
    }
}

}  // namespace test_tcp_sender
