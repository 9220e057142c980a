// Where the bytes are: the CPU cache (LRU, write-back), the slab's per-CPU arrays, and the host
// bridge's snoop of the CPU caches for DMA reads (coherent DMA).
#include <algorithm>
#include <cstring>
#include <vector>

#include <catch2/catch.hpp>

#include "platform/cache_coherence.h"
#include "platform/cpu_cache.h"
#include "platform/host_bridge.h"
#include "platform/host_memory.h"
#include "platform/bridge_face.h"
#include "platform/pci_bridge.h"
#include "platform/pci_bus.h"
#include "run/scenario.h"
#include "run/simulation.h"
#include "software/pktgen.h"
#include "software/skb_pool.h"
#include "software/slab_cache.h"
#include "tools/explain/critical_path.h"
#include "tools/explain/host_data.h"
#include "bus_test_parts.h"
#include "simulated_runs.h"
#include "test_support.h"

namespace test_host_cache {

using namespace pcisim;
using nlohmann::json;

namespace {

CpuCacheConfig small_cache() {  // 4 KiB: 16 sets of 4 ways of 64-byte lines
    CpuCacheConfig c;
    c.bytes = 4096;
    c.ways = 4;
    c.line_bytes = 64;
    return c;
}

// One CPU's cache behind the coherence domain: the lines a touch missed.
struct OneCpuCache {
    CacheCoherence caches{small_cache(), 1};
    CpuCache& cache = caches.cache_of(0);
    unsigned touch(std::uint64_t addr, std::uint32_t bytes, bool write, Picos at) {
        const std::uint64_t before = caches.counters(0).misses;
        caches.touch(0, addr, bytes, write, at, LineUse::Other);
        return static_cast<unsigned>(caches.counters(0).misses - before);
    }
};

}  // namespace

TEST_CASE("host memory takes accesses up to its last byte and refuses one past it, saying where") {
    HostMemory memory(4096);
    memory.write32(4092, 0x12345678);
    CHECK(memory.read32(4092) == 0x12345678);
    CHECK_THROWS_WITH(memory.read32(4094), Catch::Contains("access at 4094 of 4 bytes") &&
                                               Catch::Contains("4096-byte memory"));
    CHECK_THROWS_AS(memory.span(4096, 1), std::out_of_range);
    CHECK_THROWS_AS(memory.write64(~std::uint64_t{0} - 3, 0), std::out_of_range);  // wraps
}

TEST_CASE("a host memory that follows another of its size starts all zero whatever that one wrote") {
    // A sweep's worker runs simulation after simulation: the next one's memory is the last
    // one's mapping, with the pages it wrote set to zero again.
    constexpr std::uint64_t kBytes = 1 << 20;
    const std::vector<std::uint8_t> zeros(kBytes, 0);
    std::vector<std::uint8_t> seen(kBytes);
    const std::uint8_t* first_bytes = nullptr;
    {
        HostMemory first(kBytes);
        first.write32(0, 0xffffffff);
        const std::vector<std::uint8_t> ones(6000, 0xff);
        first.write(4000, ones.data(), ones.size());  // across a page boundary
        std::memset(first.span(kBytes - 100, 100), 0xff, 100);  // the last page
        first_bytes = first.span(0, 1);
    }
    {
        HostMemory next(kBytes);
        CHECK(next.span(0, 1) == first_bytes);  // the same mapping, kept
        next.read(0, seen.data(), kBytes);
        CHECK(seen == zeros);
        // Most of it written, as a TLM initiator's direct access to all of it: not kept.
        std::memset(next.span(0, kBytes), 0xff, kBytes);
    }
    HostMemory after(kBytes);
    after.read(0, seen.data(), kBytes);
    CHECK(seen == zeros);
}

TEST_CASE("a ring of lines larger than the cache misses on every pass; a smaller one hits") {
    OneCpuCache cache;
    auto pass = [&](unsigned lines) {
        unsigned missed = 0;
        for (unsigned i = 0; i < lines; ++i) missed += cache.touch(0x10000 + 64ull * i, 16, true, 0);
        return missed;
    };
    // 64 lines fit exactly: the second pass hits every line.
    CHECK(pass(64) == 64);
    CHECK(pass(64) == 0);
    // 65 lines in LRU order: each set sees one line more than it has ways, so every touch
    // finds its line evicted by the one before (the cleanup of a ring larger than the cache).
    OneCpuCache big_ring;
    unsigned first = 0, second = 0;
    for (unsigned i = 0; i < 80; ++i) first += big_ring.touch(0x10000 + 64ull * i, 16, false, 0);
    for (unsigned i = 0; i < 80; ++i) second += big_ring.touch(0x10000 + 64ull * i, 16, false, 0);
    CHECK(first == 80);
    CHECK(second == 80);
}

TEST_CASE("a line the CPU wrote before a DMA read starts costs that read a snoop hit, once") {
    HostConfig hc;
    hc.memory_latency_ps = 240000;
    hc.snoop_hit_ps = 400000;
    HostBridge host("host", hc);
    OneCpuCache cache;
    host.snoop(cache.cache);
    cache.touch(0x2000, 60, true, 1000000);  // written at 1 us (CPU time)
    auto first_hit = [&](const MemoryPath& path, std::uint64_t addr, Picos at) {
        return path.snoop_read(addr, 60, at).first;
    };
    CHECK(first_hit(host, 0x2002, 999999) == 0);        // a read before the write: memory
    CHECK(first_hit(host, 0x2002, 1000000) == 400000);  // from the write on: the cache
    CHECK(first_hit(host, 0x2040, 2000000) == 0);       // the next line was never written
    // Through a bridge the hit costs the bridge's way up and down too.
    BridgeConfig bc;
    bc.upstream_latency_ps = bc.downstream_latency_ps = 100000;
    PciBridge bridge("bridge", bc, host);
    CHECK(first_hit(bridge, 0x2002, 2000000) == 600000);
    // The read takes the line at 2 us: written back, so a later read gets it from memory, but
    // the same read asked again still sees the hit it was promised.
    host.read_taken(0x2002, 60, 2000000);
    CHECK(host.snoop_hits() == 1);
    CHECK(first_hit(host, 0x2002, 2000000) == 400000);
    CHECK(first_hit(host, 0x2002, 2000001) == 0);
    // Written again: modified again; a DMA write drops the line from the cache.
    cache.touch(0x2010, 4, true, 3000000);
    CHECK(first_hit(host, 0x2002, 3000000) == 400000);
    host.posted_write(0x2000, 16, 3500000);
    CHECK(first_hit(host, 0x2002, 4000000) == 0);
    CHECK(cache.touch(0x2000, 4, false, 4000000) == 1);
}

namespace {
// A 256-byte delayed read (four 64-byte lines) on a 32/33 bus, streamed from memory at
// 600 ns a line (20 clocks: each line's 16 data phases wait for it).
struct SnoopedRead {
    HostConfig host_config() {
        HostConfig c;
        c.memory_latency_ps = ns_to_ps(300);
        c.line_transfer_ps = ns_to_ps(600);
        c.snoop_hit_ps = ns_to_ps(300);
        c.snoop_line_ps = ns_to_ps(300);
        return c;
    }
    FaceConfig face_config() {
        FaceConfig c;
        c.prefetch_bytes = 256;
        return c;
    }
    HostBridge host{"host", host_config()};
    OneCpuCache cache;
    PciBus bus{"bus", test::bus_config(BusKind::Pci, 32, 33)};
    BridgeFace face{"face", face_config(), bus, host};
    test::RecordingMaster clean{"clean", bus}, dirty{"dirty", bus};
    SnoopedRead() {
        host.snoop(cache.cache);
        host.bind_mmio(face, 0, 0);
    }
};
}  // namespace

TEST_CASE("a DMA read of N lines of which M are modified costs M snoop hits, each holding up "
          "the stream") {
    SnoopedRead r;
    // The CPU writes lines 1 and 3 of the second buffer (its first and third lines are clean).
    r.cache.touch(0x2040, 64, true, 0);
    r.cache.touch(0x20c0, 8, true, 0);
    MemoryPath::Snoop s = r.host.snoop_read(0x2000, 256, 0);
    CHECK(s.first == 0);
    CHECK(s.further.lines.count() == 2);
    CHECK(s.further.until(1) == ns_to_ps(300));
    CHECK(s.further.until(2) == ns_to_ps(300));  // line 2 is clean but waits behind line 1
    CHECK(s.further.until(3) == ns_to_ps(600));
    // The same read of a clean buffer and of that one, one after the other.
    test::TransactionLog log;
    log.attach(r.bus);
    r.bus.read(r.clean.id, 0x1000, 256, 1);
    test::At later("later", ns_to_ps(20000), [&] { r.bus.read(r.dirty.id, 0x2000, 256, 2); });
    sc_core::sc_start();
    REQUIRE(r.clean.done.size() == 1);
    REQUIRE(r.dirty.done.size() == 1);
    CHECK(r.host.snoop_hits() == 2);
    // Each read ends with one transaction that takes all 256 bytes once the first line is in
    // (the attempts before it are retries).  The dirty one's data phases end later by the two
    // modified lines' snoop cost (on the bus's clock grid), and by nothing else.
    auto data_phase_time = [&](int master) {
        const BusTransaction& t = *std::find_if(log.all.rbegin(), log.all.rend(),
                                                [&](const BusTransaction& x) {
                                                    return x.master == master;
                                                });
        REQUIRE(t.bytes_done == 256);
        return t.end - t.start;
    };
    const Picos delay = data_phase_time(r.dirty.id) - data_phase_time(r.clean.id);
    CHECK(delay >= 2 * ns_to_ps(300));
    CHECK(delay < 2 * ns_to_ps(300) + r.bus.period());
    // Written back: the lines are clean now.
    CHECK(r.host.snoop_read(0x2000, 256, ns_to_ps(40000)).further.lines.none());
}

TEST_CASE("snoop costs of 0: the bridge does not hold the stream, counts only the further "
          "lines and still writes them back") {
    HostConfig config;
    config.snoop_hit_ps = 0;   // the first line comes from memory
    config.snoop_line_ps = 0;  // a further modified line comes in time
    HostBridge host{"host", config};
    OneCpuCache cache;
    host.snoop(cache.cache);
    cache.touch(0x3000, 128, true, 0);  // the read's first two lines
    MemoryPath::Snoop s = host.snoop_read(0x3000, 256, 0);
    CHECK(s.first == 0);
    CHECK(s.further.lines.none());
    host.read_taken(0x3000, 256, 0);
    CHECK(host.snoop_hits() == 1);
    CHECK(host.snoop_extra_ps() == 0);
    CHECK_FALSE(cache.cache.modified_at(0x3040, 1));
}

TEST_CASE("slab arrays are refilled and flushed in batches of half their limit") {
    int grown = 0;
    SlabCache skb_heads(256, [&] { return grown++; });
    CHECK(skb_heads.limit() == 120);
    CHECK(skb_heads.batchcount() == 60);
    CHECK(SlabCache::array_limit(1024) == 54);
    CHECK(SlabCache::array_limit(2048) == 24);
    int cpu0 = 0, cpu1 = 0;
    std::vector<int> held;
    for (int i = 0; i < 61; ++i) held.push_back(skb_heads.allocate(&cpu0));
    CHECK(skb_heads.counters().refills == 2);  // 60 objects, then 60 more for the 61st
    CHECK(grown == 120);
    // Freeing everything back: the array holds 120 (the 59 left plus 61), no flush yet.
    for (int o : held) skb_heads.free(o, &cpu0);
    CHECK(skb_heads.counters().flushes == 0);
    skb_heads.free(skb_heads.allocate(&cpu1), &cpu0);  // cpu1's array: a refill of its own
    CHECK(skb_heads.counters().refills == 3);
    CHECK(skb_heads.counters().flushes == 1);  // cpu0's array was full: 60 go back
    // Last freed, first allocated: the hot object comes back.
    int hot = skb_heads.allocate(&cpu0);
    skb_heads.free(hot, &cpu0);
    CHECK(skb_heads.allocate(&cpu0) == hot);
}

TEST_CASE("cpu.cache.kib must give a power-of-two number of sets") {
    auto problems = test::load_problems(test::scenario_path("athlon-64-66-82546gb"), {"cpu.cache.kib=96"});
    REQUIRE(problems.size() == 1);
    CHECK(test::contains(problems[0], "cpu.cache.kib: 96"));
}

TEST_CASE("clone_skb sends one buffer: its line is clean after the first read, no snoop hits") {
    json r = test::simulate_fixed("athlon-64-66-82546gb", {"cpu.cache.kib=256"});
    // Only the descriptor fetches (lines the driver just wrote) hit in the cache.
    CHECK(r["snoop_hits_per_packet"].get<double>() < 0.3);
    CHECK(r["cpus"][0]["slab_batches"].get<double>() == 0);
}

TEST_CASE("fresh skbs: every packet's data read hits the header line pktgen just wrote") {
    json r = test::simulate_fixed("athlon-64-66-82546gb", {"cpu.cache.kib=256", "pktgen.clone_skb=0"});
    CHECK(r["snoop_hits_per_packet"].get<double>() >= 1.0);
    // The stock driver frees about a hundred skbs per interrupt: the arrays overflow and
    // refill in batches, far fewer than one per packet.
    double batches = r["slab_batches_per_packet"].get<double>();
    CHECK(batches > 0);
    CHECK(batches < 0.2);
}

TEST_CASE("a fresh skb's read finds only the headers' line modified, not the payload's") {
    // 200 bytes at offset 2 span four lines; the 2004 pktgen writes bytes 0-57 and leaves the
    // rest of the payload as the slab had it, so one line per packet is modified (plus the
    // descriptor lines the driver wrote, about a quarter per packet).
    json r = test::simulate_fixed("athlon-64-66-82546gb",
                 {"cpu.cache.kib=256", "pktgen.clone_skb=0", "packet.size=200"});
    CHECK(r["snoop_hits_per_packet"].get<double>() >= 1.0);
    CHECK(r["snoop_hits_per_packet"].get<double>() < 1.5);
}

TEST_CASE("a buffer keeps pktgen's zeroed mark until another allocator takes it") {
    SkbPool pool(1 << 20, 1 << 20, 64);
    const int cpu = 0;
    std::uint32_t zeroed = 99;
    Skb a = pool.allocate(160, 60, &cpu, 0, &zeroed);
    // A new buffer is as host memory starts: zero, from the frame's start to its end.
    CHECK(zeroed == SkbPool::buffer_bytes(160, 64) - (a.data - a.head));
    pool.mark_zeroed(a, 60);
    pool.release(a, &cpu);
    Skb b = pool.allocate(160, 60, &cpu, 0, &zeroed);
    REQUIRE(b.id == a.id);  // the CPU's array hands back the buffer it took last
    CHECK(zeroed == 60);
    pool.release(b, &cpu);
    Skb c = pool.allocate(160, 60, &cpu);  // another allocator: the receive path, TCP
    REQUIRE(c.id == a.id);
    pool.release(c, &cpu);
    Skb d = pool.allocate(160, 60, &cpu, 0, &zeroed);
    REQUIRE(d.id == a.id);
    CHECK(zeroed == 0);  // whatever the other owner wrote is zeroed again
}

TEST_CASE("fresh skbs in reused buffers leave the wire zero but for pktgen's stamp") {
    std::vector<std::string> sets = {"pktgen.clone_skb=0", "packet.size=1500"};
    for (auto& o : test::fixed_window(6000, 300)) sets.push_back(o);
    Scenario s = Scenario::load(test::scenario_path("xeon-pcix-133"), sets);
    Simulation sim(s);
    std::uint32_t frames = 0, wrong_bytes = 0, wrong_stamps = 0;
    sim.on_wire_frame([&](const WireFrame& f) {
        if (f.received) return;
        std::uint32_t magic = 0, seq = 0;
        std::memcpy(&magic, f.data + kPktgenMagicOffset, sizeof magic);
        std::memcpy(&seq, f.data + kPktgenSeqOffset, sizeof seq);
        if (magic != kPktgenMagic || seq != frames) ++wrong_stamps;
        for (unsigned i = 0; i < f.len; ++i)
            if (f.data[i] != 0 && (i < kPktgenMagicOffset || i >= kPktgenSeqOffset + 4))
                ++wrong_bytes;
        ++frames;
    });
    sim.run();
    // Well past the ring's 256 buffers: the later frames were built in buffers used before.
    CHECK(frames > 400);
    CHECK(wrong_stamps == 0);
    CHECK(wrong_bytes == 0);
}

TEST_CASE("a notxints ring larger than the cache makes cleanup miss") {
    // 4096 packets in flight, cleaned once a millisecond, through a 64 KiB cache: descriptors,
    // ring state and skbs have left the cache when the cleanup comes to them.
    json big = test::simulate_fixed("athlon-64-66-82546gb",
                   {"cpu.cache.kib=64", "driver.notxints=true", "driver.ring_size=4096",
                    "pktgen.clone_skb=0"}, 20000);
    CHECK(big["cache_misses_per_packet"].get<double>() > 4);
}

TEST_CASE("a ring that fits the cache leaves only the fresh skbs' lines to miss") {
    // The cleanup timer lets out 253 packets a millisecond in bursts: 20 ms of them measure the
    // rate they sustain (5 ms did not).
    json small = test::simulate_fixed("athlon-64-66-82546gb",
                     {"cpu.cache.kib=1024", "driver.notxints=true", "driver.ring_size=256",
                      "pktgen.clone_skb=1000000"}, 20000);
    CHECK(small["cache_misses_per_packet"].get<double>() < 0.5);
}

TEST_CASE("explain prices the cache misses, slab batches and snoop hits per packet") {
    // A further modified line priced like the first line's extra (the preset's is 0).
    std::vector<std::string> sets = {"pktgen.clone_skb=0", "host.snoop_line_ns=100"};
    for (auto& o : test::fixed_window(2000, 300)) sets.push_back(o);
    Scenario s = Scenario::load(test::scenario_path("athlon-64-66-82546gb"), sets);
    Simulation sim(s);
    json results = sim.run();
    json h = host_data_costs(s, results);
    REQUIRE(h.is_object());
    const double snoops = results["snoop_hits_per_packet"].get<double>();
    CHECK(h["snoop_hits_per_packet"].get<double>() == snoops);
    // Each hit, first line or not, adds the same here.
    const double per_hit = s.number("host.snoop_hit_ns") - s.number("host.memory_latency_ns");
    REQUIRE(s.number("host.snoop_line_ns") == per_hit);
    CHECK(snoops > 0);
    CHECK(h["snoop_extra_ns_per_packet"].get<double>() == Approx(snoops * per_hit));
    CHECK(h["cache_miss_ns_per_packet"].get<double>() ==
          Approx(results["cache_misses_per_packet"].get<double>() * s.number("cpu.cache.miss_ns")));
    CHECK(h["slab_batch_ns_per_packet"].get<double>() > 0);
    // Without a cache model and slab batches there is nothing to show (every preset has its
    // datasheet's cache: turned off here).
    Scenario plain = Scenario::load(test::scenario_path("phi-64-100-82546"), {"cpu.cache.kib=0"});
    CHECK(host_data_costs(plain, json{{"slab_batches_per_packet", 0.0}}).is_null());
}

}  // namespace test_host_cache
