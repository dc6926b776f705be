#include "cli/update_info.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "cli/cli.h"
#include "cli/config_file.h"
#include "cli/json_out.h"
#include "engine/mem.h"
#include "engine/text.h"

/* The .git folder of the work tree holding |dir| (a `gitdir:` file is
 * followed), or NULL. Owned. */
static char *find_git_dir(const char *dir) {
  char *at = mp_xstrdup(dir);
  for (;;) {
    char *git = mp_xasprintf("%s/.git", at);
    struct stat st;
    if (stat(git, &st) == 0) {
      free(at);
      if (S_ISDIR(st.st_mode))
        return git;
      char *line = mp_text_file_first_line(git);
      free(git);
      char *out = line && !strncmp(line, "gitdir: ", 8)
                      ? mp_xstrdup(line + 8) : NULL;
      free(line);
      return out;
    }
    free(git);
    char *slash = strrchr(at, '/');
    if (!slash || slash == at) {
      free(at);
      return NULL;
    }
    *slash = '\0';
  }
}

/* The hash |ref| ("refs/heads/main") names: its loose file or its line in
 * packed-refs. Owned, or NULL. */
static char *resolve_ref(const char *git, const char *ref) {
  char *path = mp_xasprintf("%s/%s", git, ref);
  char *hash = mp_text_file_first_line(path);
  free(path);
  if (hash)
    return hash;
  path = mp_xasprintf("%s/packed-refs", git);
  FILE *f = fopen(path, "r");
  free(path);
  if (!f)
    return NULL;
  char buf[1024];
  size_t rl = strlen(ref);
  while (!hash && fgets(buf, sizeof(buf), f)) {
    buf[strcspn(buf, "\r\n")] = '\0';
    char *sp = strchr(buf, ' ');
    if (sp && strlen(sp + 1) == rl && !strcmp(sp + 1, ref)) {
      *sp = '\0';
      hash = mp_xstrdup(buf);
    }
  }
  fclose(f);
  return hash;
}

/* git.head and git.headName, as Pulumi's addGitCommitMetadata sets them
 * (no headName on a detached HEAD). */
static void add_git(cJSON *env, const char *dir) {
  char *git = find_git_dir(dir);
  char *path = git ? mp_xasprintf("%s/HEAD", git) : NULL;
  char *head = path ? mp_text_file_first_line(path) : NULL;
  if (head && !strncmp(head, "ref: ", 5)) {
    char *hash = resolve_ref(git, head + 5);
    if (hash) {
      cJSON_AddStringToObject(env, "git.head", hash);
      cJSON_AddStringToObject(env, "git.headName", head + 5);
    }
    free(hash);
  } else if (head && *head) {
    cJSON_AddStringToObject(env, "git.head", head);
  }
  free(head);
  free(path);
  free(git);
}

/* Go's GOOS and GOARCH names for this machine. */
static void add_platform(cJSON *env) {
  struct utsname u;
  if (uname(&u) != 0)
    return;
  char os[sizeof(u.sysname)];
  size_t i = 0;
  for (; u.sysname[i] && i + 1 < sizeof(os); i++)
    os[i] = (char)(u.sysname[i] >= 'A' && u.sysname[i] <= 'Z'
                       ? u.sysname[i] + 32 : u.sysname[i]);
  os[i] = '\0';
  const char *arch = !strcmp(u.machine, "x86_64")    ? "amd64"
                     : !strcmp(u.machine, "aarch64") ? "arm64"
                     : !strcmp(u.machine, "i686")    ? "386"
                                                     : u.machine;
  cJSON_AddStringToObject(env, "pulumi.os", os);
  cJSON_AddStringToObject(env, "pulumi.arch", arch);
}

char *mp_cli_update_environment(const mp_ctx *ctx, const char *exec_kind,
                                const char *exec_agent) {
  cJSON *env = cJSON_CreateObject();
  char v[96];
  mp_cli_version_text(v, sizeof(v));
  char *version = mp_xasprintf("v%s", v);
  cJSON_AddStringToObject(env, "pulumi.version", version);
  free(version);
  add_platform(env);
  if (ctx->project && ctx->project->dir)
    add_git(env, ctx->project->dir);
  /* a hidden flag: Pulumi keeps only the kinds it knows */
  int known = exec_kind && (!strcmp(exec_kind, "auto.local") ||
                            !strcmp(exec_kind, "auto.inline") ||
                            !strcmp(exec_kind, "cli"));
  cJSON_AddStringToObject(env, "exec.kind", known ? exec_kind : "cli");
  if (exec_agent && *exec_agent)
    cJSON_AddStringToObject(env, "exec.agent", exec_agent);
  cJSON_AddStringToObject(env, "updatePlan", "false");
  char *text = cJSON_PrintUnformatted(env);
  char *out = mp_xstrdup(text);
  cJSON_free(text);
  cJSON_Delete(env);
  return out;
}

char *mp_cli_update_config(const char *path) {
  mp_stack_config c;
  mp_err err;
  if (mp_stack_config_load(path, &c, &err) != 0)
    return NULL;
  cJSON *j = mp_cli_value_cjson(mp_stack_config_values(&c), 0);
  char *text = cJSON_PrintUnformatted(j);
  char *out = mp_xstrdup(text);
  cJSON_free(text);
  cJSON_Delete(j);
  mp_stack_config_destroy(&c);
  return out;
}
