/* Quoting for a POSIX shell, as `pulumi stack output --shell` writes its
 * lines (go-shellquote's Join): safe text as is, special characters
 * escaped with a backslash, and a word with blanks in single quotes. */
#ifndef MP_CLI_SHELL_QUOTE_H
#define MP_CLI_SHELL_QUOTE_H

#include "engine/mem.h"

/* Appends |word|, quoted, to |b|. */
void mp_shell_quote(mp_buf *b, const char *word);

#endif
