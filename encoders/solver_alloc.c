/* operator new and delete (by their mangled names) for the C++ code
 * gpubmc links, CaDiCaL, with each freed block of up to 1 KiB kept for
 * the next request of its size class; and toupper, which its constructor
 * calls per character of its options' names.
 *
 * A batch makes and releases a solver per SAT check: hundreds of
 * thousands of clauses, watch lists and vectors, each a `new`, freed in
 * bursts by the solver's destructor; here the next solver takes them back
 * as they were, with no lock to test and no header to read (under
 * util/fast_malloc.c, which keeps freed blocks by class too, sending them
 * straight to malloc and free measured 2% more instructions; glibc's
 * allocator, where fast_malloc is off, keeps only seven freed blocks per
 * size and sorts the rest into bins).  The kept blocks stay this
 * process's (at most what the largest solver had at once), which suits
 * workers that check one file after another.  The sanitizer builds keep
 * the library's own functions, which their run-time checks watch. */
#include <stddef.h>
#include <stdlib.h>

#include "util/xalloc.h"

#if defined(__SANITIZE_ADDRESS__) || !defined(__GLIBC__)
#define OWN_CXX_ALLOCATION 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OWN_CXX_ALLOCATION 0
#endif
#endif
#ifndef OWN_CXX_ALLOCATION
#define OWN_CXX_ALLOCATION 1
#endif

#if OWN_CXX_ALLOCATION
#include <malloc.h>

/* A block of class k asks for 16 k - 8 bytes, all of a glibc chunk of
 * 16 k bytes but its 8-byte head; malloc_usable_size gives 16 k - 8 or
 * more there, and 16 k under util/fast_malloc.c (its classes are 16-byte
 * steps): either way (usable + 8) / 16 is k or a class the block fully
 * holds, so its class is known from the block alone. */
enum {
    CLASS_BYTES = 16,
    CHUNK_HEAD = 8,
    CLASSES = 64   /* blocks of up to 1016 bytes are kept */
};

struct kept_block { struct kept_block *next; };

/* The freed blocks of each class, the last freed first. */
static struct kept_block *kept[CLASSES + 1];

/* The class of a request of n bytes. */
static size_t class_of(size_t n)
{
    size_t k = (n + CHUNK_HEAD + CLASS_BYTES - 1) / CLASS_BYTES;
    return k < 2 ? 2 : k;   /* glibc's smallest chunk */
}

/* A block for n bytes: a kept one of its class, or a new one. */
static void *take(size_t n)
{
    size_t k = class_of(n);
    if (k > CLASSES)
        return xrealloc(NULL, n);
    struct kept_block *b = kept[k];
    if (!b)
        return xrealloc(NULL, k * CLASS_BYTES - CHUNK_HEAD);
    kept[k] = b->next;
    return b;
}

/* Gives back the block at p of class k (NULL: nothing): kept by its
 * class, or freed when larger. */
static void give_as(void *p, size_t k)
{
    if (!p)
        return;
    if (k > CLASSES) {
        free(p);
        return;
    }
    struct kept_block *b = p;
    b->next = kept[k];
    kept[k] = b;
}

/* Gives back the block at p (NULL: nothing) by the class of its chunk (a
 * chunk glibc did not split may be a class larger than asked; it holds
 * that class's bytes). */
static void give(void *p)
{
    if (p)
        give_as(p, (malloc_usable_size(p) + CHUNK_HEAD) / CLASS_BYTES);
}

/* The declarations the definitions below need (C++ names: new, new[],
 * delete, delete[], and the sized deletes). */
void *_Znwm(size_t n);
void *_Znam(size_t n);
void _ZdlPv(void *p);
void _ZdaPv(void *p);
void _ZdlPvm(void *p, size_t n);
void _ZdaPvm(void *p, size_t n);

void *_Znwm(size_t n) { return take(n); }
void *_Znam(size_t n) { return take(n); }
void _ZdlPv(void *p) { give(p); }
void _ZdaPv(void *p) { give(p); }
/* A sized delete names the size its new asked for: its class, with no
 * look at the chunk. */
void _ZdlPvm(void *p, size_t n) { give_as(p, class_of(n)); }
void _ZdaPvm(void *p, size_t n) { give_as(p, class_of(n)); }

#endif

/* toupper for the C library's "C" locale, the only one gpubmc runs in (it
 * never calls setlocale): only 'a' to 'z' change.  CaDiCaL's constructor
 * upper-cases each of its 164 option names a character at a time to look
 * it up in the environment (about 1,700 calls per solver); glibc's toupper
 * is a call through the PLT that fetches the locale's table each time,
 * this one a few instructions that the static link binds directly. */
int toupper(int ch);
int toupper(int ch) { return ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch; }
