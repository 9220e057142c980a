// The statistics registers of one port (SDM 13.7): 64 dwords from CRCERRS, each cleared when
// software reads it; the 64-bit octet counters (GORC, GOTC, TOR, TOT) are low/high pairs, the
// pair cleared when its high half is read.  Counted here: frames sent (GPTC, GOTC, TPT, TOT,
// PTC64-1522, MPTC, BPTC, TSCTC) and received (TPR, TOR for every frame that arrives while the
// receiver is on; GPRC, GORC, PRC64-1522, BPRC, MPRC for those that pass the filters and fit the
// FIFO), missed frames (MPC) and frames with no descriptor (RNBC).  The error and collision
// counters read 0 because the modelled wire has neither (full duplex, no bit errors); the flow
// control and management counters have no mechanism here and are registers the model lacks
// (DeviceControl lists them).  Octets are counted from the destination address through the CRC.
#pragma once

#include <array>
#include <cstdint>
#include <functional>

namespace pcisim::e1000 {

class RegisterFile;

// A statistics register's index among the 64 from CRCERRS (offset 4000h).
constexpr unsigned statistics_index(std::uint32_t offset) { return (offset - 0x4000) / 4; }

class StatisticsRegisters {
public:
    // `catch_up` brings the counters up to now (the MAC's lazy wire) before a read.
    void map_registers(RegisterFile& r, std::function<void()> catch_up);
    void clear() { counters_.fill(0); }

    // A frame of `len` bytes (no CRC) whose last byte has left.
    void frame_sent(const std::uint8_t* frame, std::uint32_t len) {
        const std::uint32_t octets = (len < 60 ? 60 : len) + 4;  // padded (TCTL.PSP), with CRC
        ++at(kGptc), ++at(kTpt);
        add64(kGotc, octets), add64(kTot, octets);
        ++at(kPtc64 + size_bucket(octets));
        if (frame[0] & 1) ++at(is_broadcast(frame) ? kBptc : kMptc);
    }
    void tso_context_sent() { ++at(kTsctc); }
    // A frame of `len` bytes (no CRC) at the receiver while it is on, and one that the filters
    // passed and the FIFO took (`frame` null when its bytes are not modelled: addressed to the
    // station).
    void frame_arrived(std::uint32_t len) { ++at(kTpr), add64(kTor, len + 4); }
    void frame_accepted(const std::uint8_t* frame, std::uint32_t len) {
        const std::uint32_t octets = len + 4;
        ++at(kGprc);
        add64(kGorc, octets);
        ++at(kPrc64 + size_bucket(octets));
        if (frame && (frame[0] & 1)) ++at(is_broadcast(frame) ? kBprc : kMprc);
    }
    void frame_missed() { ++at(kMpc); }
    void no_buffer() { ++at(kRnbc); }

    std::uint32_t peek(std::uint32_t offset) const { return counters_[statistics_index(offset)]; }

private:
    static constexpr unsigned kMpc = statistics_index(0x4010), kPrc64 = statistics_index(0x405C),
                              kGprc = statistics_index(0x4074), kBprc = statistics_index(0x4078),
                              kMprc = statistics_index(0x407C), kGptc = statistics_index(0x4080),
                              kGorc = statistics_index(0x4088), kGotc = statistics_index(0x4090),
                              kRnbc = statistics_index(0x40A0), kTor = statistics_index(0x40C0),
                              kTot = statistics_index(0x40C8), kTpr = statistics_index(0x40D0),
                              kTpt = statistics_index(0x40D4), kPtc64 = statistics_index(0x40D8),
                              kMptc = statistics_index(0x40F0), kBptc = statistics_index(0x40F4),
                              kTsctc = statistics_index(0x40F8);
    // 64, 65-127, 128-255, 256-511, 512-1023, 1024-1522 octets: buckets 0-5 (PRC/PTC64..1522).
    static unsigned size_bucket(std::uint32_t octets) {
        return octets <= 64 ? 0 : octets < 128 ? 1 : octets < 256 ? 2 : octets < 512 ? 3
               : octets < 1024 ? 4 : 5;
    }
    static bool is_broadcast(const std::uint8_t* d) {
        return (d[0] & d[1] & d[2] & d[3] & d[4] & d[5]) == 0xFF;
    }
    std::uint32_t& at(unsigned i) { return counters_[i]; }
    void add64(unsigned low, std::uint32_t n) {
        const std::uint32_t before = counters_[low];
        counters_[low] += n;
        if (counters_[low] < before) ++counters_[low + 1];
    }

    std::array<std::uint32_t, 64> counters_{};
};

}  // namespace pcisim::e1000
