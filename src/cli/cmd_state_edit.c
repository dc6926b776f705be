/* minipulumi state edit: the stack's state as deployment JSON in $EDITOR,
 * then Pulumi's loop: the edited state is parsed and checked for
 * integrity, shown, and written only when the user accepts; an invalid
 * edit can be edited again, reset or cancelled, and never reaches the
 * store. Secrets stay as the ciphertext stored (no passphrase needed), as
 * `stack export` writes them; a secret the user writes in plaintext form
 * (`stack export --show-secrets`'s) is encrypted with the stack's
 * secrets manager, as `stack import` and Pulumi's state edit do. */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/secrets.h"
#include "cli/workspace.h"
#include "engine/snapshot.h"
#include "engine/value.h"

extern char **environ;

static const mp_cmd_help help = {
    "minipulumi state edit [flags]",
    "Edit the current stack's state in your EDITOR.\n\n"
    "Opens the state as deployment JSON in the editor named by $EDITOR; on "
    "exit the\nedit is checked (the same integrity check as every update's) "
    "and shown, and\nwritten only when you accept it. Needs a terminal."};

static int read_text(const char *path, mp_buf *out) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  char chunk[8192];
  size_t n;
  mp_buf_reset(out);
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) mp_buf_append(out, chunk, n);
  int bad = ferror(f);
  fclose(f);
  mp_buf_putc(out, '\0');
  out->len--;
  return bad ? -1 : 0;
}

static int write_text(const char *path, const mp_buf *b) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  int bad = fwrite(b->data, 1, b->len, f) != b->len;
  return fclose(f) || bad ? -1 : 0;
}

/* Runs $EDITOR on |path| through the shell, so that an EDITOR with flags
 * ("code --wait") works as with Pulumi. */
static int run_editor(mp_ctx *ctx, const char *editor, const char *path) {
  char *argv[] = {"sh", "-c", "exec $MP_EDITOR \"$0\"", (char *)path, NULL};
  setenv("MP_EDITOR", editor, 1);
  pid_t pid;
  int rc = posix_spawn(&pid, "/bin/sh", NULL, NULL, argv, environ);
  unsetenv("MP_EDITOR");
  if (rc)
    return mp_cli_error(ctx, MP_EXIT_ERROR, "Failed to exec EDITOR: %s",
                        strerror(rc));
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(st) || WEXITSTATUS(st))
    return mp_cli_error(ctx, MP_EXIT_ERROR,
                        "Failed to exec EDITOR: %s exited with status %d; the "
                        "state was not changed",
                        editor, WIFEXITED(st) ? WEXITSTATUS(st) : 128);
  return 0;
}

/* 1 if |a| and |b| are the same deployment text, the manifest's time (the
 * moment of each serialisation) aside. */
static int same_text(const mp_buf *a, const mp_buf *b) {
  static const char key[] = "\"time\": \"";
  const char *ta = a->data ? strstr(a->data, key) : NULL;
  const char *tb = b->data ? strstr(b->data, key) : NULL;
  if (!ta || !tb)
    return a->len == b->len && (a->len == 0 || !memcmp(a->data, b->data, a->len));
  const char *ea = strchr(ta + sizeof(key) - 1, '"');
  const char *eb = strchr(tb + sizeof(key) - 1, '"');
  if (!ea || !eb || ta - a->data != tb - b->data) return 0;
  size_t ra = a->len - (size_t)(ea - a->data), rb = b->len - (size_t)(eb - b->data);
  return !memcmp(a->data, b->data, (size_t)(ta - a->data)) && ra == rb &&
         !memcmp(ea, eb, ra);
}

/* 1 if |j| holds a secret in plaintext form ({sig: secret, plaintext}). */
static int has_plaintext_secret(const cJSON *j) {
  if (cJSON_IsObject(j)) {
    const cJSON *sig = cJSON_GetObjectItemCaseSensitive(j, MP_SIG_KEY);
    if (cJSON_IsString(sig) && !strcmp(sig->valuestring, MP_SIG_SECRET) &&
        cJSON_GetObjectItemCaseSensitive(j, "plaintext"))
      return 1;
  }
  for (const cJSON *k = j ? j->child : NULL; k; k = k->next)
    if (has_plaintext_secret(k))
      return 1;
  return 0;
}

/* The crypters of an edit: |keep| leaves ciphertext as it is; |stack| is
 * the stack's own, asked for (its passphrase) only when an edit holds a
 * plaintext secret to encrypt. */
typedef struct edit_crypters {
  mp_crypter keep;
  mp_crypter stack;
  int have_stack;
} edit_crypters;

/* The crypter the edit |text| needs, in *out. */
static int crypter_for(mp_ctx *ctx, const char *stack, const mp_buf *text,
                       edit_crypters *cs, mp_crypter **out, mp_err *err) {
  *out = &cs->keep;
  cJSON *j = cJSON_ParseWithLength(text->data ? text->data : "", text->len);
  int plain = has_plaintext_secret(j);
  cJSON_Delete(j);
  if (!plain)
    return 0;
  if (!cs->have_stack) {
    mp_passphrase *pp = NULL;
    int rc = mp_cli_secrets(
        ctx, stack, NULL, MP_SECRETS_EXISTING | MP_SECRETS_FOR_STATE, &pp, err);
    if (rc)
      return rc;
    if (pp == NULL)
      return mp_err_set(err, MP_EINVAL,
                        "a secret is given in plaintext form, but the stack "
                        "has no secrets manager to encrypt it; give its "
                        "ciphertext, or set a passphrase first (`minipulumi "
                        "stack change-secrets-provider passphrase`)");
    cs->stack = mp_passphrase_crypter(pp);
    cs->have_stack = 1;
  }
  *out = &cs->stack;
  return 0;
}

/* Parses and checks the edited text with |c|. 0 with *out set; 1 when it
 * equals the original once re-serialised; -1 with |err| set when it is
 * not valid. */
static int parse_edit(const mp_buf *text, const mp_buf *original,
                      mp_crypter *c, mp_snapshot **out, mp_buf *again,
                      mp_err *err) {
  mp_snapshot *s = NULL;
  if (mp_snapshot_import(text->data ? text->data : "", text->len, c, &s, err))
    return -1;
  if (mp_snapshot_verify(s, err)) {
    mp_snapshot_free(s);
    return -1;
  }
  mp_buf_reset(again);
  if (mp_snapshot_export(s, c, MP_VERSION, MP_DEPLOY_JSON_PRETTY, again, err)) {
    mp_snapshot_free(s);
    return -1;
  }
  if (same_text(again, original)) {
    mp_snapshot_free(s);
    return 1;
  }
  *out = s;
  return 0;
}

/* Asks which of |choices| (accept, edit, reset, cancel) to take; edit is
 * the default. Returns the first letter, or 'c' at end of input. */
static char choose(mp_ctx *ctx, const char *question, int can_accept) {
  char *q = mp_xasprintf("%s %s [edit]:", question,
                         can_accept ? "accept, edit, reset or cancel"
                                    : "edit, reset or cancel");
  char answer[32];
  char pick = 'c';
  for (;;) {
    if (mp_cli_prompt(ctx, q, answer, sizeof(answer))) break;
    if (!*answer) answer[0] = 'e', answer[1] = '\0';
    if ((can_accept && !strcmp(answer, "accept")) || !strcmp(answer, "edit") ||
        !strcmp(answer, "reset") || !strcmp(answer, "cancel")) {
      pick = answer[0];
      break;
    }
  }
  free(q);
  return pick;
}

static int edit_loop(mp_ctx *ctx, const char *stack, const char *editor,
                     const char *path, const mp_buf *original,
                     edit_crypters *cs) {
  mp_buf text, again;
  mp_buf_init(&text);
  mp_buf_init(&again);
  int status = 0;
  for (;;) {
    if ((status = run_editor(ctx, editor, path))) break;
    fprintf(ctx->out, "Previewing state edit (%s)\n\n", stack);
    mp_snapshot *news = NULL;
    mp_err err;
    mp_err_clear(&err);
    mp_crypter *c = &cs->keep;
    int parsed = -1;
    if (read_text(path, &text))
      mp_err_set(&err, MP_EIO, "cannot read %s", path);
    else if (crypter_for(ctx, stack, &text, cs, &c, &err) == 0)
      parsed = parse_edit(&text, original, c, &news, &again, &err);
    if (parsed == 1) {
      fprintf(ctx->err, "warning: provided state was not changed\n");
      break;
    }
    char pick;
    if (parsed < 0) {
      fprintf(ctx->err, "error: provided state is not valid: %s\n", err.msg);
      pick = choose(ctx, "Received invalid state. What would you like to do?", 0);
    } else {
      fprintf(ctx->out, "New state:\n%s\n", again.data);
      pick = choose(ctx, "Do you want to perform this edit?", 1);
    }
    if (pick == 'a') {
      if (mp_store_replace(ctx->store, mp_cli_ref(ctx, stack), news, c, &err))
        status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
      mp_snapshot_free(news);
      break;
    }
    mp_snapshot_free(news);
    if (pick == 'r' && write_text(path, original)) {
      status = mp_cli_error(ctx, MP_EXIT_ERROR, "cannot reset %s: %s", path,
                            strerror(errno));
      break;
    }
    if (pick == 'c') {
      status = mp_cli_error(ctx, MP_EXIT_CANCELLED, "state edit cancelled");
      break;
    }
  }
  mp_buf_destroy(&text);
  mp_buf_destroy(&again);
  return status;
}

int mp_cmd_state_edit(int argc, const char **argv, mp_ctx *ctx) {
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 0, &pos);
  mp_strv_destroy(&pos);
  if (rc) return mp_args_exit_status(rc);
  if (!mp_cli_interactive(ctx))
    return mp_cli_error(ctx, MP_EXIT_ERROR,
                        "minipulumi state edit must be run in interactive mode");
  const char *editor = getenv("EDITOR");
  if (!editor || !*editor)
    return mp_cli_error(ctx, MP_EXIT_ERROR,
                        "no EDITOR environment variable set");
  char *stack = NULL;
  int status = mp_cli_stack(ctx, NULL, 1, &stack);
  edit_crypters cs = {.keep = mp_crypter_keep_ciphertext()};
  mp_crypter c = cs.keep;
  mp_snapshot *snap = NULL;
  mp_buf original;
  mp_buf_init(&original);
  mp_err err;
  mp_err_clear(&err);
  if (!status && mp_store_load(ctx->store, mp_cli_ref(ctx, stack), &c, &snap, &err))
    status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  if (!status && mp_snapshot_export(snap, &c, MP_VERSION, MP_DEPLOY_JSON_PRETTY,
                                    &original, &err))
    status = mp_cli_error(ctx, MP_EXIT_ERROR,
                          "initial state unable to be serialized: %s", err.msg);
  const char *tmp = getenv("TMPDIR");
  char *path = mp_xasprintf("%s/pulumi-state-edit-XXXXXX.json",
                            tmp && *tmp ? tmp : "/tmp");
  int fd = status ? -1 : mkstemps(path, 5);
  if (!status && fd < 0)
    status = mp_cli_error(ctx, MP_EXIT_ERROR, "cannot create %s: %s", path,
                          strerror(errno));
  if (fd >= 0) {
    close(fd);
    if (write_text(path, &original))
      status = mp_cli_error(ctx, MP_EXIT_ERROR, "cannot write %s: %s", path,
                            strerror(errno));
    else
      status = edit_loop(ctx, stack, editor, path, &original, &cs);
    unlink(path);
  }
  free(path);
  mp_buf_destroy(&original);
  mp_snapshot_free(snap);
  free(stack);
  return status;
}
