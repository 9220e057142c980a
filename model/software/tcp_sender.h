// A bulk TCP sender (netperf TCP_STREAM, an ftp server) as the CPU's process-context work, the
// alternative to pktgen a port runs with workload.kind "tcp_stream".  The application writes
// messages into the socket's send buffer; the stack cuts them into skbs of one MSS (TSO off)
// or of many (TSO on: skb.tso_mss set, the NIC segments), builds the Ethernet, IPv4 and TCP
// headers in host memory and hands each skb to the driver's hard_start_xmit while the peer's
// window allows.  ACKs (software/tcp_receiver.h) open the window and free what they cover.
//
// Where the payload comes from decides what the sender's cache holds when the NIC reads it:
//   copy       send() from a user buffer (netperf): the CPU copies it into the skb, so the
//              payload lines are modified in the cache and every DMA read of them is a snoop hit;
//   read_write an ftp server's read()/write() loop: the file is first read() from page-cache
//              pages (not cached) into the user buffer, then copied as above;
//   sendfile   the skb points at page-cache pages the CPU never touches (no copy).
// Costs (cpu.cycles.tcp_*, tcp_params()): one write() call per message, a frame's stack path
// (tcp_transmit_skb, ip_queue_xmit, dev_queue_xmit) per skb handed to the driver, a little per
// MSS of payload, per byte copied and per byte checksummed in software, and per ACK taken.
#pragma once

#include <vector>

#include <string>

#include <cstdint>
#include <deque>
#include <functional>

#include "platform/cpu.h"
#include "software/port_driver.h"
#include "software/skb_pool.h"
#include "software/tcp_frame.h"
#include "software/workload.h"

namespace pcisim {

class ScenarioView;
struct ParamSpec;

// This module's scenario keys (unit, default, range, meaning), collected by run/schema.cpp.
std::vector<ParamSpec> tcp_params();  // workload.kind, tcp.*
class TcpReceiver;

struct TcpStreamOptions {
    bool enabled = false;                 // workload.kind == "tcp_stream"
    enum class Source { Copy, ReadWrite, Sendfile } source = Source::Copy;
    std::uint32_t message_bytes = 131072;
    std::uint32_t socket_buffer_bytes = 65536;
    std::uint32_t mss = 1448;
    std::uint32_t skb_overhead_bytes = 400;  // an skb's truesize less its payload
    int adv_win_scale = 2;                   // the receiver's tcp_adv_win_scale
    Picos receiver_segment = 0;              // the receiver's CPU time per segment
    bool tso = false;                     // driver.tso: the device offers TSO
    bool checksum_offload = true;
    Picos rtt = 0, delayed_ack = 0;
    double write_cycles = 0, frame_cycles = 0, segment_cycles = 0, copy_cycles_per_byte = 0,
           checksum_cycles_per_byte = 0, ack_cycles = 0;
    static TcpStreamOptions from(const ScenarioView& s);
    std::uint64_t send_buffer() const;     // sk_sndbuf: twice what was asked for
    std::uint32_t receive_window() const;  // what the receiver advertises
    // The largest payload of one skb: one MSS, or with TSO as 2.6's tcp_current_mss makes it,
    // whole MSSs up to 64 KB less the headers and at most half the peer's window.
    std::uint32_t size_goal() const;
    // Frames on the wire per frame handed to the driver, at most.
    std::uint32_t segments_per_frame() const { return (size_goal() + mss - 1) / mss; }
};

class TcpSender : public Workload {
public:
    // `carve` hands out host memory for good (the user buffer).
    TcpSender(TxDriver& driver, SkbPool& pool, TcpReceiver& peer,
              const TcpStreamOptions& options,
              const std::function<std::uint64_t(std::uint32_t)>& carve);

    const char* name() const override { return "tcp sender"; }
    bool has_work() const override;
    void run_once() override;      // one step: hand a frame to the driver, or fill an skb
    void interrupt() override;     // take the ACKs that have arrived, then the driver's handler
    void timer() override;
    void free_skb(const Skb& skb) override;  // the driver's dev_kfree_skb of its reference
    bool quiet() const override { return false; }
    bool fills_ring() const override { return false; }
    bool numbers_frames() const override { return false; }  // its receiver checks the order
    bool answers_frames() const override { return true; }
    void frame_left(const std::uint8_t* frame, unsigned len, Picos when) override;
    bool awaits_answers() const override { return bytes_in_flight() > 0; }
    std::string waiting_for() const override;  // the ACKs, and frames left unannounced
    bool finishes() const override { return false; }
    std::string unmeasured(double window_s, double wire_limit_pps) const override;
    // Called with the time an skb was handed to the driver, once per segment it carries (the
    // per-segment latency: the measurement matches them to the frames on the wire in order).
    void on_xmit(std::function<void(Picos)> fn) override { on_xmit_ = std::move(fn); }

    // The frames that are to leave the wire for what the driver accepted so far.
    std::uint64_t frames_queued() const override { return frames_queued_; }
    // A full frame on the wire without FCS (what one MSS segment takes of the FIFO and wire).
    std::uint32_t frame_bytes() const override { return tcp_frame::kHeaderBytes + options_.mss; }
    // With TSO the NIC cuts one skb into this many frames.
    std::uint32_t frames_per_packet() const override { return options_.segments_per_frame(); }
    const TcpStreamOptions& options() const { return options_; }
    // Never past what the peer's window allowed, checked at every send (the tests read it).
    std::uint64_t max_in_flight() const { return max_in_flight_; }
    // Payload sent and not yet acknowledged: while there is some, the stream is owed ACKs.
    std::uint64_t bytes_in_flight() const { return snd_nxt_ - snd_una_; }

    struct Counters {
        std::uint64_t writes = 0;        // write() calls
        std::uint64_t frames = 0;        // skbs handed to the driver
        std::uint64_t segments = 0;      // MSS segments in them
        std::uint64_t payload_bytes = 0; // handed to the driver
        std::uint64_t writer_blocked = 0;  // times the send buffer was full
    };
    const Counters& counters() const { return counters_; }
    // The stream's counters: the sender's and its receiver's at the far end.
    void reset_counters() override;

private:
    struct QueuedSkb {
        Skb skb;
        std::uint64_t offset;    // of its first payload byte in the stream
        std::uint32_t payload;
        std::uint32_t truesize;  // what it counts against the send buffer
        bool sent;
        bool built = false;  // through the stack (headers written, costs paid) once
    };
    void build(QueuedSkb& q, std::uint32_t segments);
    bool can_transmit() const;
    bool can_fill() const;
    bool memory_free() const;    // sk_stream_memory_free: room for one more skb
    bool tail_has_room() const;  // the last skb is unsent and below the size goal
    void transmit(QueuedSkb& q);
    void fill();
    void copy_payload(std::uint64_t to, std::uint64_t stream_offset, std::uint32_t bytes);
    void take_ack(std::uint64_t ack);
    void release(const Skb& skb);
    void charge_slab_batches(std::uint64_t before);

    // The CPU running this code now: the one that called in (an interrupt, a timer and the
    // thread may each be on another CPU).
    static Cpu& cpu();
    TxDriver& driver_;
    SkbPool& pool_;
    TcpReceiver& peer_;
    TcpStreamOptions options_;
    std::uint32_t size_goal_;         // options_.size_goal(), fixed for the run
    std::uint64_t send_buffer_;       // options_.send_buffer()
    std::uint64_t user_buffer_ = 0;
    std::deque<QueuedSkb> queue_;     // unacknowledged, then unsent, in stream order
    std::size_t sent_in_queue_ = 0;   // the queue's sent skbs, all in front of the unsent
    std::uint64_t write_offset_ = 0;  // stream bytes written by the application
    std::uint64_t snd_nxt_ = 0, snd_una_ = 0;
    std::uint64_t queued_bytes_ = 0;  // true sizes of the skbs held (sk_wmem_queued)
    std::uint32_t message_left_ = 0;
    bool writer_blocked_ = false;
    std::uint16_t ip_id_ = 0;
    std::uint64_t frames_queued_ = 0;
    std::uint64_t max_in_flight_ = 0;
    Counters counters_;
    std::function<void(Picos)> on_xmit_;
};

}  // namespace pcisim
