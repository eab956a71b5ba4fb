/**
 * The `listen` section: the webhook listener and its safety-net sweep (docs/listener.md).
 * Secrets are not here: webhook secrets come from PAYEXPORT_WEBHOOK_SECRETS(_FILE).
 */
import { z } from 'zod';

export const listenSchema = z
  .strictObject({
    host: z.string().min(1).default('0.0.0.0'),
    port: z.number().int().min(0).max(65_535).default(8787),
    /** the one route deliveries are POSTed to */
    path: z.string().regex(/^\/[A-Za-z0-9._~/-]*$/, 'expected a URL path such as /webhooks/voltage').default('/webhooks/voltage'),
    /** bodies above this are refused with 413 before they are read further */
    maxBodyBytes: z.number().int().min(1_024).max(10 * 1024 * 1024).default(256 * 1024),
    /** replay window, both directions */
    toleranceSeconds: z.number().int().min(1).max(3_600).default(300),
    /** minutes between sweeps; 0 = no sweep (deliveries only) */
    sweepMinutes: z.number().min(0).max(24 * 60).default(5),
    /** how far back (by created_at) a sweep reads */
    sweepLookbackHours: z.number().min(1).max(24 * 366).default(48),
    /** the job whose run lock a sweep shares, so it never overlaps that job's runs */
    sweepLockJob: z.string().min(1).default('nightly'),
    /** inbox rows per worker transaction */
    batchSize: z.number().int().min(1).max(1_000).default(100),
    /** a file `{webhookId: [secret, …]}` (0600); PAYEXPORT_WEBHOOK_SECRETS_FILE also works */
    secretsFile: z.string().optional(),
  })
  .prefault({});

export type ListenConfig = z.infer<typeof listenSchema>;
