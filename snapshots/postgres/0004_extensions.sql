-- Schema 3 -> 4: the snapshot's `extensions` (extension packages that
-- resources name in their extensionRef), by reference.
CREATE TABLE minipulumi.extensions (
  stack_id bigint NOT NULL REFERENCES minipulumi.stacks(id) ON DELETE CASCADE,
  ref      text NOT NULL,
  json     text NOT NULL,
  PRIMARY KEY (stack_id, ref)
);
