// The e1000 as a TLM-2.0 component (model/tlm/): its register socket on its own, and the example
// platform, where pktgen and the driver transmit through it over a plain memory and router.
#define SC_INCLUDE_DYNAMIC_PROCESSES  // sc_spawn: the test's initiator threads
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "core/sim_time.h"
#include "nic_stats.h"
#include "e1000/e1000_regs.h"
#include "run/scenario.h"
#include "test_support.h"
#include "tlm/example_platform.h"

using namespace pcisim;
using namespace pcisim::e1000;

namespace {

// Register accesses from a thread, as a TLM-2.0 initiator makes them.
struct RegisterClient : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<RegisterClient> socket{"socket"};
    struct Answer {
        tlm::tlm_response_status status;
        std::uint32_t value;
        Picos done;
    };
    Answer access(tlm::tlm_command command, std::uint64_t addr, std::uint32_t value,
                  unsigned length = 4) {
        std::uint8_t data[8] = {};
        std::memcpy(data, &value, 4);
        tlm::tlm_generic_payload t;
        t.set_command(command);
        t.set_address(addr);
        t.set_data_ptr(data);
        t.set_data_length(length);
        t.set_streaming_width(length);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        socket->b_transport(t, delay);
        wait(delay);
        std::uint32_t answer;
        std::memcpy(&answer, data, 4);
        return {t.get_response_status(), answer, now_ps()};
    }
    Answer read(std::uint64_t addr) { return access(tlm::TLM_READ_COMMAND, addr, 0); }
    Answer write(std::uint64_t addr, std::uint32_t v) {
        return access(tlm::TLM_WRITE_COMMAND, addr, v);
    }
    explicit RegisterClient(sc_core::sc_module_name name) : sc_module(name) {}
};

e1000::E1000Params default_nic() {
    return e1000::E1000Params::from(Scenario::from_json(nlohmann::json::object(), "test"));
}

}  // namespace

TEST_CASE("TLM-2.0: the register socket reads and writes the NIC's registers at their time",
          "[tlm]") {
    HostMemory memory(1 << 20);
    TlmMemory ram("ram", memory, {});
    E1000TlmConfig config;
    config.register_access_ps = ns_to_ps(60);
    E1000Tlm nic("nic", default_nic(), config);
    sc_core::sc_signal<bool> line("line");
    nic.irq[0].bind(line);
    nic.dma.bind(ram.socket);
    RegisterClient cpu("cpu");
    cpu.socket.bind(nic.regs);

    std::vector<RegisterClient::Answer> answers;
    sc_core::sc_spawn([&] {
        answers.push_back(cpu.read(kStatus));
        answers.push_back(cpu.write(kTdt, 5));
        answers.push_back(cpu.read(kTdt));
        answers.push_back(cpu.read(kTdt + 2));                  // not a whole register
        answers.push_back(cpu.read(nic.register_bytes()));      // past the BAR
        answers.push_back(cpu.access(tlm::TLM_READ_COMMAND, kTdh, 0, 8));  // two registers
    });
    sc_core::sc_start(ps(ns_to_ps(1000)));

    REQUIRE(answers.size() == 6);
    CHECK(answers[0].status == tlm::TLM_OK_RESPONSE);
    CHECK(answers[0].value == Status::link_up_1000(0).value);
    CHECK(answers[0].done == ns_to_ps(60));  // the register access time, annotated and waited
    CHECK(answers[1].status == tlm::TLM_OK_RESPONSE);
    CHECK(answers[2].value == 5);
    CHECK(answers[2].done == ns_to_ps(180));
    CHECK(answers[3].status == tlm::TLM_BURST_ERROR_RESPONSE);
    CHECK(answers[4].status == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(answers[5].status == tlm::TLM_BURST_ERROR_RESPONSE);
}

TEST_CASE("TLM-2.0 example: pktgen's frames leave in order with their bytes, and TDH agrees",
          "[tlm]") {
    constexpr unsigned kPackets = 600;  // more than twice round the 256-descriptor ring
    Scenario s = Scenario::from_json(nlohmann::json::object(), "test",
                                     {"pktgen.count=" + std::to_string(kPackets)});
    TlmExamplePlatform platform("tlm", TlmExampleConfig::from(s));
    RegisterClient reader("reader");
    reader.socket.bind(platform.router().in);

    // What pktgen writes: zeros with its magic and the packet's sequence number (pktgen.h).
    std::vector<std::uint32_t> sequence;
    unsigned wrong_bytes = 0;
    platform.nic().nic().set_frame_observer(
        [&](unsigned, const std::uint8_t* frame, unsigned len, Picos) {
            std::vector<std::uint8_t> expected(60, 0);
            auto seq = static_cast<std::uint32_t>(sequence.size());
            std::memcpy(&expected[kPktgenMagicOffset], &kPktgenMagic, 4);
            std::memcpy(&expected[kPktgenSeqOffset], &seq, 4);
            if (len != expected.size() || std::memcmp(frame, expected.data(), len) != 0)
                ++wrong_bytes;
            std::uint32_t sent_seq;
            std::memcpy(&sent_seq, frame + kPktgenSeqOffset, 4);
            sequence.push_back(sent_seq);
        });

    // Once every packet has left, the registers as a driver would read them through the router.
    std::vector<std::uint32_t> registers;
    sc_core::sc_spawn([&] {
        sc_core::wait(ps(ns_to_ps(3e6)));
        for (std::uint32_t offset : {kStatus, kTdh, kTdt})
            registers.push_back(reader.read(Platform::kNicBar + offset).value);
    });
    sc_core::sc_start(ps(ns_to_ps(3.1e6)));

    const E1000& nic = platform.nic().nic();
    REQUIRE(nic.frames_sent(0) == kPackets);
    CHECK(platform.software().workload->frames_queued() == kPackets);
    REQUIRE(sequence.size() == kPackets);
    for (unsigned i = 0; i < kPackets; ++i) REQUIRE(sequence[i] == i);
    CHECK(wrong_bytes == 0);
    // Every descriptor went through the DMA socket: fetched, its data read, written back.
    nlohmann::json stats = nic_stats(nic);
    CHECK(stats["data_reads"] == kPackets);
    CHECK(stats["descriptors_written_back"] == kPackets);
    REQUIRE(registers.size() == 3);
    CHECK(registers[0] == Status::link_up_1000(0).value);
    CHECK(registers[1] == kPackets % 256);  // TDH: one descriptor per 60-byte packet
    CHECK(registers[2] == kPackets % 256);  // TDT: the driver handed over no more
}

TEST_CASE("TLM-2.0 example binary: reports the rate, and bad options exit 2 naming them",
          "[tlm]") {
    // Built beside pcisim.
    std::filesystem::path built = std::filesystem::path(test::pcisim_binary()).parent_path();
    std::string binary = (built / "pcisim-tlm-example").string();
    REQUIRE(std::filesystem::exists(binary));
    test::TempDir dir;
    std::string out = dir / "out.txt", err = dir / "err.txt";
    auto run = [&](const std::string& args) {
        int status = std::system((binary + " " + args + " >" + out + " 2>" + err).c_str());
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    };
    CHECK(run("--warmup-us 50 --time-us 200 --set packet.size=128") == 0);
    CHECK(test::contains(test::slurp(out), "pps of 128 bytes"));
    CHECK(run("--time-us -5") == 2);
    CHECK(test::contains(test::slurp(err), "--time-us"));
    CHECK(run("--set pktgen.ports=2 --set nic.model=82546") == 2);
    CHECK(test::contains(test::slurp(err), "pktgen.ports"));
    CHECK(run("--set packet.size=12") == 2);
    CHECK(test::contains(test::slurp(err), "packet.size"));
}
