/* Output files that never replace what is there. */
#include "util/newfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void newfile_temp_path(const char *path, char *buf, size_t len)
{
    static unsigned long n;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    bool ext = dot && dot > base;
    snprintf(buf, len, "%.*s.%.*s.gpubmc-%ld-%lu%s", (int)(base - path), path,
             ext ? (int)(dot - base) : (int)strlen(base), base, (long)getpid(), n++, ext ? dot : "");
}

/* True when the regular files a and b (not links) hold the same bytes. */
static bool same_bytes(const char *a, const char *b)
{
    struct stat sa, sb;
    if (lstat(a, &sa) != 0 || lstat(b, &sb) != 0 || !S_ISREG(sa.st_mode) || !S_ISREG(sb.st_mode)
        || sa.st_size != sb.st_size)
        return false;
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    bool same = fa && fb;
    char x[8192], y[8192];
    size_t na;
    while (same && (na = fread(x, 1, sizeof x, fa)) > 0)
        same = fread(y, 1, na, fb) == na && memcmp(x, y, na) == 0;
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

bool newfile_publish(const char *tmp, const char *path, char *err, size_t errlen)
{
    bool ok = link(tmp, path) == 0;   /* fails where anything is, a link included */
    int e = errno;
    struct stat st;
    if (!ok && (e == EPERM || e == ENOTSUP || e == ENOSYS) && lstat(path, &st) != 0 && errno == ENOENT) {
        ok = rename(tmp, path) == 0;   /* a file system without hard links */
        e = errno;
    }
    if (!ok && e == EEXIST) {
        ok = same_bytes(tmp, path);
        if (!ok && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
            snprintf(err, errlen, "%s is a symbolic link: not written through", path);
        else if (!ok)
            snprintf(err, errlen, "%s exists and differs: not replaced (gpubmc writes only files that "
                     "are not there)", path);
    } else if (!ok) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
    }
    unlink(tmp);
    return ok;
}

bool newfile_write(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    char tmp[4200];
    newfile_temp_path(path, tmp, sizeof tmp);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    bool ok = fd >= 0;
    for (size_t done = 0; ok && done < len;) {
        ssize_t k = write(fd, text + done, len - done);
        if (k < 0 && errno == EINTR)
            continue;
        ok = k > 0;
        done += k > 0 ? (size_t)k : 0;
    }
    int e = errno;
    if (fd >= 0 && close(fd) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (!ok) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(e ? e : EIO));
        if (fd >= 0)
            unlink(tmp);
        return false;
    }
    return newfile_publish(tmp, path, err, errlen);
}
