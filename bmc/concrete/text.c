/* Appending strings and writing integers. */
#include "bmc/concrete/text.h"

void text_append(char *buf, size_t len, size_t *used, const char *const *parts, int n)
{
    for (int i = 0; i < n; i++)
        for (const char *c = parts[i]; *c && *used + 1 < len; c++)
            buf[(*used)++] = *c;
    buf[*used] = '\0';
}

const char *text_int(int v, char *digits)
{
    char rev[12];
    int k = 0, at = 0;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    do
        rev[k++] = (char)('0' + u % 10);
    while ((u /= 10) > 0);
    if (v < 0)
        digits[at++] = '-';
    while (k > 0)
        digits[at++] = rev[--k];
    digits[at] = '\0';
    return digits;
}
