/**
 * The embedded engine's thread (started by pglite-db.ts). PGlite runs Postgres on the thread that
 * calls it, so in the job's thread every query stopped JSON parsing, normalizing and rendering;
 * here the engine works while the job's thread goes on, which puts the second core to work.
 *
 * Each request is answered on its own: nothing here serializes calls beyond what PGlite does itself
 * (one transaction at a time, statements one by one), so the behaviour is the in-process engine's.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { EMBEDDED_START_PARAMS, TEXT_PARSERS, createFromTemplate, freshFolder, type WorkerReply, type WorkerRequest, type WorkerSetup } from './pglite-db.js';

type Runner = Pick<PGlite, 'query' | 'exec'> | Pick<Transaction, 'query' | 'exec'>;

const port = parentPort;
if (port === null) throw new Error('pglite-worker.ts runs as a worker thread');
const setup = workerData as WorkerSetup;

async function start(): Promise<PGlite> {
  if (setup.pgdata !== null && setup.template !== null && freshFolder(setup.pgdata)) await createFromTemplate(setup.pgdata, setup.template);
  const { readFile } = await import('node:fs/promises');
  return PGlite.create({
    ...(setup.pgdata === null ? {} : { dataDir: setup.pgdata }),
    ...(setup.pgdata === null && setup.template !== null ? { loadDataDir: new Blob([await readFile(setup.template)]) } : {}),
    startParams: [...EMBEDDED_START_PARAMS],
    parsers: TEXT_PARSERS,
  });
}

// V8 compiles Postgres with its optimizing compiler as usual. Liftoff alone (`--liftoff-only`)
// kept less resident, within the memory bound either way, but made the demo and the export slower
// (docs/benchmarks.md#the-embedded-engine), so speed won.
const engine = start();
/** Open transactions by id: each settles its callback when the job's thread commits or rolls back. */
const transactions = new Map<number, { tx: Transaction; finish: (commit: boolean) => void }>();
let nextTx = 1;

async function runnerOf(tx: number | null): Promise<Runner> {
  if (tx === null) return engine;
  const open = transactions.get(tx);
  if (open === undefined) throw new Error(`embedded engine: transaction ${tx} is not open`);
  return open.tx;
}

async function handle(request: WorkerRequest): Promise<unknown> {
  switch (request.op) {
    case 'ready':
      await engine;
      return null;
    case 'query': {
      const result = await (await runnerOf(request.tx)).query<object>(request.sql, request.params);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    }
    case 'exec':
      await (await runnerOf(request.tx)).exec(request.sql);
      return null;
    case 'copy': {
      // COPY reads the virtual file /dev/blob: 100k rows in ~0.1 s (docs/measurements.md#embedded-postgres).
      const result = await (await runnerOf(request.tx)).query(request.sql, [], { blob: new Blob([request.text]) });
      return result.affectedRows ?? 0;
    }
    case 'begin': {
      const id = nextTx++;
      const db = await engine;
      return new Promise<number>((resolveBegin, rejectBegin) => {
        const done = db.transaction(
          (tx) =>
            new Promise<void>((commit, rollback) => {
              transactions.set(id, { tx, finish: (ok) => (ok ? commit() : rollback(new Error('rolled back by the job'))) });
              // set here, not by the job's thread: one message across the threads instead of two
              if (!request.asyncCommit) resolveBegin(id);
              else
                tx.query('SET LOCAL synchronous_commit = off').then(
                  () => resolveBegin(id),
                  // the transaction rolls back and its failure rejects the begin (below)
                  (error: unknown) => {
                    transactions.delete(id);
                    ended.delete(id);
                    rollback(error);
                  },
                );
            }),
        );
        // the outcome of COMMIT or ROLLBACK is reported by 'end'; a failure to begin by this promise
        done.catch(rejectBegin);
        ended.set(id, done);
      });
    }
    case 'end': {
      const open = transactions.get(request.tx);
      const done = ended.get(request.tx);
      transactions.delete(request.tx);
      ended.delete(request.tx);
      open?.finish(request.commit);
      if (request.commit) await done;
      else await done?.catch(() => undefined);
      return null;
    }
    case 'close': {
      const db = await engine;
      if (!db.closed) await db.close();
      return null;
    }
  }
}
const ended = new Map<number, Promise<void>>();

port.on('message', (request: WorkerRequest) => {
  handle(request).then(
    (value) => port.postMessage({ id: request.id, ok: true, value } satisfies WorkerReply),
    (error: unknown) => port.postMessage({ id: request.id, ok: false, error: plainError(error) } satisfies WorkerReply),
  );
});

/** An Error's message, name and own fields (SQLSTATE `code`, `detail`, ...) survive the thread boundary. */
function plainError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  return { ...fields, name: error.name, message: error.message };
}
