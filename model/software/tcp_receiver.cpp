#include "software/tcp_receiver.h"

#include <algorithm>
#include <string>

#include "core/invariants.h"
#include "core/sim_time.h"

namespace pcisim {

TcpReceiver::TcpReceiver(sc_core::sc_module_name name, const TcpStreamOptions& options,
                         InterruptSink& cpu_line)
    : sc_core::sc_module(name), options_(options), window_(options.receive_window()),
      cpu_line_(cpu_line) {
    SC_METHOD(at_event);
    sensitive << event_;
    dont_initialize();
}

void TcpReceiver::set_interrupt(bool asserted) {
    nic_line_ = asserted;
    update_line();
}

void TcpReceiver::update_line() {
    bool line = nic_line_ || !arrived_.empty();
    if (line == line_) return;
    line_ = line;
    cpu_line_.set_interrupt(line);
}

// Linux's __tcp_ack_snd_check: more than one full segment unacknowledged sends an ACK at once;
// a single one waits for the delayed-ACK timer.  Both count from when the receiver's CPU has
// processed the segment, after those that arrived before it (tcp.receiver_segment_us).
void TcpReceiver::on_wire(const std::uint8_t* frame, unsigned len, Picos wire_end) {
    tcp_frame::Parsed p = tcp_frame::parse(frame, len);
    if (!p.ok) throw InvariantViolation(name(), "a frame of " + std::to_string(len) +
                                                    " bytes on the TCP stream's wire is not TCP/IPv4");
    const std::uint32_t expected = kInitialSeq + static_cast<std::uint32_t>(rcv_nxt_);
    if (p.seq != expected)
        throw InvariantViolation(name(), "segment with sequence number " + std::to_string(p.seq) +
                                             " where " + std::to_string(expected) + " was next");
    if (!first_frame_ && p.ip_id != next_ip_id_)
        throw InvariantViolation(name(), "IP id " + std::to_string(p.ip_id) + " where " +
                                             std::to_string(next_ip_id_) + " was next");
    first_frame_ = false;
    next_ip_id_ = static_cast<std::uint16_t>(p.ip_id + 1);
    if (!p.ip_checksum_ok || !p.tcp_checksum_ok) ++counters_.bad_checksums;
    rcv_nxt_ += p.payload;
    const Picos processed = std::max(wire_end, busy_until_) + options_.receiver_segment;
    busy_until_ = processed;
    due_.emplace(processed, std::make_pair(Due::Processed, std::uint64_t{p.payload}));
    event_.notify(ps(due_.begin()->first > now_ps() ? due_.begin()->first - now_ps() : 0));
}

// A segment through the receiver's stack: counted as netperf's receiver counts it, and ACKed.
void TcpReceiver::processed(std::uint64_t payload, Picos at) {
    processed_ += payload;
    ++counters_.segments;
    counters_.payload_bytes += payload;
    if (++unacked_segments_ >= 2)
        send_ack(at);
    else
        due_.emplace(at + options_.delayed_ack, std::make_pair(Due::DelayedAckTimer, processed_));
}

void TcpReceiver::send_ack(Picos at) {
    unacked_segments_ = 0;
    acked_ = processed_;
    ++counters_.acks_sent;
    due_.emplace(at + options_.rtt, std::make_pair(Due::AckArrives, processed_));
}

void TcpReceiver::at_event() {
    while (!due_.empty() && due_.begin()->first <= now_ps()) {
        auto [kind, seq] = due_.begin()->second;  // seq: a payload's bytes for Processed
        Picos at = due_.begin()->first;
        due_.erase(due_.begin());
        if (kind == Due::Processed) {
            processed(seq, at);
        } else if (kind == Due::AckArrives) {
            arrived_.push_back(seq);
        } else if (acked_ < seq) {  // the timer of a segment no ACK has covered yet
            ++counters_.delayed_acks;
            send_ack(at);
        }
    }
    update_line();
    if (!due_.empty()) event_.notify(ps(due_.begin()->first - now_ps()));
}

std::vector<std::uint64_t> TcpReceiver::take_acks() {
    std::vector<std::uint64_t> acks;
    acks.swap(arrived_);
    update_line();
    return acks;
}

}  // namespace pcisim
