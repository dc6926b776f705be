/* minipulumi gen-completion bash|zsh|fish: a completion script for the
 * shell, as `pulumi gen-completion` prints one. It is generated from the
 * command tree (command_walk.h: main.c's table and each command's own
 * flag table), so it names exactly the commands and flags there are. */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/command_table.h"
#include "cli/command_walk.h"
#include "cli/messages.h"

static const mp_cmd_help help = {
    "minipulumi gen-completion <shell> [flags]",
    "Generate completion scripts for the minipulumi CLI: bash, zsh or "
    "fish.\n\n    $ source <(minipulumi gen-completion bash)"};

static void words(FILE *out, const mp_cmd_node *n) {
  for (size_t i = 0; i < n->subs.len; i++) fprintf(out, " %s", n->subs.items[i]);
  for (size_t i = 0; i < n->flags.len; i++)
    fprintf(out, " %s", n->flags.items[i]);
}

/* bash (and zsh through bashcompinit): the words typed so far, flags left
 * out, choose the deepest command they name; its subcommands and flags
 * are offered. */
static void bash(FILE *out, const mp_cmd_tree *t, const mp_cmd_node *root) {
  fprintf(out,
          "# minipulumi completion for bash: source <(minipulumi "
          "gen-completion bash)\n"
          "_minipulumi() {\n"
          "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" path=\"\" w i\n"
          "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
          "    w=\"${COMP_WORDS[i]}\"\n"
          "    case \"$w\" in -*) ;; *) path=\"${path:+$path }$w\" ;; esac\n"
          "  done\n"
          "  local opts\n"
          "  case \"$path \" in\n");
  /* the deepest paths first, so that `stack ls` wins over `stack` */
  for (int depth = 4; depth >= 1; depth--)
    for (size_t i = 0; i < t->len; i++) {
      const mp_cmd_node *n = &t->nodes[i];
      int d = 1;
      for (const char *c = n->path; *c; c++) d += *c == ' ';
      if (d != depth) continue;
      fprintf(out, "    \"%s \"*) opts=\"", n->path);
      words(out, n);
      fprintf(out, "\" ;;\n");
    }
  fprintf(out, "    *) opts=\"");
  words(out, root);
  fprintf(out,
          "\" ;;\n"
          "  esac\n"
          "  COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
          "}\n"
          "complete -o default -F _minipulumi minipulumi\n");
}

static void fish(FILE *out, const mp_cmd_tree *t, const mp_cmd_node *root) {
  fprintf(out, "# minipulumi completion for fish: minipulumi gen-completion "
               "fish | source\ncomplete -c minipulumi -f\n");
  for (size_t i = 0; i < root->subs.len; i++)
    fprintf(out,
            "complete -c minipulumi -n __fish_use_subcommand -a %s\n",
            root->subs.items[i]);
  for (size_t i = 0; i < t->len; i++) {
    const mp_cmd_node *n = &t->nodes[i];
    /* every word of the command's path has been typed */
    mp_buf cb;
    mp_buf_init(&cb);
    char *copy = mp_xstrdup(n->path), *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
      mp_buf_printf(&cb, "%s__fish_seen_subcommand_from %s",
                    cb.len ? "; and " : "", w);
    free(copy);
    const char *cond = cb.data;
    for (size_t s = 0; s < n->subs.len; s++)
      fprintf(out, "complete -c minipulumi -n '%s' -a %s\n", cond,
              n->subs.items[s]);
    for (size_t f = 0; f < n->flags.len; f++) {
      const char *flag = n->flags.items[f];
      fprintf(out, "complete -c minipulumi -n '%s' -%s %s\n", cond,
              flag[1] == '-' ? "l" : "s", flag + (flag[1] == '-' ? 2 : 1));
    }
    mp_buf_destroy(&cb);
  }
}

int mp_cmd_gen_completion(int argc, const char **argv, mp_ctx *ctx) {
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 1, 1, &pos);
  if (rc) return mp_args_exit_status(rc);
  const char *shell = pos.items[0];
  int status = 0;
  if (strcmp(shell, "bash") && strcmp(shell, "zsh") && strcmp(shell, "fish")) {
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "unsupported shell '%s'; expected bash, zsh or fish",
                          shell);
  } else {
    mp_cmd_tree t;
    mp_cli_command_tree(ctx, &t);
    /* the top level: every command of the table and the global flags */
    mp_cmd_node root;
    mp_strv_init(&root.subs);
    mp_strv_init(&root.flags);
    for (size_t i = 0; i < ctx->ncommands; i++)
      mp_strv_push(&root.subs, ctx->commands[i].name);
    if (!strcmp(shell, "fish")) {
      fish(ctx->out, &t, &root);
    } else {
      if (!strcmp(shell, "zsh"))
        fprintf(ctx->out, "#compdef minipulumi\n# minipulumi completion for "
                          "zsh, through bash's completion\nautoload -U +X "
                          "bashcompinit && bashcompinit\n");
      bash(ctx->out, &t, &root);
    }
    mp_strv_destroy(&root.subs);
    mp_strv_destroy(&root.flags);
    mp_cli_command_tree_destroy(&t);
  }
  mp_strv_destroy(&pos);
  return status;
}
