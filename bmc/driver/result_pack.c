/* A check result packed for the pipe from a worker: the bytes of the
 * result's fields as they are, but for its long texts, which go as a
 * 16-bit length and the bytes before their first NUL (a result is mostly
 * the unused bytes of its reasons). */
#include "bmc/driver/result_pack.h"

#include <stdint.h>
#include <string.h>

/* A text field of a structure: where it starts and its bytes. */
struct text_field {
    size_t at, size;
};

#define TEXT_FIELD(type, member) { offsetof(type, member), sizeof(((type *)0)->member) }

/* The long texts of a result's head (what comes before its progress
 * results) and of a progress result, in increasing order. */
static const struct text_field head_texts[] = { TEXT_FIELD(struct check_result, reason) };
static const struct text_field progress_texts[] = {
    TEXT_FIELD(struct progress_result, brief),
    TEXT_FIELD(struct progress_result, reason),
};

#define HEAD_BYTES offsetof(struct check_result, progress)
#define COUNT(a) (sizeof(a) / sizeof(a)[0])

/* Appends the size bytes at src, with its n texts cut at their ends, to
 * dst at *out. */
static void put_fields(const unsigned char *src, size_t size, const struct text_field *texts, size_t n,
                       unsigned char *dst, size_t *out)
{
    size_t at = 0;
    for (size_t k = 0; k < n; k++) {
        memcpy(dst + *out, src + at, texts[k].at - at);
        *out += texts[k].at - at;
        uint16_t len = (uint16_t)strnlen((const char *)src + texts[k].at, texts[k].size);
        memcpy(dst + *out, &len, sizeof len);
        memcpy(dst + *out + sizeof len, src + texts[k].at, len);
        *out += sizeof len + len;
        at = texts[k].at + texts[k].size;
    }
    memcpy(dst + *out, src + at, size - at);
    *out += size - at;
}

/* Reads put_fields' bytes for a structure of size bytes with n texts from
 * the len bytes at src, at *in, into dst (each text then ends with its
 * NUL: the bytes after it are not written); false when they run short or
 * a text is longer than its field. */
static bool get_fields(const unsigned char *src, size_t len, size_t *in, const struct text_field *texts,
                       size_t n, unsigned char *dst, size_t size)
{
    size_t at = 0;
    for (size_t k = 0; k < n; k++) {
        size_t raw = texts[k].at - at;
        uint16_t text_len;
        if (len - *in < raw + sizeof text_len)
            return false;
        memcpy(dst + at, src + *in, raw);
        memcpy(&text_len, src + *in + raw, sizeof text_len);
        *in += raw + sizeof text_len;
        if (text_len > texts[k].size || len - *in < text_len)
            return false;
        memcpy(dst + texts[k].at, src + *in, text_len);
        if (text_len < texts[k].size)
            dst[texts[k].at + text_len] = '\0';
        *in += text_len;
        at = texts[k].at + texts[k].size;
    }
    if (len - *in < size - at)
        return false;
    memcpy(dst + at, src + *in, size - at);
    *in += size - at;
    return true;
}

size_t result_pack(const struct check_result *r, int nprogress, unsigned char *dst)
{
    size_t out = 0;
    put_fields((const unsigned char *)r, HEAD_BYTES, head_texts, COUNT(head_texts), dst, &out);
    for (int i = 0; i < nprogress; i++)
        put_fields((const unsigned char *)&r->progress[i], sizeof r->progress[i], progress_texts,
                   COUNT(progress_texts), dst, &out);
    return out;
}

bool result_unpack(const unsigned char *src, size_t len, int nprogress, struct check_result *r)
{
    size_t in = 0;
    if (nprogress < 0 || nprogress > CHECK_PROGRESS_MODELS
        || !get_fields(src, len, &in, head_texts, COUNT(head_texts), (unsigned char *)r, HEAD_BYTES))
        return false;
    for (int i = 0; i < nprogress; i++)
        if (!get_fields(src, len, &in, progress_texts, COUNT(progress_texts), (unsigned char *)&r->progress[i],
                        sizeof r->progress[i]))
            return false;
    return in == len;
}
