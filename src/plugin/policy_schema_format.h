/* JSON Schema's "format" keyword as gojsonschema 1.2.0 (the validator
 * of Pulumi's policy configs) checks it: date, time, date-time,
 * hostname, email, idn-email, ipv4, ipv6, uri, iri, uri-reference,
 * iri-reference, uri-template, uuid, regex, json-pointer and
 * relative-json-pointer; any other format passes. */
#ifndef MP_PLUGIN_POLICY_SCHEMA_FORMAT_H
#define MP_PLUGIN_POLICY_SCHEMA_FORMAT_H

/* Whether the string |s| is of |format| (1 for a format not known). */
int mp_policy_schema_format_ok(const char *format, const char *s);

/* Whether gojsonschema knows |format| (a number then never matches it). */
int mp_policy_schema_format_known(const char *format);

#endif
