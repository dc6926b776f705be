-- Schema 1 -> 2: stack tags (`stack tag set|get|rm|ls`, `stack ls --tag`).
CREATE TABLE minipulumi.stack_tags (
  stack_id bigint NOT NULL REFERENCES minipulumi.stacks(id) ON DELETE CASCADE,
  name     text NOT NULL,
  value    text NOT NULL,
  PRIMARY KEY (stack_id, name)
);
