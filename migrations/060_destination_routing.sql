-- Destinations limited to categories, disabled automatically after a run of failed deliveries.
-- categories: NULL delivers every notify event of the project; otherwise only these categories.
ALTER TABLE destinations ADD COLUMN categories text[];
-- Consecutive deliveries (Test deliveries aside) that ended in failure; a success resets it.
ALTER TABLE destinations ADD COLUMN failure_run integer NOT NULL DEFAULT 0;
-- Why the destination was disabled automatically; NULL otherwise. Enabling clears it.
ALTER TABLE destinations ADD COLUMN disabled_reason text;

-- replay-failed finds the latest delivery of each event to a destination.
CREATE INDEX deliveries_by_event ON deliveries (organization_id, destination_id, event_id, created_at DESC, id DESC);
