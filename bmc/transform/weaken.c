/* The single-step weakenings of PTX, Vulkan and OpenCL instructions. */
#include "bmc/transform/weaken.h"

/* Appends a weakening that turns the instruction into in. */
static void become(struct weakening *out, int *n, enum transform_kind kind, const struct instr *in)
{
    out[(*n)++] = (struct weakening){ .kind = kind, .in = *in };
}

static void drop(struct weakening *out, int *n, enum transform_kind kind, const struct instr *in)
{
    out[(*n)++] = (struct weakening){ .kind = kind, .remove = true, .in = *in };
}

/* The next narrower scope, SCOPE_NONE when there is none. */
static enum scope narrower(enum scope s)
{
    switch (s) {
    case SCOPE_SYS: return SCOPE_GPU;
    case SCOPE_GPU: return SCOPE_CTA;
    case SCOPE_DV: return SCOPE_QF;
    case SCOPE_QF: return SCOPE_WG;
    case SCOPE_WG: return SCOPE_SG;
    default: return SCOPE_NONE;
    }
}

/* in with order mo (and, for weak, no scope). */
static void with_order(struct weakening *out, int *n, const struct instr *in, enum mo mo)
{
    struct instr w = *in;
    w.mo = mo;
    if (mo == MO_WEAK)
        w.scope = SCOPE_NONE;
    become(out, n, T_WEAKEN_ORDER, &w);
}

static int weaken_ptx(const struct instr *in, struct weakening *out)
{
    int n = 0;
    switch (in->kind) {
    case I_LOAD: case I_STORE:
        if (in->mo == MO_ACQUIRE || in->mo == MO_RELEASE)
            with_order(out, &n, in, MO_RELAXED);
        else if (in->mo == MO_RELAXED)
            with_order(out, &n, in, MO_WEAK);
        break;
    case I_RMW:
        if (in->mo == MO_ACQ_REL) {
            with_order(out, &n, in, MO_ACQUIRE);
            with_order(out, &n, in, MO_RELEASE);
        } else if (in->mo == MO_ACQUIRE || in->mo == MO_RELEASE) {
            with_order(out, &n, in, MO_RELAXED);
        }
        break;
    case I_FENCE:
        if (in->mo == MO_SC)
            with_order(out, &n, in, MO_ACQ_REL);
        drop(out, &n, T_DROP_FENCE, in);
        break;
    case I_PROXY_FENCE: case I_ALIAS_FENCE:
        drop(out, &n, T_DROP_FENCE, in);
        break;
    default:
        break;
    }
    if (narrower(in->scope) != SCOPE_NONE && in->kind != I_BARRIER) {
        struct instr w = *in;
        w.scope = narrower(in->scope);
        become(out, &n, T_NARROW_SCOPE, &w);
    }
    return n;
}

/* in with Vulkan order mo: the semantics the order no longer allows go
 * (storage classes without any order, semav without release, semvis
 * without acquire). */
static void vk_with_order(struct weakening *out, int *n, const struct instr *in, enum mo mo)
{
    struct instr w = *in;
    w.mo = mo;
    if (mo != MO_RELEASE && mo != MO_ACQ_REL)
        w.vk_flags &= ~(unsigned)VK_SEMAV;
    if (mo != MO_ACQUIRE && mo != MO_ACQ_REL)
        w.vk_flags &= ~(unsigned)VK_SEMVIS;
    if (mo == MO_RELAXED || mo == MO_NONE)
        w.semsc = 0;
    become(out, n, T_WEAKEN_ORDER, &w);
}

/* acq_rel -> acq | rel; acq, rel -> relaxed (or for a barrier, no
 * semantics: drop-barrier-semantics covers that, so nothing here). */
static void vk_order_steps(struct weakening *out, int *n, const struct instr *in, enum mo weakest)
{
    if (in->mo == MO_ACQ_REL) {
        vk_with_order(out, n, in, MO_ACQUIRE);
        vk_with_order(out, n, in, MO_RELEASE);
    } else if ((in->mo == MO_ACQUIRE || in->mo == MO_RELEASE) && weakest != MO_NONE) {
        vk_with_order(out, n, in, weakest);
    }
}

/* Dropping one of several storage classes, semav, semvis. */
static void vk_semantics_steps(struct weakening *out, int *n, const struct instr *in)
{
    int classes = 0;
    for (int k = 0; k < 4; k++)
        classes += (in->semsc >> k) & 1u;
    for (int k = 0; classes > 1 && k < 4; k++)
        if (in->semsc & (1u << k)) {
            struct instr w = *in;
            w.semsc &= ~(1u << k);
            become(out, n, T_WEAKEN_ORDER, &w);
        }
    for (unsigned flag = VK_SEMAV; flag <= VK_SEMVIS; flag <<= 1)
        if (in->vk_flags & flag) {
            struct instr w = *in;
            w.vk_flags &= ~flag;
            become(out, n, T_WEAKEN_ORDER, &w);
        }
}

/* A relaxed atomic load or store becomes non-atomic, still available or
 * visible at its scope; ld.vis/st.av -> .nonpriv -> private. */
static void vk_access_steps(struct weakening *out, int *n, const struct instr *in)
{
    unsigned made = in->kind == I_LOAD ? VK_VIS : VK_AV;
    struct instr w = *in;
    if (in->vk_flags & VK_ATOMIC) {
        if (in->mo != MO_RELAXED)
            return;
        w.vk_flags = VK_NONPRIV | made;
        w.mo = MO_WEAK;
    } else if (in->vk_flags & made) {
        w.vk_flags = VK_NONPRIV;
        w.scope = SCOPE_NONE;
    } else if (in->vk_flags & VK_NONPRIV) {
        w.vk_flags = 0;
    } else {
        return;
    }
    become(out, n, T_WEAKEN_ORDER, &w);
}

static int weaken_vulkan(const struct instr *in, struct weakening *out)
{
    int n = 0;
    switch (in->kind) {
    case I_LOAD: case I_STORE:
        vk_order_steps(out, &n, in, MO_RELAXED);
        vk_access_steps(out, &n, in);
        break;
    case I_RMW:
        vk_order_steps(out, &n, in, MO_RELAXED);
        break;
    case I_FENCE:
        vk_order_steps(out, &n, in, MO_NONE);
        drop(out, &n, T_DROP_FENCE, in);
        break;
    case I_BARRIER:
        vk_order_steps(out, &n, in, MO_NONE);
        if (in->mo != MO_NONE) {
            struct instr w = *in;
            w.mo = MO_NONE;
            w.semsc = 0;
            w.vk_flags &= ~(unsigned)(VK_SEMAV | VK_SEMVIS);
            become(out, &n, T_DROP_BARRIER_SEMANTICS, &w);
        }
        break;
    case I_AVDEVICE: case I_VISDEVICE:
        drop(out, &n, T_DROP_FENCE, in);
        break;
    default:
        break;
    }
    vk_semantics_steps(out, &n, in);
    if (narrower(in->scope) != SCOPE_NONE) {
        struct instr w = *in;
        w.scope = narrower(in->scope);
        become(out, &n, T_NARROW_SCOPE, &w);
    }
    return n;
}

/* The next narrower OpenCL scope (all devices, device, work-group,
 * work-item), SCOPE_NONE when there is none. */
static enum scope cl_narrower(enum scope s)
{
    switch (s) {
    case SCOPE_ALL: return SCOPE_DV;
    case SCOPE_DV: return SCOPE_WG;
    case SCOPE_WG: return SCOPE_WI;
    default: return SCOPE_NONE;
    }
}

/* seq_cst -> acq_rel (an RMW or fence) or the access's one side; acq_rel
 * -> acquire | release; acquire, release -> relaxed (a fence: dropping it
 * is drop-fence).  A relaxed access stays atomic: OpenCL C accesses an
 * atomic_int through the atomic functions only. */
static void cl_order_steps(struct weakening *out, int *n, const struct instr *in)
{
    if (in->mo == MO_SC)
        with_order(out, n, in, in->kind == I_LOAD ? MO_ACQUIRE : in->kind == I_STORE ? MO_RELEASE : MO_ACQ_REL);
    else if (in->mo == MO_ACQ_REL) {
        with_order(out, n, in, MO_ACQUIRE);
        with_order(out, n, in, MO_RELEASE);
    } else if ((in->mo == MO_ACQUIRE || in->mo == MO_RELEASE) && in->kind != I_FENCE)
        with_order(out, n, in, MO_RELAXED);
}

static int weaken_opencl(const struct instr *in, struct weakening *out)
{
    int n = 0;
    if (in->kind == I_LOAD || in->kind == I_STORE || in->kind == I_RMW || in->kind == I_FENCE)
        cl_order_steps(out, &n, in);
    if (in->kind == I_FENCE)
        drop(out, &n, T_DROP_FENCE, in);
    if ((in->kind == I_FENCE || in->kind == I_BARRIER) && (in->cl_flags & CL_GLOBAL) && (in->cl_flags & CL_LOCAL))
        for (unsigned flag = CL_GLOBAL; flag <= CL_LOCAL; flag <<= 1) {   /* one of two spaces */
            struct instr w = *in;
            w.cl_flags &= ~flag;
            become(out, &n, T_WEAKEN_ORDER, &w);
        }
    if (in->mo != MO_WEAK && in->kind != I_BARRIER && cl_narrower(in->scope) != SCOPE_NONE) {
        struct instr w = *in;
        w.scope = cl_narrower(in->scope);
        become(out, &n, T_NARROW_SCOPE, &w);
    }
    return n;
}

int weaken_instr(enum dialect d, const struct instr *in, struct weakening *out)
{
    return d == DIALECT_PTX ? weaken_ptx(in, out) : d == DIALECT_OPENCL ? weaken_opencl(in, out)
                                                  : weaken_vulkan(in, out);
}
