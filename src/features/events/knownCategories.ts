/** Past this many, the set starts over: it only saves statements, so forgetting is harmless. */
const LIMIT = 50_000;

/**
 * The categories this process has seen committed, per organization and project, so that a batch
 * whose categories all exist skips their INSERT ... ON CONFLICT DO NOTHING (most batches: a
 * project has few categories). A category row goes only with its project (ON DELETE CASCADE),
 * and a deleted project takes no more events, so a remembered category never needs writing
 * again. Only commits of the process's own transactions are remembered (decision 160).
 */
export class KnownCategories {
  private readonly known = new Set<string>();

  has(organizationId: string, projectId: string, category: string): boolean {
    return this.known.has(keyOf(organizationId, projectId, category));
  }

  /** After the commit that wrote (or found) these categories. */
  remember(organizationId: string, categories: Iterable<{ projectId: string; category: string }>): void {
    for (const { projectId, category } of categories) {
      if (this.known.size >= LIMIT) this.known.clear();
      this.known.add(keyOf(organizationId, projectId, category));
    }
  }
}

// Ids and category names never hold NUL (the boundary refuses it), so the key is unambiguous.
const keyOf = (organizationId: string, projectId: string, category: string) => `${organizationId}\0${projectId}\0${category}`;
