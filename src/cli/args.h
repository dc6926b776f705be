/* A small table-driven option parser (git's parse_options, cobra's flag
 * syntax): `--flag value`, `--flag=value`, `-s value`, `-svalue`, bundled
 * short bools (`-yf`), repeatable list flags, `--` to end the flags, and
 * `--help`/`-h` on every command. The global flags (--cwd/-C, --stack/-s,
 * --backend, --non-interactive, --color) are accepted by every command and
 * stored in the mp_ctx. */
#ifndef MP_CLI_ARGS_H
#define MP_CLI_ARGS_H

#include "cli/ctx.h"
#include "engine/mem.h"

typedef enum mp_opt_type {
  MP_OPT_END = 0,
  MP_OPT_BOOL,   /* int *; bare = 1, `--x=true|false` */
  MP_OPT_STRING, /* const char **; the last one wins */
  MP_OPT_INT,    /* int * */
  MP_OPT_LIST,   /* mp_strv *; repeatable, each occurrence appended */
  /* const mp_opt *: a table of rows several commands share, read in this
   * row's place. A row of the command's own with the same long name,
   * earlier in its table, replaces the shared one. */
  MP_OPT_GROUP
} mp_opt_type;

typedef struct mp_opt {
  mp_opt_type type;
  char short_name;       /* 0: none */
  const char *long_name; /* without the dashes */
  void *dest;
  const char *arg_name;  /* value placeholder in the usage ("file") */
  const char *help;
} mp_opt;

#define MP_OPT_BOOL_(s, l, d, h) { MP_OPT_BOOL, s, l, d, NULL, h }
#define MP_OPT_STR_(s, l, d, a, h) { MP_OPT_STRING, s, l, d, a, h }
#define MP_OPT_INT_(s, l, d, a, h) { MP_OPT_INT, s, l, d, a, h }
#define MP_OPT_LIST_(s, l, d, a, h) { MP_OPT_LIST, s, l, d, a, h }
#define MP_OPT_GROUP_(t) { MP_OPT_GROUP, 0, NULL, (void *)(t), NULL, NULL }
#define MP_OPT_END_ { MP_OPT_END, 0, NULL, NULL, NULL, NULL }

/* What a command says about itself in --help. */
typedef struct mp_cmd_help {
  const char *usage;   /* "minipulumi up [flags]" */
  const char *summary; /* one paragraph */
} mp_cmd_help;

enum mp_args_result {
  MP_ARGS_OK = 0,
  MP_ARGS_HELP = 1, /* usage printed to ctx->out: exit 0 */
  MP_ARGS_ERROR = 2 /* message printed to ctx->err: exit 2 */
};

/* Parses argv[1..argc-1] (argv[0] is the command's name) against |opts|
 * (terminated by MP_OPT_END_) and the global flags; non-flag arguments are
 * appended to |pos| (copies). Prints the usage on --help, and a message on
 * an unknown flag, a missing or malformed value. Returns mp_args_result. */
int mp_args_parse(mp_ctx *ctx, const mp_cmd_help *help, const mp_opt *opts,
                  int argc, const char **argv, mp_strv *pos);

/* Parses the global flags that come before the command's name:
 * argv[1..]. Sets *cmd_index to the index of the first non-flag argument
 * (argc if none). Returns mp_args_result (MP_ARGS_HELP for a bare --help). */
int mp_args_parse_global(mp_ctx *ctx, int argc, const char **argv,
                         int *cmd_index);

/* The index in argv[1..] of the first argument that is neither a flag nor
 * a global flag's value (a group's subcommand), or argc. */
int mp_args_first_positional(mp_ctx *ctx, int argc, const char **argv);

/* The exit status for a non-OK mp_args_result: MP_EXIT_HELP_SHOWN after
 * --help (non-zero, so that the command goes no further; main exits 0),
 * else MP_EXIT_CONFIG. */
int mp_args_exit_status(int rc);

/* Prints "error: " and |fmt| with |a|, then where to find the usage of
 * |cmd| ("" before any command); returns MP_ARGS_ERROR. */
int mp_args_bad(mp_ctx *ctx, const char *cmd, const char *fmt,
                const char *a);

/* Checks the count of positional arguments; prints a cobra-like message and
 * returns MP_ARGS_ERROR when outside [min, max] (max < 0: unbounded). */
int mp_args_check_count(mp_ctx *ctx, const char *cmd, const mp_strv *pos,
                        int min, int max);

/* mp_args_parse, then mp_args_check_count under the command's own name
 * (argv[0]). Returns MP_ARGS_OK to go on (the caller destroys |pos|), or
 * the mp_args_result to end with (mp_args_exit_status), |pos| destroyed. */
int mp_args_parse_n(mp_ctx *ctx, const mp_cmd_help *help, const mp_opt *opts,
                    int argc, const char **argv, int min, int max,
                    mp_strv *pos);

/* Prints the usage of a command (used by --help and by group commands). */
void mp_args_print_usage(mp_ctx *ctx, const mp_cmd_help *help,
                         const mp_opt *opts);

#endif
