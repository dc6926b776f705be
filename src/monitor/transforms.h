/* Transforms (Pulumi's source_eval.go, RegisterResource): before the
 * monitor sees a registration, its type, name, custom flag, parent,
 * inputs and options pass through the resource's own transforms, then
 * those of each ancestor (nearest first), then the stack's, in the order
 * they were registered; each gets what the previous one returned. An
 * invoke's token, arguments and options pass through the stack's invoke
 * transforms the same way. The transforms are functions in the program,
 * called through its Callbacks server. Owner: the loop thread. */
#ifndef MP_MONITOR_TRANSFORMS_H
#define MP_MONITOR_TRANSFORMS_H

#include "monitor/callbacks.h"
#include "pulumi/resource.pb-c.h"

typedef struct mp_transforms mp_transforms;
/* One registration on its way through the transforms. Opaque. */
typedef struct mp_tx_reg mp_tx_reg;

mp_transforms *mp_transforms_new(mp_callbacks *cbs); /* |cbs| borrowed */
void mp_transforms_free(mp_transforms *t);
/* The deployment is over: no transform is called any more (a registration
 * on its way fails with MP_ECANCELED). */
void mp_transforms_stop(mp_transforms *t);

/* RegisterStackTransform and RegisterStackInvokeTransform. */
int mp_transforms_add_stack(mp_transforms *t, const Pulumirpc__Callback *cb,
                            mp_err *err);
int mp_transforms_add_invoke(mp_transforms *t, const Pulumirpc__Callback *cb,
                             mp_err *err);

/* The transformed request (valid until mp_transforms_reg_end), or |err|
 * when a transform failed. */
typedef void (*mp_transformed_fn)(void *arg, mp_tx_reg *x,
                                  const Pulumirpc__RegisterResourceRequest *q,
                                  const mp_err *err);
/* Runs |q| (taken) through its transforms; |done| runs exactly once, inside
 * this call when there is none. */
void mp_transforms_reg(mp_transforms *t, Pulumirpc__RegisterResourceRequest *q,
                       mp_transformed_fn done, void *arg);
/* The registration was answered: |urn| (NULL when it failed) keeps its
 * own transforms for its children. Frees |x|. */
void mp_transforms_reg_end(mp_transforms *t, mp_tx_reg *x, const char *urn);

typedef void (*mp_invoke_transformed_fn)(
    void *arg, const Pulumirpc__ResourceInvokeRequest *q, const mp_err *err);
/* Runs the invoke |q| (taken) through the stack's invoke transforms;
 * |done| runs exactly once (inside this call when there is none); |q| is
 * freed after it returns. */
void mp_transforms_invoke(mp_transforms *t, Pulumirpc__ResourceInvokeRequest *q,
                          mp_invoke_transformed_fn done, void *arg);

#endif
