// Ethernet frame sizes on the wire (IEEE 802.3), shared by the MAC, the wire source and the
// capture writer.
#pragma once

namespace pcisim {

constexpr unsigned kMinFrameBytes = 60;  // without the FCS: shorter frames are padded (4.2.3.3)
constexpr unsigned kFcsBytes = 4;
constexpr unsigned kPreambleBytes = 8;   // preamble + SFD
constexpr unsigned kMinIfgBytes = 12;    // the minimum inter-frame gap, in byte times

}  // namespace pcisim
