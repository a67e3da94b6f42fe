/**
 * The name of the advisory lock between registering a rolled-up tag key (exclusive) and deleting
 * events (shared) in one organization (decision 131); PostgreSQL takes it as
 * `hashtextextended(name, 0)`.
 */
export const tagRollupLockName = (organizationId: string): string => `eventlog.tag-rollup/${organizationId}`;
