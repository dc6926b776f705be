/* The flags of up, preview, refresh and destroy that Pulumi's Automation
 * API passes (sdk/nodejs/automation/stack.ts): its inline program's
 * language runtime, the kind and agent of the run, and a stack config
 * file of its own. */
#include "cli/operation.h"

#include <string.h>

void mp_op_automation_opts_init(mp_opt *rows, mp_op_flags *f) {
  const mp_opt r[] = {
      MP_OPT_STR_(0, "client", &f->client, "address", "run the program through the language runtime served at this address (127.0.0.1:PORT), as the Automation API does for an inline program"),
      MP_OPT_STR_(0, "exec-kind", &f->exec_kind, "kind", "how the command was started (auto.local, auto.inline, cli)"),
      MP_OPT_STR_(0, "exec-agent", &f->exec_agent, "agent", "the agent that started the command"),
      MP_OPT_STR_(0, "config-file", &f->config_file, "file", "use this file for the stack's configuration instead of Pulumi.<stack>.yaml"),
      MP_OPT_END_};
  memcpy(rows, r, sizeof(r));
}
