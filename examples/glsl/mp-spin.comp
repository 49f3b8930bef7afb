// Message passing with a spin loop: workgroup 0 writes data, then sets
// flag with a Device-scope release store; workgroup 1 spins on an acquire
// load of flag and then copies data to result.  The release/acquire pair
// makes the write of data visible to the read: result is 1.
// @Output: forall (%buf[2] == 1)
// @Config: 1, 1, 2
#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Buf { uint data; uint flag; uint result; } buf;

void main()
{
    if (gl_WorkGroupID.x == 0) {
        buf.data = 1u;
        atomicStore(buf.flag, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    } else {
        while (atomicLoad(buf.flag, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire) == 0u) {
        }
        buf.result = buf.data;
    }
}
