#include "cli/logging.h"

#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/messages.h"

/* glog's file name: <tmp>/minipulumi.<host>.<user>.log.INFO.<date>-<time>.<pid>
 */
static char *log_file_name(void) {
  const char *tmp = getenv("TMPDIR");
  char host[64] = "unknownhost";
  gethostname(host, sizeof(host) - 1);
  host[sizeof(host) - 1] = 0;
  const struct passwd *pw = getpwuid(getuid());
  time_t now = time(NULL);
  struct tm tm;
  localtime_r(&now, &tm);
  return mp_xasprintf(
      "%s/minipulumi.%s.%s.log.INFO.%04d%02d%02d-%02d%02d%02d.%d",
      tmp && *tmp ? tmp : "/tmp", host, pw ? pw->pw_name : "unknownuser",
      tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
      tm.tm_sec, (int)getpid());
}

int mp_cli_log_setup(mp_ctx *ctx, const char *cmd) {
  mp_log *l = &ctx->log;
  if (ctx->verbose < 0) {
    char n[16];
    snprintf(n, sizeof(n), "%d", ctx->verbose);
    return mp_args_bad(ctx, cmd,
                       "invalid argument \"%s\" for \"-v, --verbose\": a "
                       "level of 0 or more was expected",
                       n);
  }
  if (ctx->tracing) {
    if (strncmp(ctx->tracing, "file:", 5) != 0 || !ctx->tracing[5])
      return mp_args_bad(
          ctx, cmd,
          "unsupported --tracing endpoint '%s': only file:PATH (a "
          "local trace file) is supported; Zipkin and AppDash "
          "collectors are not",
          ctx->tracing);
    l->tracing = 1;
  }
  if (ctx->otel_traces)
    return mp_args_bad(ctx, cmd,
                       "unsupported --otel-traces '%s': minipulumi writes no "
                       "OpenTelemetry traces; use --tracing file:PATH (a "
                       "trace of the operation's spans, Zipkin v2 JSON)",
                       ctx->otel_traces);
  l->verbose = ctx->verbose;
  l->flow = ctx->logflow;
  l->to_stderr = ctx->logtostderr;
  if (l->verbose > 0 && ctx->logtostderr) {
    /* a file opened by the flags before the command's name is dropped */
    if (ctx->log_path && l->out) {
      fclose(l->out);
      unlink(ctx->log_path);
    }
    l->out = ctx->err;
  } else if (l->verbose > 0 && !ctx->log_path) {
    ctx->log_path = log_file_name();
    l->out = fopen(ctx->log_path, "a");
    if (!l->out) {
      fprintf(ctx->err, "warning: cannot open the log file %s: %s\n",
              ctx->log_path, strerror(errno));
    }
  }
  return MP_ARGS_OK;
}

int mp_cli_log_finish(mp_ctx *ctx) {
  int status = 0;
  if (ctx->log.tracing) {
    /* "file:///abs" and "file:rel" both name a path */
    const char *path = ctx->tracing + 5;
    if (!strncmp(path, "//", 2))
      path += 2;
    mp_err err;
    mp_err_clear(&err);
    if (mp_log_write_trace(&ctx->log, path, &err) != 0)
      status = mp_cli_error(ctx, MP_EXIT_CONFIG, "%s", err.msg);
  }
  if (ctx->log_path && ctx->log.out && ctx->log.out != ctx->err)
    fclose(ctx->log.out);
  free(ctx->log_path);
  ctx->log_path = NULL;
  mp_log_destroy(&ctx->log);
  return status;
}
