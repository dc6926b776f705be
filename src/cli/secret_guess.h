/* Whether a value about to be stored in plain text by `config set` looks
 * like a secret: Pulumi's heuristic (pkg/cmd/pulumi/config/config.go,
 * looksLikeSecret), which `config set` obeys unless --secret or
 * --plaintext is given. */
#ifndef MP_CLI_SECRET_GUESS_H
#define MP_CLI_SECRET_GUESS_H

/* 1 when the key's name (|key| without its "namespace:") names a password,
 * secret or token, and the value's first 16 characters have a zxcvbn
 * entropy of at least 80 bits, or at least 40 bits at 3 bits or more a
 * character. */
int mp_cli_looks_like_secret(const char *key, const char *value);

#endif
