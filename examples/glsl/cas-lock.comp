// A spin lock by compare-exchange: each of 2 workgroups takes the lock
// with an acquire compare-exchange from 0 to 1, reads a plain counter in
// the critical section, records what it read in seen[its workgroup],
// writes the counter + 1, and releases the lock with a release store of 0.
// Mutual exclusion and the release/acquire pair make the second critical
// section read what the first wrote: one workgroup saw 0, the other 1.
// (The failing compare-exchange acquires too: gpubmc's translation gives a
// compare-exchange one read event, which must carry both semantics.)
// @Output: forall ((%lk[2][0] == 0 and %lk[2][1] == 1) or (%lk[2][0] == 1 and %lk[2][1] == 0))
// @Config: 1, 1, 2
#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Lock { uint lock; uint counter; uint seen[2]; } lk;

void main()
{
    while (atomicCompSwap(lk.lock, 0u, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire,
                          gl_StorageSemanticsBuffer, gl_SemanticsAcquire) != 0u) {
    }
    uint c = lk.counter;
    lk.seen[gl_WorkGroupID.x] = c;
    lk.counter = c + 1u;
    atomicStore(lk.lock, 0u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
}
