-- Schema 4 -> 5: the snapshot's `extensions` (extension packages that
-- resources name in their extensionRef), by reference.
CREATE TABLE extensions (
  stack_id INTEGER NOT NULL REFERENCES stacks(id) ON DELETE CASCADE,
  ref      TEXT NOT NULL,
  json     TEXT NOT NULL,
  PRIMARY KEY (stack_id, ref)
);
