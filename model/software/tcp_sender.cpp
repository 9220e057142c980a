#include "software/tcp_sender.h"

#include <algorithm>
#include <sstream>
#include <string>

#include "core/sim_time.h"
#include "platform/host_memory.h"
#include "config/scenario_view.h"
#include "config/param_spec.h"
#include "software/tcp_receiver.h"

namespace pcisim {

std::vector<ParamSpec> tcp_params() {
    return {
        choice("workload.kind", "pktgen", {"pktgen", "tcp_stream"},
               "What each transmitting port's CPU runs: pktgen (packet.*, pktgen.*), or a bulk "
               "TCP sender with its receiver at the far end of the wire (tcp.*)."),
        choice("tcp.mode", "copy", {"copy", "read_write", "sendfile"},
               "Where the payload comes from: copy = send() from a user buffer (netperf "
               "TCP_STREAM; copied by the CPU, so modified in its cache); read_write = an ftp "
               "server's loop, read() from page-cache pages into the user buffer (a copy), then copied as "
               "in copy; sendfile = page-cache pages handed to the NIC, never touched by the CPU."),
        integer("tcp.message_bytes", "bytes", 131072, 1, 1LL << 30,
                "Bytes per application write() (netperf -m)."),
        integer("tcp.socket_buffer_bytes", "bytes", 65536, 2048, 16LL << 20,
                "Send and receive socket buffer as the application asks for it (netperf -s/-S, "
                "setsockopt SO_SNDBUF/SO_RCVBUF).  The kernel doubles it (sock_setsockopt); "
                "the sender counts each queued skb's true size (tcp.skb_overhead_bytes) against "
                "the doubled send buffer, the receiver advertises a window derived from the "
                "doubled receive buffer (tcp.adv_win_scale)."),
        integer("tcp.skb_overhead_bytes", "bytes", 400, 0, 1 << 16,
                "What an skb counts against the send buffer besides its payload (truesize - "
                "len): the struct sk_buff and the MAX_TCP_HEADER headroom alloc_skb reserves, "
                "cache-line aligned (Linux 2.6 on a 64-bit CPU: about 350-500)."),
        integer("tcp.adv_win_scale", "", 2, -4, 8,
                "The receiver's net.ipv4.tcp_adv_win_scale: the share of its receive buffer it "
                "advertises as window, the rest kept for skb overhead (tcp_win_from_space: "
                "space - space/2^n for n > 0, space/2^-n otherwise; Linux 2.6's default 2, "
                "three quarters)."),
        number("tcp.receiver_segment_us", "us", 0, 0, 1000,
               "The receiver's CPU time per segment (interrupt, driver, IP and TCP receive, the "
               "copy to netserver, its share of the ACKs): segments are processed one after "
               "another and ACKed when processed, so a receiver slower than the wire sets the "
               "throughput.  0: the receiver keeps up with any rate.  About 1 cycle per bit "
               "received (the '1 GHz per Gbit/s' rule of thumb): 6-15 us per 1448-byte segment "
               "on the 1-2 GHz receivers of 2003."),
        integer("tcp.mss", "bytes", 1448, 88, 8960,
                "TCP payload bytes per segment: 1448 for a 1500-byte MTU with the timestamp "
                "option, 1460 without.  Frames carry 54 bytes of headers (no TCP options)."),
        boolean("tcp.checksum_offload", true,
                "The NIC fills the TCP checksum (CHECKSUM_HW); false: the CPU computes it "
                "(cpu.cycles.tcp_checksum_per_byte)."),
        number("tcp.rtt_us", "us", 50, 0.1, 1e6,
               "From the receiver's ACK (when its CPU has processed the segment, "
               "tcp.receiver_segment_us) to the ACK reaching the sender: propagation, the "
               "receiver's interrupt latency and the ACK frame's wire time (a back-to-back "
               "gigabit link with a 2003 server as the receiver: 30-100 us)."),
        number("tcp.delayed_ack_us", "us", 40000, 0, 1e6,
               "The receiver's delayed-ACK timer for a single unacknowledged segment "
               "(Linux TCP_DELACK_MIN, 40 ms)."),
        number("cpu.cycles.tcp_write", "cycles", 2000, 0, 1e7,
               "One write()/send() system call: entry, socket lock, tcp_sendmsg set-up "
               "(plausible 1000-5000)."),
        number("cpu.cycles.tcp_frame", "cycles", 2000, 0, 1e7,
               "An skb handed to the driver: tcp_transmit_skb (header, clone), ip_queue_xmit, "
               "dev_queue_xmit and the qdisc; once per MSS without TSO, once per large frame "
               "with it (plausible 1000-4000)."),
        number("cpu.cycles.tcp_segment", "cycles", 100, 0, 1e6,
               "Per MSS of payload besides the frame: send-queue accounting, congestion "
               "bookkeeping (plausible 0-500)."),
        number("cpu.cycles.tcp_copy_per_byte", "cycles/byte", 0.5, 0, 100,
               "Copying payload from user space (copy, read_write), per byte, cache misses "
               "besides (plausible 0.2-2)."),
        number("cpu.cycles.tcp_checksum_per_byte", "cycles/byte", 0.5, 0, 100,
               "Computing the TCP checksum in software (tcp.checksum_offload false), per byte "
               "(plausible 0.3-1)."),
        number("cpu.cycles.tcp_ack", "cycles", 1500, 0, 1e7,
               "An ACK taken: the receive path of a 64-byte frame (driver, netif_receive_skb, "
               "ip_rcv, tcp_v4_rcv) and tcp_ack, freeing what it covers aside (plausible "
               "1000-4000)."),
    };
}

TcpStreamOptions TcpStreamOptions::from(const ScenarioView& s) {
    TcpStreamOptions o;
    o.enabled = s.text("workload.kind") == "tcp_stream";
    const std::string mode = s.text("tcp.mode");
    o.source = mode == "sendfile" ? Source::Sendfile
               : mode == "read_write" ? Source::ReadWrite
                                      : Source::Copy;
    o.message_bytes = static_cast<std::uint32_t>(s.integer("tcp.message_bytes"));
    o.socket_buffer_bytes = static_cast<std::uint32_t>(s.integer("tcp.socket_buffer_bytes"));
    o.mss = static_cast<std::uint32_t>(s.integer("tcp.mss"));
    o.skb_overhead_bytes = static_cast<std::uint32_t>(s.integer("tcp.skb_overhead_bytes"));
    o.adv_win_scale = static_cast<int>(s.integer("tcp.adv_win_scale"));
    o.receiver_segment = ns_to_ps(s.number("tcp.receiver_segment_us") * 1000);
    o.tso = s.boolean("driver.tso");  // the stack uses TSO when the device offers it
    o.checksum_offload = s.boolean("tcp.checksum_offload");
    o.rtt = ns_to_ps(s.number("tcp.rtt_us") * 1000);
    o.delayed_ack = ns_to_ps(s.number("tcp.delayed_ack_us") * 1000);
    o.write_cycles = s.number("cpu.cycles.tcp_write");
    o.frame_cycles = s.number("cpu.cycles.tcp_frame");
    o.segment_cycles = s.number("cpu.cycles.tcp_segment");
    o.copy_cycles_per_byte = s.number("cpu.cycles.tcp_copy_per_byte");
    o.checksum_cycles_per_byte = s.number("cpu.cycles.tcp_checksum_per_byte");
    o.ack_cycles = s.number("cpu.cycles.tcp_ack");
    if (!o.enabled) return o;
    std::vector<std::string> problems;
    if (o.socket_buffer_bytes < 2 * o.mss)
        problems.push_back("tcp.socket_buffer_bytes: " + std::to_string(o.socket_buffer_bytes) +
                           " holds less than two segments of tcp.mss " + std::to_string(o.mss) +
                           "; expected at least " + std::to_string(2 * o.mss));
    // A window below one segment would never let the sender send (it sends whole segments).
    else if (o.receive_window() < 2 * o.mss)
        problems.push_back("tcp.adv_win_scale: " + std::to_string(o.adv_win_scale) +
                           " with tcp.socket_buffer_bytes " +
                           std::to_string(o.socket_buffer_bytes) + " advertises a window of " +
                           std::to_string(o.receive_window()) +
                           " bytes, less than two segments of tcp.mss " + std::to_string(o.mss) +
                           "; expected a larger buffer or a larger tcp.adv_win_scale");
    // Linux turns TSO off on a device without checksum offload (NETIF_F_TSO needs SG + CSUM).
    if (o.tso && !o.checksum_offload)
        problems.push_back("tcp.checksum_offload: false with driver.tso true; TSO needs the NIC "
                           "to checksum the segments: expected true, or driver.tso false");
    // What the sender does not take: frames arriving on its port (the receiver at the far end
    // is the sender's peer, not the wire source) and the copy driver's pktgen-sized buffers.
    if (s.boolean("wire_source.enabled"))
        problems.push_back("wire_source.enabled: true with workload.kind tcp_stream; expected "
                           "false (the TCP sender's ACKs come from its own receiver model)");
    if (s.boolean("driver.copy"))
        problems.push_back("driver.copy: true with workload.kind tcp_stream; expected false (the "
                           "copy driver's buffers are sized for pktgen's packets)");
    if (!problems.empty()) throw ScenarioError(problems);
    return o;
}

// sock_setsockopt (net/core/sock.c): SO_SNDBUF and SO_RCVBUF store twice the value asked for,
// "to allow space for bookkeeping overhead" (socket(7)); wmem_max/rmem_max are assumed not to
// clamp it.
std::uint64_t TcpStreamOptions::send_buffer() const { return 2ull * socket_buffer_bytes; }

// The receiver's window with its application reading at once (net/ipv4/tcp_output.c
// __tcp_select_window, include/net/tcp.h tcp_win_from_space): the share of the doubled receive
// buffer tcp_adv_win_scale leaves for payload, the rest being what the received skbs' overhead
// may take.  Window scaling (tcp_select_initial_window) lets it exceed 64 KB and only rounds it
// to a few bytes, which is left out.
std::uint32_t TcpStreamOptions::receive_window() const {
    const std::uint64_t space = 2ull * socket_buffer_bytes;
    return static_cast<std::uint32_t>(adv_win_scale > 0 ? space - (space >> adv_win_scale)
                                                        : space >> -adv_win_scale);
}

std::uint32_t TcpStreamOptions::size_goal() const {
    if (!tso) return mss;
    const std::uint32_t large = std::min<std::uint32_t>(
        0xffff - tcp_frame::kIpBytes - tcp_frame::kTcpBytes, receive_window() / 2);
    return std::max(mss, large - large % mss);
}

Cpu& TcpSender::cpu() { return Cpu::current(); }

TcpSender::TcpSender(TxDriver& driver, SkbPool& pool, TcpReceiver& peer,
                     const TcpStreamOptions& options,
                     const std::function<std::uint64_t(std::uint32_t)>& carve)
    : driver_(driver), pool_(pool), peer_(peer), options_(options),
      size_goal_(options.size_goal()), send_buffer_(options.send_buffer()) {
    if (options_.source != TcpStreamOptions::Source::Sendfile)
        user_buffer_ = carve(options_.message_bytes);
}

bool TcpSender::memory_free() const { return queued_bytes_ < send_buffer_; }

bool TcpSender::tail_has_room() const {
    return queue_.size() > sent_in_queue_ && queue_.back().payload < size_goal_;
}

// The oldest unsent skb goes when it is full (or, Nagle's rule, when nothing is in flight)
// and lies wholly inside the peer's window (tcp_snd_test).  The sent skbs are the queue's
// front, so the oldest unsent one is found without a search: has_work runs at every step.
bool TcpSender::can_transmit() const {
    if (driver_.queue_stopped() || sent_in_queue_ == queue_.size()) return false;
    const QueuedSkb& q = queue_[sent_in_queue_];
    bool full = q.payload == size_goal_ || snd_nxt_ == snd_una_;
    return full && q.offset + q.payload <= snd_una_ + peer_.window();
}

// tcp_sendmsg fills the tail skb while it has room and needs the send buffer's room only for a
// new one (sk_stream_memory_free before sk_stream_alloc_pskb).
bool TcpSender::can_fill() const { return !writer_blocked_ && (tail_has_room() || memory_free()); }

bool TcpSender::has_work() const { return can_transmit() || can_fill(); }

void TcpSender::frame_left(const std::uint8_t* frame, unsigned len, Picos when) {
    peer_.on_wire(frame, len, when);
}

std::string TcpSender::waiting_for() const {
    std::ostringstream o;
    o << "the TCP stream waits for ACKs of " << bytes_in_flight()
      << " bytes in flight (its window allows " << options_.receive_window() << "), and "
      << driver_.held_back();
    return o.str();
}

// Goodput over the window at most the payload the link carries in MSS segments (headers, FCS,
// preamble and gap around each MSS of payload).
std::string TcpSender::unmeasured(double window_s, double wire_limit_pps) const {
    const double mbit_s = static_cast<double>(peer_.counters().payload_bytes) * 8 / window_s / 1e6;
    const double limit = wire_limit_pps * options_.mss * 8 / 1e6;
    if (mbit_s <= limit * (1 + 1e-9)) return "";
    std::ostringstream o;
    o.setf(std::ios::fixed);
    o.precision(1);
    o << "the TCP stream's payload in the window, " << mbit_s << " Mbit/s, is above the " << limit
      << " Mbit/s the link carries in segments of tcp.mss " << options_.mss;
    return o.str();
}

void TcpSender::reset_counters() {
    counters_ = Counters{};
    peer_.reset_counters();
}

void TcpSender::run_once() {
    if (can_transmit()) {
        transmit(queue_[sent_in_queue_]);
        return;
    }
    if (can_fill()) fill();
}

void TcpSender::charge_slab_batches(std::uint64_t before) {
    std::uint64_t batches = pool_.slab_batches() - before;
    if (!batches) return;
    cpu().count_slab_batches(batches);
    cpu().charge(batches * cpu().costs().slab_batch_cycles);
}

// tcp_sendmsg: a new write() when the last is done; the payload goes into the tail skb while it
// has room, else into a fresh one (sk_stream_alloc_pskb); the writer sleeps when it needs a new
// skb and the true sizes queued have reached the send buffer (sk_stream_wait_memory).  An skb's
// true size (net/core/skbuff.c alloc_skb, tcp_sendmsg) is its linear part, one MSS
// (select_size), plus its overhead at allocation, and grows by what is copied beyond the MSS
// into page fragments (skb->truesize += copy); sk_wmem_queued holds it until the ACK.
void TcpSender::fill() {
    const std::uint32_t goal = size_goal_;
    if (message_left_ == 0) {
        cpu().charge(options_.write_cycles);
        ++counters_.writes;
        message_left_ = options_.message_bytes;
        if (options_.source == TcpStreamOptions::Source::ReadWrite) {
            // read(), a system call like write(): page-cache pages copied into the user buffer,
            // which is modified in the cache.  The pages themselves are read as a stream the
            // CPU prefetches, so their misses are not charged and their lines not kept.
            cpu().charge(options_.write_cycles + options_.copy_cycles_per_byte * options_.message_bytes);
            cpu().touch(user_buffer_, options_.message_bytes, true);
        }
    }
    if (!tail_has_room()) {
        const CpuCosts& c = cpu().costs();
        cpu().charge(c.skb_alloc_cycles);
        std::uint64_t batches = pool_.slab_batches();
        Skb skb = pool_.allocate(tcp_frame::kHeaderBytes + goal, tcp_frame::kHeaderBytes + goal,
                                 &cpu(), cpu().node());
        charge_slab_batches(batches);
        cpu().touch(skb.meta, SkbPool::kSkbStructBytes, true);
        const std::uint32_t truesize = options_.mss + options_.skb_overhead_bytes;
        queue_.push_back({skb, write_offset_, 0, truesize, false});
        queued_bytes_ += truesize;
    }
    QueuedSkb& tail = queue_.back();
    const std::uint32_t chunk = std::min(message_left_, goal - tail.payload);
    copy_payload(tail.skb.data + tcp_frame::kHeaderBytes + tail.payload, write_offset_, chunk);
    const std::uint32_t in_frags =
        tail.payload + chunk > options_.mss
            ? tail.payload + chunk - std::max(tail.payload, options_.mss) : 0;
    tail.truesize += in_frags;
    queued_bytes_ += in_frags;
    tail.payload += chunk;
    write_offset_ += chunk;
    message_left_ -= chunk;
    if (!tail_has_room() && !memory_free()) {
        writer_blocked_ = true;
        ++counters_.writer_blocked;
    }
}

// The payload's bytes at `to`: stream byte n is (n mod 256), so the far end could check them.
void TcpSender::copy_payload(std::uint64_t to, std::uint64_t stream_offset, std::uint32_t bytes) {
    std::uint8_t* p = cpu().memory().span(to, bytes);
    for (std::uint32_t i = 0; i < bytes; ++i) p[i] = static_cast<std::uint8_t>(stream_offset + i);
    if (options_.source != TcpStreamOptions::Source::Sendfile) {
        cpu().charge(options_.copy_cycles_per_byte * bytes);
        cpu().touch(user_buffer_ + stream_offset % options_.message_bytes, bytes, false);
        cpu().touch(to, bytes, true);
    }
    if (!options_.checksum_offload) {
        cpu().charge(options_.checksum_cycles_per_byte * bytes);
        if (options_.source == TcpStreamOptions::Source::Sendfile) cpu().touch(to, bytes, false);
    }
}

// tcp_transmit_skb + ip_queue_xmit: the headers written in front of the payload, the clone
// handed to the driver (its reference dropped at clean), the socket's kept until the ACK.
// A skb the driver refused (Busy) waits in the qdisc and is handed to the driver again as it
// is: the stack's path and its costs are not repeated.
void TcpSender::transmit(QueuedSkb& q) {
    const std::uint32_t segments = (q.payload + options_.mss - 1) / options_.mss;
    Skb& skb = q.skb;
    if (!q.built) build(q, segments);
    pool_.hold(skb);
    const Picos xmit = cpu().now();
    if (driver_.xmit_frame(skb) == TxDriver::TxResult::Busy) {
        pool_.release(skb, &cpu());  // never the last user: the socket still holds it
        return;                     // retried when the queue wakes
    }
    q.sent = true;
    ++sent_in_queue_;
    snd_nxt_ = q.offset + q.payload;
    max_in_flight_ = std::max(max_in_flight_, snd_nxt_ - snd_una_);
    ip_id_ = static_cast<std::uint16_t>(ip_id_ + segments);
    frames_queued_ += segments;
    if (on_xmit_)
        for (std::uint32_t k = 0; k < segments; ++k) on_xmit_(xmit);
    ++counters_.frames;
    counters_.segments += segments;
    counters_.payload_bytes += q.payload;
}

// tcp_transmit_skb and ip_queue_xmit: the frame's headers, written by the CPU.
void TcpSender::build(QueuedSkb& q, std::uint32_t segments) {
    cpu().charge(options_.frame_cycles + options_.segment_cycles * segments);
    Skb& skb = q.skb;
    skb.len = tcp_frame::kHeaderBytes + q.payload;
    skb.header_len = tcp_frame::kHeaderBytes;
    skb.tso_mss = options_.tso && q.payload > options_.mss ? options_.mss : 0;
    skb.checksum_offload = options_.checksum_offload;
    tcp_frame::Segment s;
    s.seq = TcpReceiver::kInitialSeq + static_cast<std::uint32_t>(q.offset);
    s.ip_id = ip_id_;
    s.payload = q.payload;
    s.window = 0xffff;
    tcp_frame::write_headers(cpu().memory().span(skb.data, skb.len), s,
                             options_.checksum_offload ? tcp_frame::Checksum::Offload
                                                       : tcp_frame::Checksum::Software);
    cpu().touch(skb.data, tcp_frame::kHeaderBytes, true);
    cpu().touch(skb.meta, 4, true);
    q.built = true;
}

// tcp_ack: the window's left edge moves, skbs wholly acknowledged are freed, and the writer
// wakes once the free room is at least half of what is still queued (sk_stream_write_space).
void TcpSender::take_ack(std::uint64_t ack) {
    cpu().charge(options_.ack_cycles);
    if (ack <= snd_una_) return;
    snd_una_ = ack;
    while (!queue_.empty() && queue_.front().sent &&
           queue_.front().offset + queue_.front().payload <= snd_una_) {
        queued_bytes_ -= queue_.front().truesize;
        release(queue_.front().skb);
        cpu().charge(cpu().costs().skb_free_cycles);
        queue_.pop_front();
        --sent_in_queue_;
    }
    // sk_stream_write_space: sk_stream_wspace >= sk_stream_min_wspace.
    if (writer_blocked_ && send_buffer_ >= queued_bytes_ + queued_bytes_ / 2)
        writer_blocked_ = false;
}

void TcpSender::interrupt() {
    for (std::uint64_t ack : peer_.take_acks()) take_ack(ack);
    driver_.intr();
}

void TcpSender::timer() { driver_.watchdog_timer(); }

void TcpSender::release(const Skb& skb) {
    cpu().touch(skb.meta, 4, true);
    std::uint64_t batches = pool_.slab_batches();
    pool_.release(skb, &cpu());
    charge_slab_batches(batches);
}

// The driver's dev_kfree_skb of the clone it was given.
void TcpSender::free_skb(const Skb& skb) {
    release(skb);
    cpu().charge(cpu().costs().skb_free_cycles);
}

}  // namespace pcisim
