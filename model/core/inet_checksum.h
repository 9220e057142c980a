// Big-endian header fields and the Internet checksum (RFC 1071) over frame bytes, for the
// stack's TCP/IP headers (software/tcp_frame), the driver's TSO header preparation and the
// NIC's checksum offload (e1000/e1000_tso_engine).
#pragma once

#include <cstdint>

namespace pcisim::inet {

inline std::uint32_t get16(const std::uint8_t* p) { return std::uint32_t(p[0]) << 8 | p[1]; }
inline std::uint32_t get32(const std::uint8_t* p) { return get16(p) << 16 | get16(p + 2); }
inline void put16(std::uint8_t* p, std::uint32_t v) {
    p[0] = static_cast<std::uint8_t>(v >> 8);
    p[1] = static_cast<std::uint8_t>(v);
}
inline void put32(std::uint8_t* p, std::uint32_t v) {
    put16(p, v >> 16);
    put16(p + 2, v & 0xFFFF);
}

// `sum` plus the one's-complement sum of the 16-bit words of [p, p+n) (an odd last byte padded
// with zero), carries folded back into 32 bits; not yet folded to 16 bits.
inline std::uint32_t ones_sum(const std::uint8_t* p, std::uint32_t n, std::uint32_t sum = 0) {
    std::uint64_t s = sum;
    for (std::uint32_t i = 0; i + 1 < n; i += 2) s += get16(p + i);
    if (n & 1) s += std::uint32_t(p[n - 1]) << 8;
    while (s >> 32) s = (s & 0xFFFFFFFF) + (s >> 32);
    return static_cast<std::uint32_t>(s);
}

// Folded to 16 bits, not complemented.
inline std::uint16_t fold(std::uint32_t sum) {
    while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
    return static_cast<std::uint16_t>(sum);
}

}  // namespace pcisim::inet
