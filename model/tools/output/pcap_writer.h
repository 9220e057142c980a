// --pcap FILE (run, explain): every frame on the wire as pcapng, the capture format tcpdump,
// tshark and Wireshark read.  One interface per NIC port that had frames ("nic.port0"), Ethernet
// without FCS; each frame stamped with the simulated time its preamble started (nanoseconds
// from time zero) and marked inbound (from the wire source) or outbound (sent by the port).
// Frames shorter than the minimum carry the padding the MAC adds.  TSO segments appear as the
// NIC's segmentation engine put them on the wire.
//
// The frames are collected during the run and written, in time order, when it has finished:
// the file takes as much memory as its size while the run lasts.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "run/simulation.h"

namespace pcisim::output {

class PcapCapture {
public:
    // `application` names the program in the file (its version line).
    explicit PcapCapture(std::string application) : application_(std::move(application)) {}
    // Hooks the capture onto the simulation's wires; call before it runs.
    void attach(Simulation& sim);
    void add(const WireFrame& frame);
    std::size_t frames() const { return frames_.size(); }
    // The pcapng file: throws OutputError when it cannot be written.
    void write(const std::string& path) const;
    std::string pcapng() const;

private:
    struct Frame {
        unsigned interface;
        bool received;
        Picos start;
        std::vector<std::uint8_t> data;
    };
    std::string application_;
    std::vector<std::string> interfaces_;
    std::vector<Frame> frames_;
};

}  // namespace pcisim::output
