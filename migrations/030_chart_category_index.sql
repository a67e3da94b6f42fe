-- Charts read a project's per-day counts grouped by category, ordered by (category, day).
-- The primary key (project_id, day, category) returns them by day, so every chart request
-- sorted all its rows (7,300 for a year of 20 categories). This index hands them over in
-- order, for all categories and for one. `count` stays out of it so that the rollup upsert of
-- every ingest batch remains a HOT update. See docs/decisions/031-chart-index.md.
CREATE INDEX event_daily_counts_by_category ON event_daily_counts (project_id, category, day);
