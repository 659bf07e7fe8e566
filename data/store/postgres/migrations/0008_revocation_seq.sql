-- compat: expand (a sequence and a defaulted column; older binaries neither read nor set it: a mark they add takes the next number, one they extend keeps its own)
-- Every sign-out mark takes a new number when it is made or extended, so
-- that each node's mirror of the marks reads only what is new since its
-- last poll.
CREATE SEQUENCE revocations_seq;
ALTER TABLE revocations ADD COLUMN seq bigint NOT NULL DEFAULT nextval('revocations_seq');
CREATE INDEX revocations_by_seq ON revocations (seq);
