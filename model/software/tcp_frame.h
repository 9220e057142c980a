// The headers of a TCP/IPv4 frame on Ethernet as the stack writes them into host memory and as
// the far end reads them off the wire: Ethernet II (14 bytes), IPv4 without options (20, RFC
// 791), TCP without options (20, RFC 793), 54 bytes in all.  Checksums are the Internet
// checksum (RFC 1071); the TCP one covers the pseudo-header (addresses, protocol, length).
#pragma once

#include <cstdint>

namespace pcisim::tcp_frame {

constexpr unsigned kEthBytes = 14, kIpBytes = 20, kTcpBytes = 20;
constexpr unsigned kHeaderBytes = kEthBytes + kIpBytes + kTcpBytes;
// Offsets from the frame's first byte.
constexpr unsigned kIpTotalLength = kEthBytes + 2, kIpId = kEthBytes + 4,
                   kIpChecksum = kEthBytes + 10;
constexpr unsigned kTcpSeq = kEthBytes + kIpBytes + 4, kTcpChecksum = kEthBytes + kIpBytes + 16;

struct Segment {
    std::uint32_t seq = 0;       // of the first payload byte
    std::uint32_t ack = 0;       // what the sender has received of the reverse stream
    std::uint16_t ip_id = 0;
    std::uint32_t payload = 0;   // bytes after the headers
    std::uint16_t window = 0;    // the sender's receive window, unscaled
};

// How the TCP checksum field is left (the IP header checksum is always computed, as
// ip_queue_xmit does).
enum class Checksum {
    Software,  // the full checksum over pseudo-header, header and payload
    Offload,   // CHECKSUM_HW: the pseudo-header sum only, the NIC adds the rest (8254x SDM 3.3.5)
};

// Writes the headers of `s` at `frame`; the payload (s.payload bytes) must already follow them
// when `checksum` is Software.  The IP total length is capped at 65535 (a TSO frame's is
// rewritten per segment by the NIC).
void write_headers(std::uint8_t* frame, const Segment& s, Checksum checksum);

// What the far end reads from a frame of `len` bytes; ok false when it is not TCP/IPv4.
struct Parsed {
    bool ok = false;
    std::uint32_t seq = 0;
    std::uint16_t ip_id = 0;
    std::uint32_t payload = 0;
    bool ip_checksum_ok = false, tcp_checksum_ok = false;
};
Parsed parse(const std::uint8_t* frame, unsigned len);

}  // namespace pcisim::tcp_frame
