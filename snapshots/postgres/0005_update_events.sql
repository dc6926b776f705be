-- Schema 4 -> 5: each update's engine events, as they happen (the
-- console's update page and timeline), removed with the stack.
CREATE TABLE minipulumi.update_events (
  stack_id bigint NOT NULL REFERENCES minipulumi.stacks(id) ON DELETE CASCADE,
  version  bigint NOT NULL,
  seq      bigint NOT NULL,
  time_ms  bigint NOT NULL,
  json     text NOT NULL,
  PRIMARY KEY (stack_id, version, seq)
);
