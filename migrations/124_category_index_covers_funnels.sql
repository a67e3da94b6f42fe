-- The category index also carries each event's organization and user, so that a funnel's steps
-- read the index alone (an index-only scan) instead of one heap page per event of the range: at
-- 10,000,000 events a 3-step, 30-day funnel went from about 1 s to about 0.3 s (decision 162).
-- The feed's category filter reads the index as before; an ingested event still makes one entry.
CREATE INDEX events_feed_category_covering ON events (project_id, category, created_at DESC, id DESC)
  INCLUDE (organization_id, user_id);
DROP INDEX events_feed_category;
ALTER INDEX events_feed_category_covering RENAME TO events_feed_category;
