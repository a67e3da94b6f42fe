-- Distributes Eventlog's schema on Citus, by organization. Run it on the coordinator once the
-- server has created the schema (the server also runs it itself at every start when the database
-- has the citus extension). Safe to run again: a table that is already distributed is skipped,
-- so after an upgrade that adds tables it distributes just those.
--
-- A new tenant table joins the list below in the migration's release (colocated with
-- organizations, keyed by organization_id first); test/storage/citusDistribution.test.ts fails
-- while a table of the schema is neither here nor named as coordinator-local.

-- Run as one transaction (as the server does), Citus would refuse the function at the end after
-- the tables' parallel shard commands; one connection per worker throughout avoids that. (Run
-- statement by statement, as psql does, this line only warns.)
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';

SELECT create_distributed_table('organizations', 'id')
WHERE NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'organizations'::regclass);

SELECT create_distributed_table(t, 'organization_id', colocate_with => 'organizations')
FROM unnest(ARRAY[
  'projects', 'api_keys', 'users', 'organization_usage', 'id_counters',
  'categories', 'events', 'event_daily_counts', 'app_users', 'insights', 'notify_outbox',
  'incoming_hooks', 'destinations', 'deliveries', 'delivery_attempts', 'push_subscriptions',
  'push_jobs', 'sessions', 'idempotency_keys', 'invitations', 'search_blocks', 'search_progress',
  'alerts', 'alert_transitions', 'alert_schedules',
  'password_resets', 'digest_settings', 'mail_jobs',
  'browser_event_counts', 'audit_entries', 'tag_rollup_keys', 'tag_daily_counts',
  'app_groups', 'app_group_members', 'notification_preferences', 'held_notifications'
]) WITH ORDINALITY AS tables(t, position)
WHERE to_regclass(t) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = t::regclass)
ORDER BY position;

SELECT create_distributed_table('credentials', 'hash', colocate_with => 'none')
WHERE NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'credentials'::regclass);

SELECT create_distributed_table('user_emails', 'email', colocate_with => 'none')
WHERE NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'user_emails'::regclass);

SELECT create_reference_table('settings')
WHERE NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'settings'::regclass);

-- Ingest's function runs where its organization's shards are: a call outside a transaction block
-- is sent whole to that node, whose statements then read and write its local shards (decision 165).
SELECT create_distributed_function(f, 'p_org', colocate_with => 'organizations')
FROM (SELECT to_regprocedure('ingest_events(text,text,text,text,boolean,boolean,boolean,text,integer)') AS f) AS functions
WHERE f IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM pg_dist_object WHERE classid = 'pg_proc'::regclass AND objid = f AND distribution_argument_index IS NOT NULL);
