-- A hook may read its bodies as a service's webhook payload (github, grafana, alertmanager).
ALTER TABLE incoming_hooks ADD COLUMN template text;
