/* Templates from git repositories, as Pulumi's `new <url>` fetches them
 * (sdk/go/common/workspace/templates.go RetrieveGitFolder and
 * sdk/go/common/util/gitutil): the URL names the repository and, after
 * it, `tree/<branch, tag or commit>/<folder>` or a folder of the default
 * branch. Fetched with the `git` command. */
#ifndef MP_CLI_TEMPLATE_GIT_H
#define MP_CLI_TEMPLATE_GIT_H

#include "engine/err.h"

/* 1 if |s| is a template URL as Pulumi's IsTemplateURL reads one:
 * https://, ssh://, or scp-like user@host:path. */
int mp_tpl_git_is_url(const char *s);
/* Clones the repository of |rawurl| into the empty folder |into| and sets
 * *folder (owned) to the template folder the URL names inside it.
 * Returns 0, or MP_EINVAL (a URL that names no repository) or MP_EIO (git
 * failed: the message quotes git's last line) with |err|. */
int mp_tpl_git_retrieve(const char *rawurl, const char *into, char **folder,
                        mp_err *err);
/* Removes the folder |path| and all it holds (the clone, afterwards). */
void mp_tpl_remove_tree(const char *path);

#endif
