-- Idempotent consumers: an event id is recorded in the same transaction as the work it caused,
-- so a redelivered event is recognised and skipped.
CREATE TABLE processed_event (
    consumer     TEXT        NOT NULL,
    event_id     TEXT        NOT NULL,
    processed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, event_id)
);
CREATE INDEX processed_event_processed_at ON processed_event (processed_at);
