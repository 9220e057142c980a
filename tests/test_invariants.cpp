// The invariant checks that no fault-injection key reaches, driven directly: each must throw
// InvariantViolation naming its module and the state that broke it.
#include <catch2/catch.hpp>

#include "e1000/e1000_descriptor_cache.h"
#include "e1000/e1000_tx_fifo.h"
#include "platform/host_memory.h"
#include "core/invariants.h"

namespace test_invariants {

using namespace pcisim;
using namespace pcisim::e1000;

TEST_CASE("the TX FIFO never goes above its size or below zero") {
    TxFifo fifo(1024);
    fifo.reserve(1000);
    try {
        fifo.reserve(25);
        FAIL("no violation");
    } catch (const InvariantViolation& v) {
        CHECK(v.module() == "nic TX FIFO");
        CHECK(v.state() == "overflow: reserving 25 B with 1000 of 1024 B used");
    }
    fifo.reserve(24);  // exactly full is fine
    fifo.release(1024);
    CHECK_THROWS_AS(fifo.release(1), InvariantViolation);
}

TEST_CASE("a descriptor delivered twice is caught when it would be processed again") {
    HostMemory mem(1 << 20);
    constexpr std::uint64_t kRing = 0x1000;
    for (unsigned i = 0; i < 8; ++i) {
        TxDescriptor d{};
        d.buffer_addr = 0x8000 + 64 * i;
        d.length = 60;
        d.cmd = kCmdEop;
        mem.write(kRing + 16 * i, &d, sizeof d);
    }
    DescriptorCache cache(64, 64);
    cache.set_base_low(kRing);
    cache.set_length_bytes(8 * kDescriptorBytes);
    cache.set_head(0);
    cache.set_tail(4);
    DescriptorFetch f = cache.plan_fetch();
    REQUIRE(f.count == 4);
    cache.fetch_issued(f);
    cache.fetch_arrived(f, mem);
    for (unsigned i = 0; i < 4; ++i) CHECK(cache.pop().index == i);
    // A fetch engine gone wrong hands slot 0 over again.
    cache.fetch_arrived({kRing, 0, 1}, mem);
    try {
        cache.pop();
        FAIL("no violation");
    } catch (const InvariantViolation& v) {
        CHECK(v.module() == "nic descriptor cache");
        CHECK(v.state().rfind("descriptor 0 processed where 4 was next", 0) == 0);
    }
}

}  // namespace test_invariants
