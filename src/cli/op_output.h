/* The output flags of up, preview, refresh and destroy, as one shared
 * group of option rows (op_output.c): what the run shows (-d/--debug,
 * --show-config, --show-full-output, --suppress-permalink), and what it
 * leaves behind: the secrets provider of a stack it creates
 * (--secrets-provider: up, preview) and preview's --import-file. */
#ifndef MP_CLI_OP_OUTPUT_H
#define MP_CLI_OP_OUTPUT_H

#include "cli/args.h"
#include "cli/ctx.h"

typedef struct mp_op_output {
  int debug;              /* show the debug-level diagnostics */
  int show_config;        /* print the stack's configuration first */
  int show_full_output;   /* accepted: minipulumi never truncates outputs */
  int suppress_permalink; /* accepted: there is no Pulumi Cloud permalink */
  const char *secrets_provider;
  const char *import_file; /* preview: write the planned creates there */
} mp_op_output;

typedef struct mp_op_output_opts {
  mp_opt rows[6];
} mp_op_output_opts;

/* Fills |t| with rows writing into |m|. */
void mp_op_output_opts_init(mp_op_output_opts *t, mp_op_output *m);

/* The row for --secrets-provider (up and preview). */
#define MP_OP_SECRETS_PROVIDER_ROW(m)                                       \
  MP_OPT_STR_(0, "secrets-provider", &(m)->secrets_provider, "name",        \
              "the secrets provider of a stack this creates: passphrase")

/* The row for --import-file (preview). */
#define MP_OP_IMPORT_FILE_ROW(m)                                            \
  MP_OPT_STR_(0, "import-file", &(m)->import_file, "file",                  \
              "Save any creates seen during the preview into an import "    \
              "file to use with `minipulumi import`")

/* Checks the flags (an unknown secrets provider is refused, naming the
 * ones there are). Returns an exit status. */
int mp_op_output_check(mp_ctx *ctx, const mp_op_output *m);

/* --show-config: prints the configuration of |stack|, secrets as
 * [secret]. */
void mp_op_output_show_config(mp_ctx *ctx, const char *stack);

#endif
