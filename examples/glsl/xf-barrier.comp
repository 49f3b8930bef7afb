// The XF inter-workgroup barrier (Xiao and Feng): each of 2 workgroups of
// 2 invocations writes its slot of data, then meets the others.  Invocation
// 0 of a follower workgroup raises its flag with a release store and waits
// (acquire) until the leader lowers it; the leader's invocation 0 waits
// (acquire) for every follower's flag and lowers it (release); a workgroup
// barrier with buffer semantics brackets each side.  After the barrier
// every invocation reads the slot of the invocation with the mirrored
// global id, which wrote before the barrier: out[i] = data[3 - i] = 4 - i.
// @Output: forall (%io[1][0] == 4 and %io[1][1] == 3 and %io[1][2] == 2 and %io[1][3] == 1)
// @Config: 2, 1, 2
#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 2) in;
layout(set = 0, binding = 0) coherent buffer IO { uint data[4]; uint outv[4]; uint flag[2]; } io;

void sync_workgroup()
{
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                   gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
}

void main()
{
    uint g = gl_GlobalInvocationID.x, w = gl_WorkGroupID.x, l = gl_LocalInvocationID.x;
    io.data[g] = g + 1u;
    sync_workgroup();
    if (l == 0u) {
        if (w == 0u) {
            while (atomicLoad(io.flag[1], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire) == 0u) {
            }
            atomicStore(io.flag[1], 0u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
        } else {
            atomicStore(io.flag[w], 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
            while (atomicLoad(io.flag[w], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire) != 0u) {
            }
        }
    }
    sync_workgroup();
    io.outv[g] = io.data[3u - g];
}
