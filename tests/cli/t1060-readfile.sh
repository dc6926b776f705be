#!/bin/bash
# fn::readFile carries a file exactly or refuses it with a file:line:col
# error: larger than the 64 MiB limit (not cut), a directory, a FIFO
# (without hanging), a read error, NUL bytes, non-UTF-8 content. A YAML
# string holding a NUL (`"a\0b"`) arrives whole, NUL included.
. "$(dirname "$0")/lib.sh" "$@"
run stack init dev
# program FILE: a local:index:File whose content is fn::readFile FILE.
program() {
  cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  f:
    type: local:index:File
    properties:
      path: out.txt
      content:
        fn::readFile: $1
YAML
}
refused() { # FILE WHY
  program "$1"
  run preview
  [ "$RC" -ne 0 ] || fail "$1: refused"
  expect_out "Pulumi.yaml:9:9: fn::readFile: cannot read '$1': $2" "$1"
}

truncate -s 70M big.txt
refused big.txt "it is larger than the limit of 64 MiB"
mkdir adir
refused adir "it is not a regular file (a directory)"
mkfifo afifo
program afifo
timeout "$(limit 10)" "$M" preview </dev/null >"$T/out" 2>"$T/err"
RC=$?
OUT=$(cat "$T/out")
[ "$RC" != 124 ] || fail "a FIFO does not hang the read"
expect_out "fn::readFile: cannot read 'afifo': it is not a regular file (a FIFO)" "FIFO"
refused /proc/self/mem "read error: Input/output error"
printf 'line one\nab\0cd' > nul.txt
refused nul.txt "it has a NUL byte at byte 11 (line 2, column 3)"
printf 'h\xc3\xa9llo\nw\xc3\xa9\xffx' > latin.txt
refused latin.txt "it is not valid UTF-8 at byte 10 (line 2, column 3)"
printf '\xed\xa0\x80' > surrogate.txt
refused surrogate.txt "it is not valid UTF-8 at byte 0 (line 1, column 1)"

# Text is carried exactly: multi-byte characters, CRLF, no final newline.
printf 'caf\xc3\xa9 \xf0\x9f\x90\x88\r\nlast' > ok.txt
program ok.txt
run up -y
expect_rc 0 "up with a readable file"
cmp -s ok.txt out.txt || fail "the content arrives exactly: $(od -c out.txt | head -3)"

# A NUL in a YAML string arrives whole (Pulumi's l1-output-string).
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  f:
    type: local:index:File
    properties:
      path: out.txt
      content: "a\0b"
YAML
run up -y
expect_rc 0 "up with a NUL in a YAML string"
printf 'a\0b' > want.txt
cmp -s want.txt out.txt || fail "the NUL arrives: $(od -c out.txt | head -3)"
finish
