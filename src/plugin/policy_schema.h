/* A policy's config checked against its config schema (GetAnalyzerInfo's
 * configSchema), as Pulumi checks it before Configure: the schema is
 * {"type": "object", "properties": ..., "required": ...} and the errors
 * are gojsonschema's, in its words ("maxLength: Invalid type. Expected:
 * number, given: string", "prefix is required"). The JSON Schema keywords
 * checked are gojsonschema's (draft 4 to 7): type, enum, const, minimum,
 * maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minLength,
 * maxLength, pattern (POSIX extended), format (policy_schema_format.h),
 * items, additionalItems, minItems, maxItems, uniqueItems, contains,
 * properties, patternProperties, additionalProperties, propertyNames,
 * required, minProperties, maxProperties, dependencies, anyOf, oneOf,
 * allOf, not, if/then/else, boolean schemas, and local "$ref"s ("#" and
 * "#/..." JSON pointers into the schema above). */
#ifndef MP_PLUGIN_POLICY_SCHEMA_H
#define MP_PLUGIN_POLICY_SCHEMA_H

#include "engine/err.h"
#include "engine/mem.h"
#include "engine/value.h"

/* Appends one message per error of |config| (an OBJECT) against the
 * object schema of |properties| (an OBJECT of property schemas, may be
 * NULL) and |required| (an ARRAY of names, may be NULL) to |errs|.
 * Fails (MP_EINVAL) without checking when a "$ref" of the schema does
 * not resolve in it, as gojsonschema fails to load such a schema. */
int mp_policy_schema_check(const mp_value *properties,
                           const mp_value *required, const mp_value *config,
                           mp_strv *errs, mp_err *err);

#endif
