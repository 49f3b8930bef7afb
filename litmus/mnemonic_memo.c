/* Decoded mnemonics remembered by dialect and text, in a fixed table. */
#include "litmus/mnemonic_memo.h"

#include <stdint.h>
#include <string.h>

/* The longest mnemonic remembered (the corpus's are under 40 bytes). */
#define MEMO_TEXT_MAX 48

/* Slots of the table (a power of two); it takes at most a quarter of
 * them, so that a probe mostly finds its text, or an empty slot, first. */
#define MEMO_SLOTS 1024

/* A text as its length and two words: its first and last eight bytes
 * (overlapping when it is shorter than 16; four and four under 8; the
 * bytes one by one under 4), which are the whole text up to 16 bytes. */
struct memo_key {
    uint64_t head, tail;
    size_t len;
};

struct memo_entry {
    struct memo_key key;
    bool used;
    unsigned char dialect;
    char text[MEMO_TEXT_MAX];
    const char *sig;
    struct instr decoded;    /* pos and text unset */
};

static struct memo_entry memo[MEMO_SLOTS];
static int memo_count;

/* The key of the len bytes at text, read within them. */
static struct memo_key key_of(const char *text, size_t len)
{
    struct memo_key k = { 0, 0, len };
    if (len >= 8) {
        memcpy(&k.head, text, 8);
        memcpy(&k.tail, text + len - 8, 8);
    } else if (len >= 4) {
        uint32_t head, tail;
        memcpy(&head, text, 4);
        memcpy(&tail, text + len - 4, 4);
        k.head = head;
        k.tail = tail;
    } else {
        for (size_t i = 0; i < len; i++)
            k.head |= (uint64_t)(unsigned char)text[i] << 8 * i;
    }
    return k;
}

/* The slot a key's probe starts at in dialect d. */
static size_t memo_slot(enum dialect d, struct memo_key k)
{
    uint64_t h = (k.head ^ (k.tail * 0xff51afd7ed558ccdu) ^ (k.len << 2 | (uint64_t)d)) * 0x9e3779b97f4a7c15u;
    return (size_t)(h >> 54) & (MEMO_SLOTS - 1);
}

/* True when entry e holds the text (of key k) in dialect d. */
static bool memo_holds(const struct memo_entry *e, enum dialect d, struct memo_key k, const char *text)
{
    return e->key.head == k.head && e->key.tail == k.tail && e->key.len == k.len && e->dialect == d
        && (k.len <= 16 || memcmp(e->text + 8, text + 8, k.len - 16) == 0);
}

/* The decoding remembered for (d, text), copied out; false when none is. */
bool mnemonic_memo_find(enum dialect d, const char *text, size_t len, struct instr *in, const char **sig)
{
    struct memo_key k = key_of(text, len);
    for (size_t i = memo_slot(d, k); memo[i].used; i = (i + 1) & (MEMO_SLOTS - 1)) {
        const struct memo_entry *e = &memo[i];
        if (memo_holds(e, d, k, text)) {
            struct srcpos pos = in->pos;
            *in = e->decoded;
            in->pos = pos;
            *sig = e->sig;
            return true;
        }
    }
    return false;
}

/* Remembers the decoding of (d, text) unless the text is too long or the
 * table is full. */
void mnemonic_memo_add(enum dialect d, const char *text, size_t len, const struct instr *in, const char *sig)
{
    if (len > MEMO_TEXT_MAX || memo_count >= MEMO_SLOTS / 4)
        return;
    struct memo_key k = key_of(text, len);
    size_t i = memo_slot(d, k);
    while (memo[i].used)
        i = (i + 1) & (MEMO_SLOTS - 1);
    struct memo_entry *e = &memo[i];
    e->key = k;
    e->used = true;
    e->dialect = (unsigned char)d;
    memcpy(e->text, text, len);
    e->sig = sig;
    e->decoded = *in;
    e->decoded.pos = (struct srcpos){ 0, 0 };
    e->decoded.text = NULL;
    memo_count++;
}
