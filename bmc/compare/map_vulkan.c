/* The mapping of OpenCL to Vulkan: the operations as clspv compiles them
 * to SPIR-V (its AtomicBuiltins tests: scope work_group -> Workgroup,
 * device -> Device; order acquire / release / acq_rel -> Acquire /
 * Release / AcquireRelease, seq_cst -> AcquireRelease (Release on a store,
 * Acquire on a load): Vulkan has no SequentiallyConsistent; global memory
 * -> UniformMemory semantics, local -> WorkgroupMemory), written under the
 * Vulkan memory model as its appendix asks for C++-like code: every access
 * non-private, a release makes available and an acquire makes visible.
 *
 *   OpenCL                        vulkan
 *   non-atomic read / write       ld.nonpriv.scK / st.nonpriv.scK
 *   load relaxed                  ld.atom.S.scK
 *   load acquire, seq_cst         ld.atom.acq.S.scK.semscK.semvis
 *   store relaxed                 st.atom.S.scK
 *   store release, seq_cst        st.atom.rel.S.scK.semscK.semav
 *   RMW relaxed                   rmw.atom.S.scK.<op>
 *   RMW acquire / release         rmw.atom.acq...semvis / rmw.atom.rel...semav
 *   RMW acq_rel, seq_cst          rmw.atom.acq_rel.S.scK.semscK.semav.semvis
 *   fence acquire ... seq_cst     membar.<order>.S.semsc<flags>[.semav][.semvis]
 *   fence relaxed                 nothing (no flags: semsc0.semsc1)
 *   Bn: barrier(flags)            cbar.acq_rel.wg.semsc<flags>.semav.semvis n
 *
 * with K the location's storage class (0: global or generic, 1: local),
 * S: work-item -> sg (each work-item its own subgroup), work-group -> wg,
 * device and all devices (and a fence without scope) -> dv; a compare-
 * exchange writes only when it reads the expected value, as SPIR-V's
 * OpAtomicCompareExchange.  Wrong on purpose: vulkan-relaxed-release
 * compiles a release store as a relaxed one, vulkan-private the non-atomic
 * accesses as private ones (no NonPrivatePointer). */
#include "bmc/compare/map_impl.h"

/* The Vulkan scope of an OpenCL scope. */
static enum scope vulkan_scope(enum scope s)
{
    switch (s) {
    case SCOPE_WI: return SCOPE_SG;
    case SCOPE_WG: return SCOPE_WG;
    default: return SCOPE_DV;
    }
}

/* The storage class of location loc: 1 (Workgroup) for local memory, else 0. */
static int storage_class(const struct litmus *l, int loc)
{
    return (l->locs[loc].cl_tags & (CL_LOCAL | CL_GLOBAL | CL_GENERIC)) == CL_LOCAL ? 1 : 0;
}

/* Storage-class semantics bits of fence flags (CLK_GLOBAL -> 0, CLK_LOCAL
 * -> 1; atomic_thread_fence, without flags: both). */
static unsigned flags_semsc(unsigned cl_flags)
{
    unsigned bits = (cl_flags & CL_GLOBAL ? 1u : 0u) | (cl_flags & CL_LOCAL ? 2u : 0u);
    return bits ? bits : 3u;
}

/* Gives in the semantics of order mo over storage classes semsc: the order,
 * MakeAvailable when it releases, MakeVisible when it acquires. */
static void semantics(struct instr *in, enum mo mo, unsigned semsc)
{
    in->mo = mo;
    in->semsc = mo == MO_RELAXED ? 0 : semsc;
    if (mo == MO_RELEASE || mo == MO_ACQ_REL)
        in->vk_flags |= VK_SEMAV;
    if (mo == MO_ACQUIRE || mo == MO_ACQ_REL)
        in->vk_flags |= VK_SEMVIS;
}

/* The Vulkan order of an access's OpenCL order: seq_cst as the strongest
 * the access can carry. */
static enum mo vulkan_order(enum instr_kind kind, enum mo mo)
{
    if (mo != MO_SC)
        return mo;
    return kind == I_LOAD ? MO_ACQUIRE : kind == I_STORE ? MO_RELEASE : MO_ACQ_REL;
}

void map_vulkan_instr(struct map_out *o, const struct litmus *l, enum vk_mapping v, const struct instr *src)
{
    struct instr in = *src;
    in.cl_flags = 0;
    in.proxy = PROXY_GENERIC;
    in.vk_flags = 0;
    in.semsc = 0;
    in.storage_class = -1;
    in.scope = vulkan_scope(src->scope);
    switch (src->kind) {
    case I_LOAD: case I_STORE: case I_RMW: {
        bool load = src->kind == I_LOAD, store = src->kind == I_STORE;
        int k = storage_class(l, src->loc);
        in.storage_class = k;
        if (src->mo == MO_WEAK) {
            in.scope = SCOPE_NONE;
            in.vk_flags = v == VKMAP_PRIVATE ? 0 : VK_NONPRIV;
            break;
        }
        in.vk_flags = VK_ATOMIC | VK_NONPRIV | (load ? 0 : VK_AV) | (store ? 0 : VK_VIS);
        enum mo mo = vulkan_order(src->kind, src->mo);
        if (store && mo == MO_RELEASE && v == VKMAP_RELAXED_RELEASE)
            mo = MO_RELAXED;
        semantics(&in, mo, 1u << k);
        break;
    }
    case I_FENCE:
        if (src->mo == MO_RELAXED)
            return;
        semantics(&in, src->mo == MO_SC ? MO_ACQ_REL : src->mo, flags_semsc(src->cl_flags));
        break;
    case I_BARRIER:
        in.scope = SCOPE_WG;
        semantics(&in, MO_ACQ_REL, flags_semsc(src->cl_flags));
        break;
    default:
        in.scope = src->scope;
        break;
    }
    map_put(o, &in);
}
