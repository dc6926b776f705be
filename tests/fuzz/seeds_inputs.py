#!/usr/bin/env python3
"""Writes the seeds of the issue 49 targets that need no CLI run
(tests/fuzz/corpus/): plugin archives (tar, tar.gz, zip, a program),
policy configs with their schemas, release server answers and the
inputs of `new`. Run from anywhere; rewrites these seeds."""
import io
import json
import os
import tarfile
import zipfile
import gzip

HERE = os.path.dirname(os.path.abspath(__file__))


def put(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def tar(entries, mode="w"):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=mode, format=tarfile.PAX_FORMAT) as t:
        for name, kind, mode_bits, data in entries:
            info = tarfile.TarInfo(name)
            info.mode = mode_bits
            info.mtime = 1700000000
            if kind == "dir":
                info.type = tarfile.DIRTYPE
                t.addfile(info)
            elif kind == "sym":
                info.type = tarfile.SYMTYPE
                info.linkname = data
                t.addfile(info)
            elif kind == "hard":
                info.type = tarfile.LNKTYPE
                info.linkname = data
                t.addfile(info)
            else:
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


PLUGIN = b"#!/bin/sh\necho plugin\n"
ENTRIES = [
    ("./", "dir", 0o755, None),
    ("pulumi-resource-fuzz", "file", 0o755, PLUGIN),
    ("lib", "dir", 0o755, None),
    ("lib/schema.json", "file", 0o644, b'{"name":"fuzz"}'),
    ("current", "sym", 0o777, "lib"),
    ("schema-link", "sym", 0o777, "current/schema.json"),
    ("lib/copy.json", "hard", 0o644, "lib/schema.json"),
]
put("fuzz_plugin_archive", "tar", tar(ENTRIES))
put("fuzz_plugin_archive", "tar-gz", gzip.compress(tar(ENTRIES), mtime=0))
put("fuzz_plugin_archive", "tar-xz", tar(ENTRIES[:4], "w:xz"))
put("fuzz_plugin_archive", "program", PLUGIN)
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w") as z:
    i = zipfile.ZipInfo("pulumi-resource-fuzz", (2023, 11, 14, 0, 0, 0))
    i.external_attr = 0o100755 << 16
    z.writestr(i, PLUGIN)
    z.writestr(zipfile.ZipInfo("lib/", (2023, 11, 14, 0, 0, 0)), b"")
    z.writestr(zipfile.ZipInfo("lib/a.txt", (2023, 11, 14, 0, 0, 0)), b"a\n")
put("fuzz_plugin_archive", "zip", buf.getvalue())

# Policy configs with their schemas: {"properties", "required", "config"}.
POLICY = {
    "strings": {
        "properties": {"prefix": {"type": "string", "minLength": 2,
                                  "maxLength": 8, "pattern": "^[a-z]+$"},
                       "mail": {"type": "string", "format": "email"}},
        "required": ["prefix"],
        "config": {"prefix": "ab", "mail": "a@example.com"}},
    "numbers": {
        "properties": {"max": {"type": "integer", "minimum": 0,
                               "exclusiveMaximum": 10, "multipleOf": 2},
                       "ratio": {"type": "number", "maximum": 1.5}},
        "config": {"max": 11, "ratio": "x"}},
    "arrays": {
        "properties": {"tags": {"type": "array", "items": {"type": "string"},
                                "minItems": 1, "uniqueItems": True,
                                "contains": {"const": "env"}},
                       "pair": {"type": "array",
                                "items": [{"type": "string"},
                                          {"type": "number"}],
                                "additionalItems": False}},
        "config": {"tags": ["env", "env"], "pair": ["a", 1, 2]}},
    "objects": {
        "properties": {"o": {"type": "object",
                             "properties": {"a": {"enum": [1, "x", None]}},
                             "patternProperties": {"^x-": {"type": "boolean"}},
                             "additionalProperties": {"type": "string"},
                             "propertyNames": {"maxLength": 5},
                             "dependencies": {"a": ["b"]},
                             "minProperties": 1, "maxProperties": 3}},
        "config": {"o": {"a": 1, "x-y": True, "long-name": "s"}}},
    "combinators": {
        "properties": {"v": {"anyOf": [{"type": "string"},
                                       {"type": "integer"}],
                             "not": {"const": 3}},
                       "w": {"oneOf": [{"minimum": 1}, {"maximum": 5}]},
                       "c": {"if": {"type": "string"},
                             "then": {"format": "date-time"},
                             "else": {"allOf": [{"type": "integer"}]}}},
        "config": {"v": 3, "w": 3, "c": "2026-11-27T18:20:44Z"}},
    "refs": {
        "properties": {"r": {"$ref": "#/properties/s"},
                       "s": {"type": "string", "format": "ipv4"},
                       "bad": {"$ref": "#/definitions/none"}},
        "config": {"r": "10.0.0.1", "s": "::1"}},
    "formats": {
        "properties": {k: {"type": "string", "format": k} for k in
                       ["date", "time", "hostname", "ipv6", "uri",
                        "uri-reference", "uri-template", "uuid", "regex",
                        "json-pointer", "relative-json-pointer", "iri"]},
        "config": {"date": "2026-02-30", "time": "18:20:44Z",
                   "hostname": "a.example", "ipv6": "::1",
                   "uri": "https://a.example/p?q#f", "uri-reference": "../x",
                   "uri-template": "/a/{b}", "uuid":
                   "4a7a8cc5-4ef7-4b25-9c3b-1b2b2c1f0e11", "regex": "a(b",
                   "json-pointer": "/a~1b", "relative-json-pointer": "1/a",
                   "iri": "https://\u00e9.example"}},
    # a --policy-pack-config file as users write it
    "config-file": {"all": "advisory",
                    "s3-no-public-read": {"enforcementLevel": "mandatory",
                                          "prefix": "ab"},
                    "other": "disabled"},
}
for name, doc in POLICY.items():
    put("fuzz_policy_schema", name, json.dumps(doc, indent=1))

ASSET = "pulumi-resource-random-v4.16.0-linux-amd64.tar.gz"
RELEASE = {
    "url": "https://api.github.com/repos/pulumi/pulumi-random/releases/1",
    "tag_name": "v4.16.0", "name": "v4.16.0", "draft": False,
    "prerelease": False,
    "assets": [
        {"url": "https://api.github.com/repos/pulumi/pulumi-random/"
                "releases/assets/2", "name": "checksums.txt", "size": 10},
        {"url": "https://api.github.com/repos/pulumi/pulumi-random/"
                "releases/assets/3", "name": ASSET, "size": 1234,
         "content_type": "application/gzip"}]}
put("fuzz_release_json", "github-release", json.dumps(RELEASE, indent=2))
put("fuzz_release_json", "github-prerelease",
    json.dumps({"tag_name": "v1.2.3-alpha.1+build.5", "assets": []}))
put("fuzz_release_json", "gitlab-latest",
    json.dumps({"tag_name": "v0.3", "name": "latest",
                "assets": {"links": []}}))
put("fuzz_release_json", "github-not-found",
    json.dumps({"message": "Not Found",
                "documentation_url": "https://docs.github.com/rest"}))

# `new`: template byte, description, NUL, project name.
put("fuzz_template", "yaml-default", b"\x00A minimal Pulumi YAML program")
put("fuzz_template", "colon-hash", b"\x01key: value # not a comment\x00my-proj")
put("fuzz_template", "quotes-newline", b"\x02it's \"quoted\"\nand two lines\x00p.v2")
put("fuzz_template", "unicode", "\x03caf\u00e9 \u2728 - [a, b] {c}\x00caf_e".encode())
