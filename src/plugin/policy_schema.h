/* A policy's config checked against its config schema (GetAnalyzerInfo's
 * configSchema), as Pulumi checks it before Configure: the schema is
 * {"type": "object", "properties": ..., "required": ...} and the errors
 * are gojsonschema's, in its words ("maxLength: Invalid type. Expected:
 * number, given: string", "prefix is required"). The JSON Schema keywords
 * checked: type, enum, const, minimum, maximum, exclusiveMinimum,
 * exclusiveMaximum, multipleOf, minLength, maxLength, pattern (POSIX
 * extended), items, minItems, maxItems, uniqueItems, properties,
 * required, additionalProperties, minProperties, maxProperties; others
 * (anyOf, oneOf, allOf, not, format, $ref, ...) are not checked. */
#ifndef MP_PLUGIN_POLICY_SCHEMA_H
#define MP_PLUGIN_POLICY_SCHEMA_H

#include "engine/mem.h"
#include "engine/value.h"

/* Appends one message per error of |config| (an OBJECT) against the
 * object schema of |properties| (an OBJECT of property schemas, may be
 * NULL) and |required| (an ARRAY of names, may be NULL) to |errs|. */
void mp_policy_schema_check(const mp_value *properties,
                            const mp_value *required, const mp_value *config,
                            mp_strv *errs);

#endif
