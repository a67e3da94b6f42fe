import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Ctx } from '../../context.ts';
import type { TransactionSql } from '../../db/client.ts';
import { IdSpaceExhausted } from '../../lib/errors.ts';
import { ID_WARNING_THRESHOLD, MAX_ID } from '../../lib/idSpace.ts';
import { newId } from '../../lib/ids.ts';
import { importedRows } from '../events/copyText.ts';
import { holdEventIds, setLastEventId } from '../events/idCounters.ts';
import { sendImportedEvents } from '../events/importEvents.ts';
import { writeImportedProjects } from '../projects/importProjects.ts';
import type { EventWriting } from './readImport.ts';

/** Chunks read ahead of the one being written before the reading waits. */
const READ_AHEAD = 2;

/**
 * Writes an import's events while the rest of the document is still being read (decision 160):
 * one COPY per chunk, the next chunk's text made while PostgreSQL takes the current one. The
 * organization's event id counter is locked at the first chunk and the ids are handed out here,
 * in file order, project by project, so each project's events take consecutive ids whatever the
 * ingest does meanwhile; the counter is set once, at the end. Each project's row is written
 * before its first event (the events refer to it) and named once the whole document is read.
 *
 * A failure (an id space used up, a refused row) is kept, the rest is dropped, and `finish`
 * throws it once the reading is done: a problem of the document itself is answered first.
 */
export class ImportWriter implements EventWriting {
  private readonly ids = new Map<number, string>();
  private readonly projectsWritten = new Set<number>();
  private readonly queue: Array<{ project: number; lines: Buffer }> = [];
  private pumping: Promise<void> | null = null;
  private waiting: Array<() => void> = [];
  private abandoned = false;
  private failure: Error | null = null;
  /** The next event id to hand out; null until the counter is locked. */
  private nextId: number | null = null;
  private events = 0;

  constructor(
    private readonly ctx: Ctx,
    private readonly tx: TransactionSql,
  ) {}

  projectId(index: number): string {
    let id = this.ids.get(index);
    if (id === undefined) this.ids.set(index, (id = newId(12)));
    return id;
  }

  write(project: number, lines: Buffer): void {
    if (this.abandoned || this.failure !== null) return;
    this.queue.push({ project, lines });
    if (!this.pumping) this.startPump();
  }

  abandon(): void {
    this.abandoned = true;
    this.queue.length = 0;
  }

  async room(): Promise<void> {
    // A turn of the event loop in any case: the COPY's replies come in between two slices.
    await nextTurn();
    while (this.queue.length > READ_AHEAD && this.pumping) await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Waits for the last COPY; throws what failed; sets the counter past the ids handed out. */
  async finish(): Promise<number> {
    await this.settled();
    if (this.failure !== null) throw this.failure;
    if (this.nextId !== null) await setLastEventId(this.tx, this.ctx.organizationId, this.nextId - 1);
    return this.events;
  }

  /** Waits for the statement in flight, whatever happened: the transaction is rolled back after. */
  async settled(): Promise<void> {
    while (this.pumping) await this.pumping;
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }

  private startPump(): void {
    this.pumping = this.pump().finally(() => {
      this.pumping = null;
      // A chunk may have come in after the pump found the queue empty and before it ended.
      if (this.queue.length > 0 && this.failure === null && !this.abandoned) this.startPump();
      this.wake();
    });
  }

  private async pump(): Promise<void> {
    let inFlight: Promise<number> | null = null;
    try {
      for (;;) {
        const next = this.queue.shift();
        if (!next) {
          if (!inFlight) return;
          this.events += await inFlight;
          inFlight = null;
          continue;
        }
        const rows = await this.rowsOf(next.project, next.lines);
        if (inFlight) this.events += await inFlight;
        inFlight = (await sendImportedEvents(this.tx, rows)).done;
        this.wake();
      }
    } catch (error) {
      this.failure ??= error instanceof Error ? error : new Error(String(error));
      this.queue.length = 0;
      await inFlight?.catch(() => {});
    }
  }

  /** The chunk's COPY input under the next ids, its project's row written first. */
  private async rowsOf(project: number, lines: Buffer): Promise<{ text: string; count: number }> {
    const { organizationId } = this.ctx;
    this.nextId ??= (await holdEventIds(this.tx, organizationId)) + 1;
    const projectId = this.projectId(project);
    if (!this.projectsWritten.has(project)) {
      // Named once the whole document is read; nobody sees the row before the commit.
      await writeImportedProjects(this.tx, organizationId, [{ id: projectId, name: '' }]);
      this.projectsWritten.add(project);
    }
    const rows = importedRows({ organizationId, projectId, firstId: this.nextId, lines: lines.toString('utf8') });
    const lastId = this.nextId + rows.count - 1;
    if (lastId > MAX_ID) throw new IdSpaceExhausted('event');
    if (this.nextId <= ID_WARNING_THRESHOLD && ID_WARNING_THRESHOLD <= lastId) {
      this.ctx.services.log.warn({ organizationId }, `organization has used 90% of its event ids (id ${ID_WARNING_THRESHOLD})`);
    }
    this.nextId = lastId + 1;
    return rows;
  }
}
