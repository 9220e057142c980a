#include "software/tcp_frame.h"

#include <algorithm>

#include "core/inet_checksum.h"

namespace pcisim::tcp_frame {

namespace {

// The link and the hosts are fixed: one connection from 10.0.0.1:32768 to 10.0.0.2:12865
// (netperf's control port; the data port does not matter).
constexpr std::uint8_t kDstMac[6] = {0x00, 0x30, 0x6e, 0x00, 0x00, 0x02};
constexpr std::uint8_t kSrcMac[6] = {0x00, 0x30, 0x6e, 0x00, 0x00, 0x01};
constexpr std::uint32_t kSrcIp = 0x0a000001, kDstIp = 0x0a000002;
constexpr std::uint16_t kSrcPort = 32768, kDstPort = 12865;
constexpr std::uint8_t kProtoTcp = 6;

using inet::fold;
using inet::get16;
using inet::get32;
using inet::put16;
using inet::put32;

// The pseudo-header of RFC 793: source, destination, protocol, TCP length.
std::uint32_t pseudo_header_sum(std::uint32_t src, std::uint32_t dst, std::uint32_t tcp_length) {
    return (src >> 16) + (src & 0xffff) + (dst >> 16) + (dst & 0xffff) + kProtoTcp +
           (tcp_length >> 16) + (tcp_length & 0xffff);
}

}  // namespace

void write_headers(std::uint8_t* frame, const Segment& s, Checksum checksum) {
    std::copy(kDstMac, kDstMac + 6, frame);
    std::copy(kSrcMac, kSrcMac + 6, frame + 6);
    put16(frame + 12, 0x0800);
    std::uint8_t* ip = frame + kEthBytes;
    const std::uint32_t tcp_length = kTcpBytes + s.payload;
    ip[0] = 0x45;  // version 4, 5 words
    ip[1] = 0;
    put16(ip + 2, std::uint16_t(std::min<std::uint32_t>(0xffff, kIpBytes + tcp_length)));
    put16(ip + 4, s.ip_id);
    put16(ip + 6, 0x4000);  // don't fragment
    ip[8] = 64;
    ip[9] = kProtoTcp;
    put16(ip + 10, 0);
    put32(ip + 12, kSrcIp);
    put32(ip + 16, kDstIp);
    put16(ip + 10, std::uint16_t(~fold(inet::ones_sum(ip, kIpBytes))));
    std::uint8_t* tcp = ip + kIpBytes;
    put16(tcp, kSrcPort);
    put16(tcp + 2, kDstPort);
    put32(tcp + 4, s.seq);
    put32(tcp + 8, s.ack);
    tcp[12] = 5 << 4;     // data offset: 5 words
    tcp[13] = 0x18;       // ACK | PSH
    put16(tcp + 14, s.window);
    put16(tcp + 16, 0);
    put16(tcp + 18, 0);
    std::uint32_t pseudo = pseudo_header_sum(kSrcIp, kDstIp, tcp_length);
    if (checksum == Checksum::Offload) {
        put16(tcp + 16, fold(pseudo));
    } else {
        put16(tcp + 16, std::uint16_t(~fold(inet::ones_sum(tcp, tcp_length, pseudo))));
    }
}

Parsed parse(const std::uint8_t* frame, unsigned len) {
    Parsed p;
    if (len < kHeaderBytes || get16(frame + 12) != 0x0800) return p;
    const std::uint8_t* ip = frame + kEthBytes;
    const unsigned ihl = (ip[0] & 0xf) * 4u;
    if ((ip[0] >> 4) != 4 || ihl < kIpBytes || ip[9] != kProtoTcp) return p;
    const unsigned total = get16(ip + 2);
    if (total < ihl + kTcpBytes || kEthBytes + total > len) return p;
    const std::uint8_t* tcp = ip + ihl;
    const unsigned doff = (tcp[12] >> 4) * 4u;
    if (doff < kTcpBytes || ihl + doff > total) return p;
    p.ok = true;
    p.seq = get32(tcp + 4);
    p.ip_id = get16(ip + 4);
    p.payload = total - ihl - doff;
    p.ip_checksum_ok = fold(inet::ones_sum(ip, ihl)) == 0xffff;
    const std::uint32_t tcp_length = total - ihl;
    p.tcp_checksum_ok =
        fold(inet::ones_sum(tcp, tcp_length, pseudo_header_sum(get32(ip + 12), get32(ip + 16), tcp_length))) ==
        0xffff;
    return p;
}

}  // namespace pcisim::tcp_frame
