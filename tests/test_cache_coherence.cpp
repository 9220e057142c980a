// Lines between CPUs (platform/cache_coherence.h): what a read or write costs, given what the
// other CPUs' caches hold, under MESI and MOESI.
#include <catch2/catch.hpp>

#include "platform/cache_coherence.h"
#include "platform/host_bridge.h"

namespace test_cache_coherence {

using namespace pcisim;

namespace {

constexpr Picos kMiss = 150000, kTransfer = 210000, kInvalidate = 90000;

CpuCacheConfig two_cpu_caches(CpuCacheConfig::Protocol protocol) {
    CpuCacheConfig c;
    c.bytes = 4096;
    c.ways = 4;
    c.line_bytes = 64;
    c.miss_ps = kMiss;
    c.transfer_ps = kTransfer;
    c.invalidate_ps = kInvalidate;
    c.protocol = protocol;
    return c;
}

constexpr std::size_t kRefcount = static_cast<std::size_t>(LineUse::SkbRefcount);

}  // namespace

TEST_CASE("a line written on one CPU and then freed on another costs a transfer") {
    for (auto protocol : {CpuCacheConfig::Protocol::Mesi, CpuCacheConfig::Protocol::Moesi}) {
        CacheCoherence caches(two_cpu_caches(protocol), 2);
        // CPU 0 takes a reference (atomic_inc of skb->users): a miss, the line modified there.
        CHECK(caches.touch(0, 0x1000, 4, true, 0, LineUse::SkbRefcount) == kMiss);
        CHECK(caches.touch(0, 0x1000, 4, true, 10, LineUse::SkbRefcount) == 0);
        // CPU 1 frees it (atomic_dec_and_test): the line comes from CPU 0's cache, which drops it.
        CHECK(caches.touch(1, 0x1000, 4, true, 20, LineUse::SkbRefcount) == kTransfer);
        CHECK(caches.counters(1).transfers[kRefcount] == 1);
        CHECK(caches.cache_of(0).state(0x1000 / 64) == CpuCache::State::Invalid);
        CHECK(caches.cache_of(1).state(0x1000 / 64) == CpuCache::State::Modified);
        // And back to CPU 0 for the next packet.
        CHECK(caches.touch(0, 0x1000, 4, true, 30, LineUse::SkbRefcount) == kTransfer);
        CHECK(caches.counters(0).transfers[kRefcount] == 1);
    }
}

TEST_CASE("MESI: a modified line read by another CPU is written back and shared") {
    CacheCoherence caches(two_cpu_caches(CpuCacheConfig::Protocol::Mesi), 2);
    HostConfig hc;
    HostBridge host("host", hc);
    for (const auto& c : caches.caches()) host.snoop(*c);
    caches.touch(0, 0x2000, 16, true, 1000, LineUse::Descriptor);
    CHECK(caches.touch(1, 0x2000, 16, false, 2000, LineUse::Descriptor) == kTransfer);
    CHECK(caches.cache_of(0).state(0x2000 / 64) == CpuCache::State::Shared);
    CHECK(caches.cache_of(1).state(0x2000 / 64) == CpuCache::State::Shared);
    // Written back at the transfer: a DMA read after it finds no modified copy, one before it did.
    CHECK(caches.cache_of(0).modified_at(0x2000, 1500));
    CHECK_FALSE(caches.cache_of(0).modified_at(0x2000, 2500));
    // A write to the shared line invalidates the other copy.
    CHECK(caches.touch(1, 0x2000, 4, true, 3000, LineUse::Descriptor) == kInvalidate);
    CHECK(caches.cache_of(0).state(0x2000 / 64) == CpuCache::State::Invalid);
    CHECK(caches.counters(1).invalidations[static_cast<std::size_t>(LineUse::Descriptor)] == 1);
    // Alone with it now: a further write costs nothing.
    CHECK(caches.touch(1, 0x2000, 4, true, 4000, LineUse::Descriptor) == 0);
}

TEST_CASE("MOESI: a modified line read by another CPU stays dirty in the owner") {
    CacheCoherence caches(two_cpu_caches(CpuCacheConfig::Protocol::Moesi), 2);
    caches.touch(0, 0x3000, 64, true, 1000, LineUse::SkbData);
    CHECK(caches.touch(1, 0x3000, 64, false, 2000, LineUse::SkbData) == kTransfer);
    CHECK(caches.cache_of(0).state(0x3000 / 64) == CpuCache::State::Owned);
    CHECK(caches.cache_of(1).state(0x3000 / 64) == CpuCache::State::Shared);
    // The owner still answers a DMA read for it: not written back.
    CHECK(caches.cache_of(0).modified_at(0x3000, 5000));
    // The owner writes it again: the shared copy goes.
    CHECK(caches.touch(0, 0x3000, 4, true, 6000, LineUse::SkbData) == kInvalidate);
    CHECK(caches.cache_of(0).state(0x3000 / 64) == CpuCache::State::Modified);
    CHECK(caches.cache_of(1).state(0x3000 / 64) == CpuCache::State::Invalid);
}

TEST_CASE("a clean line another CPU holds comes from memory; a write then takes it from them") {
    CacheCoherence caches(two_cpu_caches(CpuCacheConfig::Protocol::Moesi), 2);
    CHECK(caches.touch(0, 0x4000, 8, false, 0, LineUse::BufferInfo) == kMiss);
    CHECK(caches.cache_of(0).state(0x4000 / 64) == CpuCache::State::Exclusive);
    CHECK(caches.touch(1, 0x4000, 8, false, 0, LineUse::BufferInfo) == kMiss);
    CHECK(caches.cache_of(0).state(0x4000 / 64) == CpuCache::State::Shared);
    // CPU 0 writes its shared copy: the other one goes.
    CHECK(caches.touch(0, 0x4000, 8, true, 0, LineUse::BufferInfo) == kInvalidate);
    // A write miss where another CPU holds a clean copy: from memory, the copy invalidated.
    CHECK(caches.touch(1, 0x4040, 8, false, 0, LineUse::BufferInfo) == kMiss);
    CHECK(caches.touch(0, 0x4040, 8, true, 0, LineUse::BufferInfo) == kMiss);
    CHECK(caches.cache_of(1).state(0x4040 / 64) == CpuCache::State::Invalid);
    CHECK(caches.counters(0).transfers[static_cast<std::size_t>(LineUse::BufferInfo)] == 0);
    CHECK(caches.counters(0).invalidations[static_cast<std::size_t>(LineUse::BufferInfo)] == 2);
}

TEST_CASE("CPUs sharing one cache (Hyper-Threading siblings) move no lines") {
    CpuCacheConfig config = two_cpu_caches(CpuCacheConfig::Protocol::Mesi);
    config.shared = true;
    CacheCoherence caches(config, 2);
    CHECK(caches.caches().size() == 1);
    CHECK(caches.touch(0, 0x5000, 4, true, 0, LineUse::RingState) == kMiss);
    CHECK(caches.touch(1, 0x5000, 4, true, 0, LineUse::RingState) == 0);
    CHECK(caches.touch(0, 0x5000, 4, false, 0, LineUse::RingState) == 0);
}

}  // namespace test_cache_coherence
