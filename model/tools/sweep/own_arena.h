// Runs a forked child's work on a thread of its own, so that its allocations come from a malloc
// arena of its own instead of the heap it shares with its parent.
//
// After fork the child's main thread allocates from glibc's main arena, which is the parent's
// heap, copy-on-write: malloc reuses the parent's free chunks all over it and writes their
// headers, so each write copies one of the parent's pages.  A validate worker copied about 600
// pages that way (the parent's heap is about 14 MB of scenarios and results; 617,000 of the
// 915,000 page faults of `validate --predictions`, each with a TLB flush).  A new thread gets
// a new arena, in pages nobody else has: in the child, glibc puts every arena but the forking
// thread's on the list for reuse (malloc/arena.c, __malloc_fork_unlock_child), and a
// single-threaded parent has no other.
#pragma once

#include <thread>
#include <utility>

namespace pcisim::sweep {

// fn() must not throw: an exception leaving it ends the process (std::terminate).
template <class Fn>
void run_on_own_arena(Fn&& fn) {
    std::thread(std::forward<Fn>(fn)).join();
}

}  // namespace pcisim::sweep
