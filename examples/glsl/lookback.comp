// One step of a decoupled look-back scan (Merrill and Garland): each of 2
// workgroups reduces its tile (in[w] = w + 1 here) and publishes it: a
// workgroup with no predecessor publishes its inclusive prefix at once
// (status 2); the other publishes its aggregate (status 1), looks back at
// its predecessor's status with acquire loads until it is not 0, takes the
// inclusive prefix when the status is 2 (else the aggregate, and would look
// further back), and publishes its own inclusive prefix (status 2).  The
// stores of values are plain; each status store releases them, each status
// load acquires them.  Workgroup 0 only ever publishes status 2, so
// workgroup 1 reads its inclusive prefix 1: its own is 1 + 2 = 3.
// @Output: forall (%sc[2][0] == 1 and %sc[2][1] == 3)
// @Config: 1, 1, 2
#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Scan { uint status[2]; uint aggregate[2]; uint inclusive[2]; } sc;

void main()
{
    uint w = gl_WorkGroupID.x;
    uint tile = w + 1u;
    if (w == 0u) {
        sc.inclusive[0] = tile;
        atomicStore(sc.status[0], 2u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
        return;
    }
    sc.aggregate[w] = tile;
    atomicStore(sc.status[w], 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    uint s;
    do {
        s = atomicLoad(sc.status[w - 1u], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
    } while (s == 0u);
    uint prefix = s == 2u ? sc.inclusive[w - 1u] : sc.aggregate[w - 1u];
    sc.inclusive[w] = prefix + tile;
    atomicStore(sc.status[w], 2u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
}
