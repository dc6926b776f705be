#ifndef MP_CLI_SANITIZED_H
#define MP_CLI_SANITIZED_H

/* MP_SANITIZED is 1 in an AddressSanitizer or ThreadSanitizer build (GCC
 * says so with __SANITIZE_*__, clang with __has_feature), else 0. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define MP_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define MP_SANITIZED 1
#endif
#endif
#ifndef MP_SANITIZED
#define MP_SANITIZED 0
#endif

#endif
