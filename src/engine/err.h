/* Error reporting: an int code plus a fixed-size message (docs/style.md,
 * "Errors"). */
#ifndef MP_ERR_H
#define MP_ERR_H

#include <stddef.h>

/* The small code set; the detail lives in the message. All are negative. */
enum mp_err_code {
  MP_OK = 0,
  MP_EINVAL = -1,     /* bad input: argv, files, program, wire data */
  MP_ENOENT = -2,     /* something named does not exist */
  MP_EIO = -3,        /* the OS or a library failed */
  MP_EPROTO = -4,     /* a peer broke the protocol */
  MP_EPLUGIN = -5,    /* a provider or plugin reported a failure */
  MP_ESTATE = -6,     /* the state store is inconsistent or refuses */
  MP_ECANCELED = -7,  /* the operation was cancelled */
  MP_EBUSY = -8,      /* a lock is held by someone else */
  MP_EFATAL = -9      /* the object may only be destroyed now */
};

typedef struct mp_err {
  int code;
  char msg[512];
} mp_err;

/* Clears |err| (code 0, empty message). |err| may be NULL. */
void mp_err_clear(mp_err *err);

/* Sets |err| to |code| and the printf-style message; returns |code| so that
 * callers can write `return mp_err_set(...)`. |err| may be NULL. */
int mp_err_set(mp_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prepends "<prefix>: " to the message of |err| and returns its code. */
int mp_err_prefix(mp_err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Sets |err| from a libuv error code |uvrc| with context; returns MP_EIO. */
int mp_err_from_uv(mp_err *err, int uvrc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prints file:line and the message to stderr and aborts. Only for states
 * where continuing could corrupt data on disk (docs/style.md,
 * "Errors"). */
#define MP_BUG(...) mp__bug(__FILE__, __LINE__, __VA_ARGS__)
void mp__bug(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));

#endif
