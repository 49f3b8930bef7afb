/* The SPIR-V translation's shared state: types and their memory layout,
 * memory objects (per grid, per workgroup, per thread), per-thread values
 * of ids, and the code being emitted into one litmus thread. */
#ifndef GPUBMC_LITMUS_SPIRV_TRANS_H
#define GPUBMC_LITMUS_SPIRV_TRANS_H

#include "litmus/spirv_impl.h"

enum ty_kind { TY_NONE, TY_VOID, TY_BOOL, TY_INT, TY_FLOAT, TY_VECTOR, TY_ARRAY, TY_RUNTIME_ARRAY,
               TY_STRUCT, TY_POINTER, TY_FUNCTION, TY_OTHER };

/* Storage classes as the translation groups them. */
enum sc_group { SCG_SHARED, SCG_WORKGROUP, SCG_PRIVATE, SCG_READONLY };

struct ty {
    enum ty_kind k;
    int width;              /* TY_INT, TY_FLOAT bits */
    bool is_signed;         /* TY_INT signedness */
    int elem;               /* TY_VECTOR/ARRAY/RUNTIME_ARRAY element, TY_POINTER pointee */
    int64_t count;          /* TY_VECTOR/ARRAY elements */
    int nmem;               /* TY_STRUCT members */
    int *mem;
    int64_t *moff;          /* member offsets (Offset decorations, else packed) */
    int64_t stride;         /* ArrayStride decoration (arrays, pointers), 0 when none */
    int sclass;             /* TY_POINTER: the StorageClass enumerant value */
    bool host_sized;        /* TY_ARRAY: the host chooses the length (clspv's
                               ArgumentWorkgroup): a variable of this type has
                               as many elements as its accesses reach */
};

struct val;

/* A scalar slot of a memory object, at a byte offset. */
struct leaf {
    int64_t off;
    int size;               /* bytes */
    int loc;                /* SCG_SHARED/WORKGROUP: location index */
    int reg;                /* SCG_PRIVATE: register of the owning thread */
    int64_t value;          /* SCG_READONLY: the value */
    bool undef;             /* SCG_READONLY: no initial value (reading it is refused) */
    struct val *ptr;        /* SCG_PRIVATE pointer element: the pointer stored, NULL */
};

struct obj {
    int var;                /* the OpVariable's id */
    enum sc_group grp;
    int sc;                 /* Vulkan storage class tag 0..3 (shared groups) */
    int thread, wg;         /* owner (-1 when shared by all / every workgroup) */
    int type;               /* pointee type */
    int nleaf;
    struct leaf *leaf;
    int64_t nelem;          /* host-sized array objects: elements laid out */
    int64_t extent;         /* bytes laid out (leaves sorted by offset within) */
};

/* What one translation learnt about a variable (or kernel argument), for
 * the next one: the byte offsets of its object where an access of another
 * size begins or ends (its leaves are cut there, and the padding these
 * offsets touch gets leaves of its own: spirv_mixed.c), and whether its
 * pointer elements hold null or one pointer (spirv_opencl.c). */
struct cut_set {
    int64_t *at;            /* sorted, distinct */
    int n, cap;
    bool null_or_one;       /* its pointer elements hold null or one pointer (spirv_opencl.c) */
};

struct cnd;

/* What an arbitrary value stands for: an OpUndef (part: its element) or a
 * read-only variable's element without a value (part: its byte offset),
 * of invocation tid, or of the whole grid (tid -1). */
struct any_key {
    int id, tid;
    int64_t part;
};

enum vkind { V_NONE, V_CONST, V_REG, V_COND, V_PTR, V_COMP, V_LABEL, V_FUNC, V_TYPE };

/* The value of an id in one thread. */
struct val {
    enum vkind k;
    int type;
    int64_t c;              /* V_CONST */
    int reg;                /* V_REG; V_PTR: register added to the offset (-1 none) */
    int64_t scale;          /* V_PTR: factor of reg */
    struct cnd *cond;       /* V_COND */
    int obj;                /* V_PTR */
    int64_t off;            /* V_PTR: byte offset */
    bool maybe_null;        /* V_PTR: held by a Function variable that holds it or null */
    int nz;                 /* V_PTR, maybe_null: the register that is 1 for the pointer, 0 for null */
    int n;                  /* V_COMP */
    struct val *el;
};

enum cnd_kind { C_CMP, C_NOT, C_AND, C_OR };

/* A boolean that has not been made a register: a comparison tree. */
struct cnd {
    enum cnd_kind k;
    enum cmpop cmp;
    bool is_unsigned;
    struct val a, b;        /* C_CMP: scalars (V_CONST or V_REG) */
    struct cnd *l, *r;
};

/* One call frame of the inlined function being translated. */
struct frame {
    struct val *vals;       /* per id; V_NONE until defined in this frame */
    int ret_label;          /* label OpReturn jumps to */
    int ret_reg;            /* register of OpReturnValue, -1 */
    struct val ret;         /* a non-register return value (pointer) */
    bool has_ret;
    int depth;
    char *block_state;      /* per block id: enum block_state */
};

/* How far the translation of one call has got with a block: blocks no
 * path of the invocation reaches (a branch on a constant skips them) are
 * not translated. */
enum block_state { BLOCK_UNSEEN, BLOCK_REACHED, BLOCK_DONE, BLOCK_SKIPPED };

struct trans {
    const struct spv_module *m;
    struct litmus_error *err;
    struct litmus *lit;
    int grid[3];            /* threads per subgroup, subgroups per workgroup, workgroups */
    int nthreads;
    struct ty *ty;          /* per id */
    int *builtin;           /* per id: BuiltIn enumerant value, -1 */
    int64_t *stride_dec;    /* per id: ArrayStride, 0 */
    int nobj, cap_obj;
    struct obj *obj;
    int *shared_obj;        /* per id: object of a shared variable (-1) */
    int cap_locs;
    bool *loc_wide;         /* per location: it holds a 64-bit integer */
    int cap_wide;
    /* arena of allocations freed at the end */
    void **arena;
    int narena, cap_arena;
    /* the thread being emitted */
    int tid;
    struct thread *th;
    int cap_instrs, cap_regs, cap_labels;
    struct val *globals;    /* per id: module-level values of this thread */
    int *private_obj;       /* per id: this thread's object for a private variable */
    int *wg_obj;            /* per id x workgroup: object of a workgroup variable */
    int64_t *host_len;      /* per type id: the length of a host-sized array (0: not yet chosen) */
    int *block_label;       /* per id, the current frame's labels (reset per call) */
    int barrier_count;
    int scratch;            /* the thread's register for the pieces of mixed-size accesses, -1 */
    int first_function;     /* instruction index of the first OpFunction */
    bool opencl;            /* an OpenCL module (Physical32/64 OpenCL): spirv_opencl.c */
    int ptr_bytes;          /* the size of a pointer in memory */
    struct any_key *any_keys;   /* per arbitrary value of lit (I_ANY): what it is */
    int cap_any_keys;
    struct cut_set *cuts;   /* per id: what translations learnt about it (kept across translations) */
    bool new_cut;           /* this translation added a cut: the module is translated again */
    bool new_null_or_one;   /* or found a variable that holds null or one pointer */
    struct srcpos cut_pos;  /* the access that added the last one */
};

/* ---- spirv_types.c ---- */

/* Reads types, decorations, and their layout; false with err on a refusal. */
bool tr_types(struct trans *t);

/* Size in bytes of type id (a runtime array counts n elements). */
int64_t tr_size(const struct trans *t, int type, int64_t runtime_n);

/* True when type id is a 32-bit integer or a bool. */
bool tr_is_scalar(const struct trans *t, int type);

/* True when type id is an integer wider than 32 bits (kept as a 32-bit value). */
bool tr_is_wide_int(const struct trans *t, int type);

/* Calls f(t, ctx, off, type) for every scalar leaf of type at offset off;
 * runtime arrays have runtime_n elements; false stops (err filled). */
bool tr_leaves(struct trans *t, int type, int64_t off, int64_t runtime_n,
               bool (*f)(struct trans *, void *, int64_t, int), void *ctx, struct srcpos pos);

/* Allocates size bytes that live until the translation ends. */
void *tr_alloc(struct trans *t, size_t size);

/* Creates the memory object of variable var for the current thread
 * (shared ones once); its index, or -1 with err filled. */
int tr_object(struct trans *t, const struct spv_inst *var);

/* Grows object o, a variable of a host-sized array type, to the element
 * holding byte offset off; false (err untouched) when o is not one or off
 * lies before it. */
bool tr_grow(struct trans *t, int o, int64_t off);

/* The leaf of object o at byte offset off of size bytes, or NULL. */
const struct leaf *tr_leaf_at(const struct trans *t, int o, int64_t off, int size);

/* Appends a leaf of size bytes at off to object o holding value v (a
 * location, a register or a constant, by the object's group); its index. */
int tr_new_slot(struct trans *t, int o, int64_t off, int size, int64_t v);

/* ---- spirv_mixed.c ---- */

/* The leaves of object o that cover bytes [off, off + size) one after
 * another: the first's index in *first and their number, 0 when none do. */
int tr_cover(const struct trans *t, int o, int64_t off, int size, int *first);

/* Records that an access of size bytes at off of object o matches no run
 * of its leaves: cuts there for the next translation.  False when it adds
 * none (the access lies outside the object, or the cuts are there). */
bool tr_note_cut(struct trans *t, int o, int64_t off, int size, struct srcpos pos);

/* Lays out a leaf of size bytes at off with value v for object o, cut
 * where mixed-size accesses cut it; false with err at pos on a piece
 * wider than 32 bits of a 64-bit leaf. */
bool tr_cut_leaf(struct trans *t, int o, int64_t off, int size, int64_t v, struct srcpos pos);

/* Sorts object o's leaves by offset and gives the padding that cuts
 * touch leaves of its own (value 0). */
void tr_finish_layout(struct trans *t, int o);

/* The builtin value of id for the current thread when id has a BuiltIn
 * decoration (*has); false with err on an unsupported one. */
bool tr_builtin(struct trans *t, int id, int type, struct val *out, bool *has);

/* The name of id (without its %). */
const char *tr_name(const struct trans *t, int id);

/* ---- spirv_emit.c ---- */

/* A new register of the current thread. */
int em_reg(struct trans *t);

/* A new label of the current thread. */
int em_label(struct trans *t);

/* Appends an instruction of kind at pos for the source instruction in
 * (NULL: none); returns it, zeroed but for kind/pos/text/dst/loc/label. */
struct instr *em(struct trans *t, enum instr_kind kind, const struct spv_inst *in);

/* Places label l here. */
void em_place(struct trans *t, int l, const struct spv_inst *in);

/* Jumps to l. */
void em_goto(struct trans *t, int l, const struct spv_inst *in);

/* dst = op(a, b) for scalar values. */
void em_local(struct trans *t, int dst, enum binop op, struct val a, struct val b, const struct spv_inst *in);

/* dst = v for a scalar value. */
void em_move(struct trans *t, int dst, struct val v, const struct spv_inst *in);

/* A loop that counts up for ever, here (a verdict reaching it is UNKNOWN). */
void em_diverge(struct trans *t, const struct spv_inst *in);

/* Diverts the path when r = a op b (OP_ADD or OP_SUB) overflowed signed 32 bits. */
void em_check_wide(struct trans *t, enum binop op, struct val a, struct val b, int r, const struct spv_inst *in);

/* Diverts the path when a lies outside [lo, hi]. */
void em_check_range(struct trans *t, struct val a, int64_t lo, int64_t hi, const struct spv_inst *in);

/* Renumbers the current thread's labels in the order of first mention. */
void em_renumber(struct trans *t);

/* An operand from a scalar value (V_CONST or V_REG). */
struct operand em_operand(struct val v);

/* Jumps to lt when c holds, else to lf. */
void em_jump(struct trans *t, const struct cnd *c, int lt, int lf, const struct spv_inst *in);

/* A scalar value (V_CONST or V_REG) for v: a condition becomes a 0/1 register. */
struct val em_scalar(struct trans *t, struct val v, const struct spv_inst *in);

/* A constant scalar value (stored sign-extended from 32 bits). */
struct val v_const(int64_t c, int type);

/* A scalar value held in register reg. */
struct val v_reg(int reg, int type);

/* True when types a and b have the same shape (kind, width, elements,
 * members), whatever their ids. */
bool tr_same_type(const struct trans *t, int a, int b);

/* ---- spirv_mem.c ---- */

/* OpAccessChain and its variants, OpBitcast of pointers: the pointer in *out. */
bool tr_access_chain(struct trans *t, struct frame *fr, const struct spv_inst *in, struct val *out);

/* OpLoad and OpStore (out: the loaded value). */
bool tr_load_store(struct trans *t, struct frame *fr, const struct spv_inst *in, struct val *out);

/* The atomics (out: the value read). */
bool tr_atomic(struct trans *t, struct frame *fr, const struct spv_inst *in, struct val *out);

/* OpControlBarrier and OpMemoryBarrier. */
bool tr_barrier(struct trans *t, struct frame *fr, const struct spv_inst *in);

/* ---- spirv_code.c ---- */

/* The value of operand a in frame fr (or the module's); false with err when
 * it has none yet. */
bool tr_get(struct trans *t, struct frame *fr, const struct spv_arg *a, struct val *out);


/* Emits the code of the entry point for thread t->tid; false with err. */
bool tr_thread_code(struct trans *t, int entry_fn);

/* Creates the object behind pointer kernel argument param, of the array
 * type id type in group g; its index, or -1 with err filled. */
int tr_param_object(struct trans *t, const struct spv_inst *param, int type, enum sc_group g);

/* ---- spirv_opencl.c ---- */

/* Dat3M's OpenCL scope tag of a SPIR-V Scope value; false with err. */
bool tr_cl_scope(struct trans *t, int64_t v, struct srcpos pos, enum scope *s);

/* Decodes MemorySemantics for OpenCL: the order and the fence flags
 * (enum cl_tag); false with err on bits Dat3M does not map. */
bool tr_cl_semantics(struct trans *t, int64_t v, struct srcpos pos, enum mo *mo, unsigned *flags);

/* Checks the memory operands of a plain access in an OpenCL module. */
bool tr_cl_memory_operands(struct trans *t, const struct spv_inst *in, int at);

/* Dat3M's conditions on OpAtomicCompareExchange's Equal and Unequal
 * semantics under OpenCL; false with err at pos. */
bool tr_cl_cas_semantics(struct trans *t, struct srcpos pos, enum mo eq, unsigned eq_flags, enum mo neq,
                         unsigned neq_flags);

/* Makes an emitted access, fence or barrier an OpenCL one: order, scope,
 * fence flags and nothing of Vulkan's. */
void tr_cl_retag(struct instr *x, unsigned flags);

/* Emits an OpControlBarrier (cbar) or OpMemoryBarrier of an OpenCL module. */
bool tr_cl_barrier(struct trans *t, const struct spv_inst *in, bool cbar, enum scope exec, enum scope scope,
                   enum mo mo, unsigned flags);

/* The group and Vulkan tag of an OpenCL storage class; false with err. */
bool tr_cl_class(struct trans *t, const struct spv_arg *sc, enum sc_group *g, int *vk_sc);

/* The alignment of type id in an OpenCL module, as Dat3M lays it out:
 * a scalar's size, a 3-element vector's 4 elements, an array's element's,
 * a struct's largest member's. */
int64_t tr_cl_align(const struct trans *t, int type);

/* n rounded up to a multiple of align. */
int64_t tr_cl_round(int64_t n, int64_t align);

/* Sets *out to the zero value of type (OpConstantNull); false with err. */
bool tr_null_value(struct trans *t, int type, struct val *out, struct srcpos pos);

/* The OpenCL space tags (enum cl_tag) of object o's locations. */
unsigned tr_cl_space(const struct obj *o);

/* The values of the entry point's parameters (OpenCL kernel arguments):
 * pointers to objects made from their @Input, scalars their @Input value. */
bool tr_cl_entry_args(struct trans *t, int fn, struct val **args, int *nargs);

/* The object a pointer kernel argument id points to, or -1. */
int tr_cl_param_object(const struct trans *t, int id);

/* The private object of Function or Private variable var for the current
 * thread (made on first use); the pointers its elements hold are
 * forgotten each time the variable is reached.  -1 with err filled. */
int tr_private_object(struct trans *t, const struct spv_inst *var);

/* A pointer read from or written to a pointer element of a private
 * object (at byte off); false with err when it is not known for sure. */
bool tr_pointer_slot(struct trans *t, int o, int64_t off, bool load, struct val *v, const struct spv_inst *in);

/* The instructions only OpenCL modules use (generic pointer casts,
 * OpConvertPtrToU); anything else is refused. */
bool tr_cl_inst(struct trans *t, struct frame *fr, const struct spv_inst *in, struct val *out);

/* OpExtInst of a set other than GLSL.std.450 (set names it): OpenCL.std's
 * s_add_sat and s_sub_sat on 32-bit scalars; anything else is refused. */
bool tr_cl_ext_inst(struct trans *t, struct frame *fr, const struct spv_inst *in, const struct spv_arg *set,
                    struct val *out);

/* ---- spirv_globals.c ---- */

/* The value of a constant or specialization constant instruction (its
 * @Input value, or its builtin's); false with err. */
bool tr_constant(struct trans *t, const struct spv_inst *in, struct val *out);

/* Evaluates the module-level instructions (constants, variables) into
 * t->globals for the current thread; false with err. */
bool tr_globals(struct trans *t);

/* ---- spirv_values.c ---- */

/* r = the minimum or maximum (op OP_SMIN ... OP_UMAX) of scalars x and y,
 * by a comparison and a branch (the litmus dialects have no such operation). */
void em_extremum(struct trans *t, int r, enum binop op, struct val x, struct val y, const struct spv_inst *in);

/* r = c ? a : b for scalars a and b, by a branch. */
void em_select(struct trans *t, int r, const struct cnd *c, struct val a, struct val b, const struct spv_inst *in);

/* The value of OpUndef id (a scalar or a vector of them): arbitrary, one
 * per invocation (I_ANY); false with err for other types. */
bool tr_undef(struct trans *t, int id, struct val *out);

/* When a >= 0, r = a / d and on to the label it returns (for the caller
 * to place); the code emitted next runs when a < 0. */
int em_divide_nonnegative(struct trans *t, int r, struct val a, struct val d, const struct spv_inst *in);

/* r = a / c, unsigned, for a constant c > 0 (signed division when a >= 0). */
void em_udiv_const(struct trans *t, int r, struct val a, int64_t c, const struct spv_inst *in);

/* OpVectorShuffle; a component 0xFFFFFFFF is arbitrary, one per invocation. */
bool tr_vector_shuffle(struct trans *t, struct frame *fr, const struct spv_inst *in, struct val *out);

/* The value of the element at byte off of read-only object o, of scalar
 * type, which has no value: arbitrary, one per invocation for Input
 * memory, else one for the whole grid; false with err for other types. */
bool tr_unset_input(struct trans *t, const struct obj *o, int64_t off, int type, const struct spv_inst *in,
                    struct val *out);

/* The value of scalar kernel argument param, which has no @Input value:
 * arbitrary, one per invocation (as Dat3M gives it); false with err for
 * types wider than 32 bits. */
bool tr_unset_arg(struct trans *t, const struct spv_inst *param, struct val *out);

#endif
