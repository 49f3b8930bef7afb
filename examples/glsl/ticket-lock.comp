// A ticket lock: each of 2 workgroups draws a ticket with a relaxed
// atomic add on next, spins until serving (acquire) equals its ticket,
// reads a plain counter in the critical section, records what it read in
// seen[its workgroup], writes the counter + 1, and passes the lock on
// with a release store of its ticket + 1 to serving.  The tickets are 0
// and 1; the holder of 1 acquires the release of the holder of 0 and so
// reads its write: one workgroup saw 0, the other 1, and next ends at 2.
// @Output: forall (%tl[0] == 2 and ((%tl[3][0] == 0 and %tl[3][1] == 1) or (%tl[3][0] == 1 and %tl[3][1] == 0)))
// @Config: 1, 1, 2
#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Ticket { uint next; uint serving; uint counter; uint seen[2]; } tl;

void main()
{
    uint mine = atomicAdd(tl.next, 1u, gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
    while (atomicLoad(tl.serving, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire) != mine) {
    }
    uint c = tl.counter;
    tl.seen[gl_WorkGroupID.x] = c;
    tl.counter = c + 1u;
    atomicStore(tl.serving, mine + 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
}
