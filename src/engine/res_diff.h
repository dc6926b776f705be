/* A resource's diff as the engine reads a provider's Diff answer (Pulumi's
 * diffResource): the provider's verdict, or, where it has none, the
 * engine's own comparison of the inputs. The step generator diffs a
 * registration with it; the step executor diffs what a refresh read. */
#ifndef MP_RES_DIFF_H
#define MP_RES_DIFF_H

#include "engine/provider.h"
#include "engine/resource.h"

typedef struct mp_res_diff {
  int changed;  /* update or replace */
  int replace;
  int dbr;      /* the provider asks for delete-before-replace */
  mp_strv keys; /* replace keys */
  mp_strv diffs;
  mp_diff detailed;
  int has_detailed;
} mp_res_diff;

void mp_res_diff_init(mp_res_diff *d);
void mp_res_diff_destroy(mp_res_diff *d);

/* 1 if Diff answer |r| gives no opinion (changes unknown, nothing to
 * replace): the engine then compares the inputs itself. */
int mp_res_diff_no_opinion(const mp_prov_resp *r);
/* Adds the provider's answer |r| to |d|. */
void mp_res_diff_from_answer(const mp_prov_resp *r, mp_res_diff *d);
/* The engine's comparison of |olds| with |news|, added to |d| as input
 * diffs. */
void mp_res_diff_compare(const mp_value *olds, const mp_value *news,
                         mp_res_diff *d);
/* Turns |d| around (Pulumi's DiffResult.Invert): an add becomes a delete
 * and back, so that a diff framed from the program to the world reads
 * from the world to the program. */
void mp_res_diff_invert(mp_res_diff *d);

/* replaceOnChanges |roc|: a changed key covered by a listed path
 * replaces; with |init_errors| the old state's init errors count as the
 * change "#initerror". */
void mp_res_diff_replace_on_changes(const mp_strv *roc, int init_errors,
                                    mp_res_diff *d);
/* The error a replacement of a resource that still names an import id
 * gets (Pulumi: "previously-imported resources that still specify an ID
 * may not be replaced"), with a line `key: {old} => {new}` per replace key
 * of |d| (values from |olds| and |news|). Owned. */
char *mp_res_diff_import_replace_msg(const mp_res_diff *d,
                                     const mp_value *olds,
                                     const mp_value *news);

/* Sets |err| to the failures of Check answer |r| about |st| (one line
 * each, secrets never spelled out) and returns MP_EPLUGIN. */
int mp_res_check_failures(const mp_resource *st, const mp_prov_resp *r,
                          mp_err *err);

#endif
