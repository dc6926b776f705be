/* Git template URLs (template_git.h): the URL split into the repository
 * and the path after it as gitutil.ParseGitRepoURL does, the path read as
 * gitutil.GetGitReferenceNameOrHashAndSubDirectory does, and the
 * repository cloned by the `git` command (Pulumi uses go-git; the
 * command is what this machine has, and it honours the user's git
 * configuration, such as credential helpers and url.insteadOf). */

#include "cli/template_git.h"

#include <errno.h>
#include <ftw.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/mem.h"

extern char **environ;

int mp_tpl_git_is_url(const char *s) {
  if (!strncmp(s, "https://", 8) || !strncmp(s, "ssh://", 6))
    return 1;
  if (strstr(s, "://"))
    return 0;
  /* scp-like user@host:path, which git reads as ssh */
  const char *at = strchr(s, '@'), *colon = strchr(s, ':');
  const char *slash = strchr(s, '/');
  return at && colon && at < colon && (!slash || colon < slash);
}

static int rm_entry(const char *path, const struct stat *st, int flag,
                    struct FTW *ftw) {
  (void)st;
  (void)ftw;
  if (flag == FTW_DP)
    rmdir(path);
  else
    unlink(path);
  return 0;
}

void mp_tpl_remove_tree(const char *path) {
  nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Runs git with |args| (NULL-ended, without "git"); its stdout into |out|
 * (may be NULL: discarded) and its reason for failing into |last|.
 * Returns git's exit status, or -1 when it cannot start. */
static int run_git(const char *const *args, mp_buf *out, char *last,
                   size_t last_size) {
  int po[2], pe[2];
  if (pipe(po) != 0)
    return -1;
  if (pipe(pe) != 0) {
    close(po[0]);
    close(po[1]);
    return -1;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, po[1], 1);
  posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
  posix_spawn_file_actions_addclose(&fa, po[0]);
  posix_spawn_file_actions_addclose(&fa, pe[0]);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", 0, 0);
  mp_strv argv;
  mp_strv_init(&argv);
  mp_strv_push(&argv, "git");
  for (size_t i = 0; args[i]; i++)
    mp_strv_push(&argv, args[i]);
  mp_strv_push_take(&argv, NULL);
  /* no prompt for a password: there may be no terminal to answer it */
  setenv("GIT_TERMINAL_PROMPT", "0", 0);
  pid_t pid;
  int rc = posix_spawnp(&pid, "git", &fa, NULL, argv.items, environ);
  posix_spawn_file_actions_destroy(&fa);
  mp_strv_destroy(&argv);
  close(po[1]);
  close(pe[1]);
  char chunk[4096];
  ssize_t got;
  while (rc == 0 && (got = read(po[0], chunk, sizeof(chunk))) != 0) {
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      break;
    if (out)
      mp_buf_append(out, chunk, (size_t)got);
  }
  mp_buf err;
  mp_buf_init(&err);
  while (rc == 0 && (got = read(pe[0], chunk, sizeof(chunk))) != 0) {
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      break;
    mp_buf_append(&err, chunk, (size_t)got);
  }
  close(po[0]);
  close(pe[0]);
  char *text = mp_buf_detach(&err, NULL);
  size_t n = strlen(text);
  while (n && (text[n - 1] == '\n' || text[n - 1] == '\r'))
    text[--n] = 0;
  /* git's own reason is its first "fatal:" line; else its last line */
  const char *fatal = strstr(text, "fatal: ");
  const char *line = strrchr(text, '\n');
  if (fatal)
    snprintf(last, last_size, "%.*s", (int)strcspn(fatal + 7, "\n"), fatal + 7);
  else
    snprintf(last, last_size, "%s", line ? line + 1 : text);
  free(text);
  if (rc != 0) {
    snprintf(last, last_size, "cannot run git: %s", strerror(rc));
    return -1;
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The repository URL and the path after it, as ParseGitRepoURL: the URL
 * up to the last `.git` in its path, else its first two path parts (with
 * `.git` added). */
static int split_url(const char *rawurl, char **repo, char **rest,
                     mp_err *err) {
  char *url;
  if (strncmp(rawurl, "https://", 8) && strncmp(rawurl, "ssh://", 6)) {
    const char *colon = strchr(rawurl, ':');
    url = mp_xasprintf("ssh://%.*s/%s", (int)(colon - rawurl), rawurl,
                       colon[1] == '/' ? colon + 2 : colon + 1);
  } else {
    url = mp_xstrdup(rawurl);
  }
  char *q = strpbrk(url, "?#");
  if (q)
    *q = 0;
  char *host = strstr(url, "://") + 3;
  char *path = strchr(host, '/');
  if (path == NULL || path[1] == 0 || strchr(path + 1, '/') == NULL) {
    free(url);
    return mp_err_set(err, MP_EINVAL, "invalid Git URL: %s", rawurl);
  }
  *path++ = 0; /* url is now scheme://host */
  char *dotgit = NULL;
  for (char *p = strstr(path, ".git"); p; p = strstr(p + 1, ".git"))
    dotgit = p;
  if (dotgit) {
    *repo = mp_xasprintf("%s/%.*s", url, (int)(dotgit + 4 - path), path);
    const char *r = dotgit + 4;
    while (*r == '/')
      r++;
    *rest = mp_xstrdup(r);
  } else {
    char *slash = strchr(path, '/');
    char *after = strchr(slash + 1, '/');
    if (slash == path || slash[1] == 0 || after == slash + 1) {
      free(url);
      return mp_err_set(err, MP_EINVAL, "invalid Git URL: %s", rawurl);
    }
    *repo = mp_xasprintf("%s/%.*s.git", url,
                         (int)((after ? after : slash + strlen(slash)) - path),
                         path);
    *rest = mp_xstrdup(after ? after + 1 : "");
  }
  size_t n = strlen(*rest);
  while (n && (*rest)[n - 1] == '/')
    (*rest)[--n] = 0;
  free(url);
  return 0;
}

static int is_sha(const char *s, size_t n) {
  if (n != 40)
    return 0;
  for (size_t i = 0; i < n; i++)
    if (!strchr("0123456789abcdefABCDEF", s[i]))
      return 0;
  return 1;
}

static int by_length_desc(const void *a, const void *b) {
  size_t la = strlen(*(char *const *)a), lb = strlen(*(char *const *)b);
  return la < lb ? 1 : la > lb ? -1 : 0;
}

/* The repository's branches and tags (short names), longest first, as
 * GitListBranchesAndTags. */
static int list_refs(const char *repo, mp_strv *names, mp_err *err) {
  const char *args[] = {"ls-remote", "--heads", "--tags", repo, NULL};
  mp_buf out;
  mp_buf_init(&out);
  char last[512];
  int st = run_git(args, &out, last, sizeof(last));
  char *text = mp_buf_detach(&out, NULL);
  if (st != 0) {
    free(text);
    return mp_err_set(err, MP_EIO, "failed to get git ref: %s", last);
  }
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    char *ref = strchr(line, '\t');
    if (!ref)
      continue;
    ref++;
    size_t n = strlen(ref);
    if (n > 3 && strcmp(ref + n - 3, "^{}") == 0)
      continue; /* peeled */
    if (!strncmp(ref, "refs/heads/", 11))
      mp_strv_push(names, ref + 11);
    else if (!strncmp(ref, "refs/tags/", 10))
      mp_strv_push(names, ref + 10);
  }
  free(text);
  qsort(names->items, names->len, sizeof(char *), by_length_desc);
  return 0;
}

/* The ref (NULL: the default branch), or the commit, and the folder
 * named by |rest|, as GetGitReferenceNameOrHashAndSubDirectory. */
static int read_rest(const char *repo, const char *rest, char **ref,
                     char **commit, char **folder, mp_err *err) {
  *ref = *commit = NULL;
  for (const char *p = rest; *p;) {
    size_t n = strcspn(p, "/");
    if ((n == 1 && p[0] == '.') || (n == 2 && !strncmp(p, "..", 2)))
      return mp_err_set(err, MP_EINVAL,
                        "failed to get git ref: invalid Git URL");
    p += n + (p[n] == '/');
  }
  if (strncmp(rest, "tree/", 5) && strcmp(rest, "tree")) {
    *folder = mp_xstrdup(rest);
    return 0;
  }
  const char *after = rest[4] ? rest + 5 : "";
  size_t first = strcspn(after, "/");
  if (first && is_sha(after, first)) {
    *commit = mp_xstrndup(after, first);
    *folder = mp_xstrdup(after[first] ? after + first + 1 : "");
    return 0;
  }
  mp_strv names;
  mp_strv_init(&names);
  int rc = *after ? list_refs(repo, &names, err) : 0;
  char *path = mp_xasprintf("%s/", after);
  for (size_t i = 0; rc == 0 && *after && i < names.len && !*ref; i++) {
    size_t n = strlen(names.items[i]);
    if (!strncmp(path, names.items[i], n) && path[n] == '/') {
      *ref = mp_xstrdup(names.items[i]);
      char *f = mp_xstrdup(path + n + 1);
      size_t m = strlen(f);
      if (m && f[m - 1] == '/')
        f[m - 1] = 0;
      *folder = f;
    }
  }
  free(path);
  mp_strv_destroy(&names);
  if (rc == 0 && !*ref)
    rc = mp_err_set(err, MP_EINVAL,
                    "failed to get git ref: invalid Git URL (no branch or "
                    "tag of %s starts '%s')",
                    repo, after);
  return rc;
}

static int git_clone(const char *repo, const char *ref, const char *commit,
                     const char *into, char *last, size_t last_size) {
  if (commit) {
    const char *c[] = {"clone", "--quiet", "--no-checkout", repo, into, NULL};
    int st = run_git(c, NULL, last, last_size);
    if (st != 0)
      return st;
    const char *co[] = {"-C", into, "checkout", "--quiet", commit, NULL};
    return run_git(co, NULL, last, last_size);
  }
  const char *c[] = {
      "clone",     "--quiet",  "--depth", "1",  "--single-branch",
      "--no-tags", "--branch", ref,       repo, into,
      NULL};
  return run_git(c, NULL, last, last_size);
}

int mp_tpl_git_retrieve(const char *rawurl, const char *into, char **folder,
                        mp_err *err) {
  *folder = NULL;
  char *repo = NULL, *rest = NULL, *ref = NULL, *commit = NULL, *sub = NULL;
  int rc = split_url(rawurl, &repo, &rest, err);
  if (rc == 0)
    rc = read_rest(repo, rest, &ref, &commit, &sub, err);
  if (rc == 0) {
    /* the default branch: master, then main, as Pulumi tries them */
    const char *tries[] = {ref ? ref : "master", ref ? NULL : "main"};
    char last[512] = "", errs[1200] = "";
    int st = -1;
    for (size_t i = 0; i < 2 && tries[i] && st != 0; i++) {
      st = git_clone(repo, tries[i], commit, into, last, sizeof(last));
      if (st != 0) {
        size_t used = strlen(errs);
        snprintf(errs + used, sizeof(errs) - used, "%sref '%s': %s",
                 used ? "; " : "", commit ? commit : tries[i], last);
      }
      if (commit)
        break;
    }
    if (st != 0)
      rc = mp_err_set(err, MP_EIO,
                      "failed to retrieve git folder: failed to clone %s: %s",
                      rawurl, errs);
  }
  if (rc == 0) {
    char *full = *sub ? mp_xasprintf("%s/%s", into, sub) : mp_xstrdup(into);
    struct stat st;
    if (stat(full, &st) != 0)
      rc = mp_err_set(err, MP_EIO, "failed to retrieve git folder: %s: %s", sub,
                      strerror(errno));
    else if (!S_ISDIR(st.st_mode))
      rc = mp_err_set(err, MP_EIO,
                      "failed to retrieve git folder: %s is not a directory",
                      sub);
    if (rc == 0)
      *folder = full;
    else
      free(full);
  }
  free(repo);
  free(rest);
  free(ref);
  free(commit);
  free(sub);
  return rc;
}
