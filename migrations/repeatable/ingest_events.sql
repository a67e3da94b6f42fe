-- Ingest's database function, ingest_events: one organization's batch of events written by one
-- call (decision 165 says why it is a function and what it must keep; src/features/events/
-- queries.ts insertEvents calls it). This file is its one source: a repeatable migration
-- (decision 168), applied again by `migrate` whenever its content changes, after the numbered
-- migrations, in a transaction of its own. So a change to the function is a change to this file,
-- and its diff shows exactly the lines that changed. Migration 125 created the first version.
--
-- CREATE OR REPLACE cannot change the parameters or the result type: such a change needs a
-- numbered migration that drops the old function first (and DISTRIBUTED_FUNCTIONS in
-- src/db/migrate.ts names the new signature).
--
-- p_events: the batch as a JSON array of {ord, project_id, category, title, description, icon,
--   url, user_id, notify, created_us, alert_id, tags, metadata}, `ord` its place in the batch,
--   `created_us` null for "now" (the statement's clock);
-- p_rollup: the same rows' {ord, project_id, category, user_id, notify, created_us}, `user_id`
--   null where the event's user id makes no application user (too long);
-- p_usage: 'count', 'capped' or 'none' (insertEvents' UsageMode).
--
-- Returns {firstId, nowMicros, ords}: the ords written (the drafts whose project is the
-- organization's and not deleted) got ids firstId.. in that order, and nowMicros is the
-- statement's clock; null when nothing was written. It is called as `SELECT ingest_events(...)`,
-- the form Citus sends whole to the node of the organization's shards. Refuses the whole batch by
-- raising EL001 (the id space) or EL002 (the monthly cap), which rolls back what the call wrote.
--
-- Every statement names the organization and joins its input with the organization's projects,
-- so that on Citus each one runs on the organization's shard (docs/scaling.md). On Citus, a
-- replaced function that is already distributed is replaced on every node.
CREATE OR REPLACE FUNCTION ingest_events(
  p_org text,
  p_events text,
  p_rollup text,
  p_usage text,
  p_fan_out boolean,
  p_new_categories boolean,
  p_has_users boolean,
  p_time_zone text,
  p_max_id integer
) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_events json := p_events::json;
  v_rollup json := p_rollup::json;
  -- The written drafts' rollup columns, in `ords` order (see below).
  r_project text[];
  r_category text[];
  r_user text[];
  r_notify boolean[];
  r_created int8[];
  v_cap bigint;
  v_now bigint := (extract(epoch FROM now()) * 1000000)::bigint;
  -- organization_usage counts UTC months.
  v_month date := date_trunc('month', now() AT TIME ZONE 'UTC')::date;
  v_last_seen bigint;
  v_wanted integer;
  v_ok boolean;
  v_last_id integer;
  v_rolls_up_tags boolean;
  first_id integer;
  ords integer[];
  v_plan_cache_mode text;
  -- The copies of ingest_events_on_shards.sql have `false` here.
  v_on_citus boolean := to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL;
  v_shard_function text;
  v_result json;
BEGIN
  -- On Citus, a call delegated to the node of the organization's shards is handed to the copy of
  -- this function that names those shards (ingest_events_on_shards.sql, decision 232), in which
  -- v_on_citus is false.
  IF v_on_citus THEN
    v_shard_function := ingest_events_local_shard(p_org);
    IF v_shard_function IS NOT NULL THEN
      EXECUTE format('SELECT %I($1, $2, $3, $4, $5, $6, $7, $8, $9)', v_shard_function) INTO v_result
        USING p_org, p_events, p_rollup, p_usage, p_fan_out, p_new_categories, p_has_users, p_time_zone, p_max_id;
      RETURN v_result;
    END IF;
  END IF;

  SELECT coalesce(o.monthly_event_cap, p_max_id),
         coalesce((SELECT c.last_id FROM id_counters c WHERE c.organization_id = p_org AND c.kind = 'event'), 0)
    INTO v_cap, v_last_seen
  FROM organizations o WHERE o.id = p_org;
  IF NOT FOUND THEN RETURN NULL; END IF;

  -- The rollup document is parsed once, into one array per column, and the statements below
  -- read those arrays: json_to_recordset costs about three times what unnest of the same rows
  -- does, and the rollups, users and outbox each read these rows (decision 223).
  SELECT coalesce(array_agg(t.ord ORDER BY t.ord), '{}'), array_agg(t.project_id ORDER BY t.ord),
         array_agg(t.category ORDER BY t.ord), array_agg(t.user_id ORDER BY t.ord),
         array_agg(t.notify ORDER BY t.ord), array_agg(t.created_us ORDER BY t.ord)
    INTO ords, r_project, r_category, r_user, r_notify, r_created
  FROM json_to_recordset(v_rollup) AS t(ord int, project_id text, category text, user_id text, notify bool, created_us int8)
  JOIN projects p ON p.organization_id = p_org AND p.id = t.project_id AND p.deleted_at IS NULL;
  v_wanted := cardinality(ords);
  IF v_wanted = 0 THEN RETURN NULL; END IF;
  IF v_last_seen + v_wanted > p_max_id THEN RAISE EXCEPTION 'ids' USING ERRCODE = 'EL001'; END IF;
  IF p_usage = 'capped' AND v_wanted > v_cap THEN RAISE EXCEPTION 'cap' USING ERRCODE = 'EL002'; END IF;

  -- On Citus the statements below are planned at every call (decision 227): Citus 13.2 keeps the
  -- generic plan of a single-shard INSERT with a parameter for the organization, but plans its
  -- shard's query again at every call and adds it to that plan, which grows for the life of the
  -- connection (about 110 kB a call) and costs more with every call. Its INSERT ... SELECTs are
  -- planned at every call anyway. Set for this call only; an exception undoes it with the rest.
  IF v_on_citus THEN
    v_plan_cache_mode := current_setting('plan_cache_mode');
    PERFORM set_config('plan_cache_mode', 'force_custom_plan', true);
  END IF;

  IF p_usage <> 'none' THEN
    INSERT INTO organization_usage AS u (organization_id, month, events, cap)
    VALUES (p_org, v_month, v_wanted, v_cap)
    ON CONFLICT (organization_id, month) DO UPDATE SET events = u.events + excluded.events, cap = excluded.cap
    WHERE p_usage <> 'capped' OR u.events::int8 + excluded.events <= excluded.cap
    RETURNING true INTO v_ok;
    IF v_ok IS NULL THEN RAISE EXCEPTION 'cap' USING ERRCODE = 'EL002'; END IF;
  END IF;

  INSERT INTO id_counters AS c (organization_id, kind, last_id) VALUES (p_org, 'event', v_wanted)
  ON CONFLICT (organization_id, kind) DO UPDATE SET last_id = c.last_id + excluded.last_id
  WHERE c.last_id::int8 + excluded.last_id <= p_max_id
  RETURNING c.last_id, c.rolls_up_tags INTO v_last_id, v_rolls_up_tags;
  IF v_last_id IS NULL THEN RAISE EXCEPTION 'ids' USING ERRCODE = 'EL001'; END IF;
  first_id := v_last_id - v_wanted + 1;

  INSERT INTO events (organization_id, id, project_id, category, title, description, icon, tags, metadata, url,
                      user_id, notify, created_at, alert_id)
  SELECT p.organization_id, first_id + (v.n::int - 1), t.project_id, t.category, t.title, t.description, t.icon, t.tags, t.metadata, t.url,
         t.user_id, t.notify, timestamptz 'epoch' + coalesce(t.created_us, v_now) * interval '1 microsecond', t.alert_id
  FROM json_to_recordset(v_events) AS t(
    ord int, project_id text, category text, title text, description text, icon text,
    tags json, metadata json, url text, user_id text, notify bool, created_us int8, alert_id text)
  JOIN unnest(ords) WITH ORDINALITY AS v(ord, n) ON v.ord = t.ord
  JOIN projects p ON p.organization_id = p_org AND p.id = t.project_id
  ORDER BY t.ord;

  -- Most batches hold only categories the process has seen committed (knownCategories.ts).
  IF p_new_categories THEN
    INSERT INTO categories (organization_id, project_id, name)
    SELECT DISTINCT p.organization_id, t.project_id, t.category
    FROM unnest(r_project, r_category) AS t(project_id, category)
    JOIN projects p ON p.organization_id = p_org AND p.id = t.project_id
    ORDER BY 2, 3
    ON CONFLICT DO NOTHING;
  END IF;

  -- Rollup rows are written sorted, so concurrent batches lock them in one order.
  INSERT INTO event_daily_counts AS d (organization_id, project_id, day, category, count)
  SELECT p.organization_id, t.project_id,
         ((timestamptz 'epoch' + coalesce(t.created_us, v_now) * interval '1 microsecond') AT TIME ZONE p_time_zone)::date,
         t.category, count(*)
  FROM unnest(r_project, r_category, r_created) AS t(project_id, category, created_us)
  JOIN projects p ON p.organization_id = p_org AND p.id = t.project_id
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (organization_id, project_id, day, category) DO UPDATE SET count = d.count + excluded.count;

  -- The application's users (src/features/profiles/): counts and first/last event per batch and user.
  IF p_has_users THEN
    INSERT INTO app_users AS u (organization_id, project_id, user_id, event_count, first_event_at, last_event_at)
    SELECT p.organization_id, t.project_id, t.user_id, count(*),
           min(timestamptz 'epoch' + coalesce(t.created_us, v_now) * interval '1 microsecond'),
           max(timestamptz 'epoch' + coalesce(t.created_us, v_now) * interval '1 microsecond')
    FROM unnest(r_project, r_user, r_created) AS t(project_id, user_id, created_us)
    JOIN projects p ON p.organization_id = p_org AND p.id = t.project_id
    WHERE t.user_id IS NOT NULL
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (organization_id, project_id, user_id) DO UPDATE SET
      event_count = u.event_count + excluded.event_count,
      first_event_at = least(u.first_event_at, excluded.first_event_at),
      last_event_at = greatest(u.last_event_at, excluded.last_event_at);
  END IF;

  IF p_fan_out THEN
    INSERT INTO notify_outbox (organization_id, event_id, project_id)
    SELECT p.organization_id, first_id + (t.n::int - 1), t.project_id
    FROM unnest(r_project, r_notify) WITH ORDINALITY AS t(project_id, notify, n)
    JOIN projects p ON p.organization_id = p_org AND p.id = t.project_id
    WHERE t.notify;
  END IF;

  -- The per-day counts by tag value (decision 131), when the organization charts a tag key. The
  -- flag is read with the counter row, whose lock the batch holds until its commit.
  IF v_rolls_up_tags THEN
    INSERT INTO tag_daily_counts AS d (organization_id, project_id, tag_key, day, category, value, count)
    SELECT k.organization_id, t.project_id, k.tag_key,
           ((timestamptz 'epoch' + coalesce(t.created_us, v_now) * interval '1 microsecond') AT TIME ZONE p_time_zone)::date,
           t.category, t.tags -> k.tag_key, count(*)
    FROM json_to_recordset(v_events) AS t(ord int, project_id text, category text, created_us int8, tags jsonb)
    JOIN tag_rollup_keys k ON k.organization_id = p_org AND k.project_id = t.project_id
    WHERE t.ord = ANY (ords)
    GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, coalesce(jsonb_hash_extended(t.tags -> k.tag_key, 0), 0)
    ON CONFLICT (organization_id, project_id, tag_key, day, category, value_hash) DO UPDATE SET count = d.count + excluded.count;
  END IF;

  IF v_plan_cache_mode IS NOT NULL THEN PERFORM set_config('plan_cache_mode', v_plan_cache_mode, true); END IF;
  RETURN json_build_object('firstId', first_id, 'nowMicros', v_now::text, 'ords', ords);
END
$$;
