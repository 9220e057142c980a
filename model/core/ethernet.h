// Ethernet frame sizes and the gigabit line rate (IEEE 802.3), shared by the MAC, the wire
// source, the capture writer, the driver's checks and the tools' wire limits.
#pragma once

#include <algorithm>
#include <cstdint>

namespace pcisim {

constexpr unsigned kMinFrameBytes = 60;  // without the FCS: shorter frames are padded (4.2.3.3)
constexpr unsigned kFcsBytes = 4;
constexpr unsigned kPreambleBytes = 8;   // preamble + SFD
constexpr unsigned kMinIfgBytes = 12;    // the minimum inter-frame gap, in byte times
// Byte times a frame takes on the wire beyond its own bytes: 24.
constexpr unsigned kWireOverheadBytes = kPreambleBytes + kFcsBytes + kMinIfgBytes;
constexpr double kGigabitBytesPerSecond = 125e6;

// Byte times a frame of `bytes` (without FCS) takes on the wire, padding and gap included.
constexpr std::uint64_t wire_byte_times(std::uint64_t bytes) {
    return std::max<std::uint64_t>(bytes, kMinFrameBytes) + kWireOverheadBytes;
}

}  // namespace pcisim
