/* Slow-card shim for erabox's fault battery (tests/faults/battery.py): loaded with LD_PRELOAD,
 * it makes every fsync() and fdatasync() take ERABOX_FSYNC_DELAY seconds longer, as a cheap
 * or worn SD card does, then does the real call. Built by the battery with the machine's cc. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>
#include <errno.h>

static void card_delay(void) {
    const char *text = getenv("ERABOX_FSYNC_DELAY");
    double seconds = text ? atof(text) : 0.0;
    if (seconds <= 0.0) return;
    struct timespec left = {(time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9)};
    int saved = errno;
    while (nanosleep(&left, &left) != 0 && errno == EINTR) {}
    errno = saved;
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    card_delay();
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    card_delay();
    return real(fd);
}
