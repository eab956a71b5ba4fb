/**
 * The `delivery` section: where a published report folder is copied for the people who close the
 * books — an SFTP server, an S3-compatible bucket, or a mounted share — chosen per job like the
 * notify destinations. Validated like every other key (strict objects: unknown keys are refused).
 *
 * Secrets are never written here: an SFTP password or private key, an S3 secret access key come
 * from an environment variable (`…Env`) or a mode-600 file (`…File`); S3 may also use the
 * standard AWS credential chain (no reference at all). What IS here is the SFTP server's host key
 * fingerprint: public, and the pin that refuses an impostor.
 */
import { z } from 'zod';

const envVarName = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'expected an environment variable name such as PAYEXPORT_SFTP_KEY');
const fileRef = z.string().min(1);

export const DELIVERY_JOBS = ['nightly', 'month-end', 'export'] as const;
export type DeliveryJob = (typeof DELIVERY_JOBS)[number];

const always = z.enum(['always', 'never']);
/** For every job, or per job (a job left out is `never`). */
const when = z.union([always, z.strictObject({ nightly: always.optional(), 'month-end': always.optional(), export: always.optional() })]);

/** A relative remote path made of safe segments: no `..`, no leading dot, nothing a shell or a URL would mangle. */
const remotePath = z
  .string()
  .regex(/^\/?([A-Za-z0-9_-][A-Za-z0-9._-]*)(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*\/?$|^\/?$/, 'expected a path of letters, digits, ".", "_" and "-" segments (no "..", no leading dot)')
  .refine((p) => !p.split('/').includes('..'), 'no ".." in a remote path');

const common = {
  /** how the log, the summary and the deliveries table name this destination */
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'expected a short lowercase name such as accountant-sftp'),
  when: when.default('always'),
};

const folderSchema = z.strictObject({
  kind: z.literal('folder'),
  ...common,
  /** the mounted share's root; `<path>/<job>/<period>/` is written beneath it */
  path: z.string().min(1),
});

/** `SHA256:` + unpadded base64, as `ssh-keygen -lf` and `ssh-keyscan | ssh-keygen -lf -` print it. */
export const SSH_FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;

const sftpSchema = z.strictObject({
  kind: z.literal('sftp'),
  ...common,
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535).default(22),
  user: z.string().min(1),
  /** the server's host key fingerprint; anything else is refused */
  hostKey: z.string().regex(SSH_FINGERPRINT, 'expected a host key fingerprint such as SHA256:… (ssh-keyscan -p PORT HOST | ssh-keygen -lf -)'),
  privateKeyFile: fileRef.optional(),
  privateKeyEnv: envVarName.optional(),
  passphraseEnv: envVarName.optional(),
  passwordEnv: envVarName.optional(),
  passwordFile: fileRef.optional(),
  /** the remote root; `<remoteDir>/<job>/<period>/` is written beneath it */
  remoteDir: remotePath.default(''),
});

const s3Schema = z.strictObject({
  kind: z.literal('s3'),
  ...common,
  bucket: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'expected an S3 bucket name'),
  /** key prefix; objects are `<prefix>/<job>/<period>/<file>` */
  prefix: remotePath.default(''),
  region: z.string().min(1).default('us-east-1'),
  /** a non-AWS store (MinIO, Ceph, R2, …) */
  endpoint: z.string().url().optional(),
  forcePathStyle: z.boolean().default(false),
  serverSideEncryption: z.enum(['AES256', 'aws:kms']).optional(),
  kmsKeyId: z.string().min(1).optional(),
  /** by reference, both or neither (neither: the standard AWS chain — env, profile, instance role) */
  accessKeyIdEnv: envVarName.optional(),
  secretAccessKeyEnv: envVarName.optional(),
  secretAccessKeyFile: fileRef.optional(),
});

export const deliveryDestinationSchema = z.discriminatedUnion('kind', [folderSchema, sftpSchema, s3Schema]).superRefine((d, ctx) => {
  if (d.kind === 'sftp') {
    const refs = [d.privateKeyFile, d.privateKeyEnv, d.passwordEnv, d.passwordFile].filter((r) => r !== undefined);
    if (refs.length !== 1) ctx.addIssue({ code: 'custom', message: 'expected exactly one of privateKeyFile, privateKeyEnv, passwordEnv or passwordFile', path: ['privateKeyFile'] });
    if (d.passphraseEnv !== undefined && d.privateKeyFile === undefined && d.privateKeyEnv === undefined) ctx.addIssue({ code: 'custom', message: 'a passphrase needs a private key', path: ['passphraseEnv'] });
  }
  if (d.kind === 's3') {
    const secret = d.secretAccessKeyEnv ?? d.secretAccessKeyFile;
    if (d.secretAccessKeyEnv !== undefined && d.secretAccessKeyFile !== undefined) ctx.addIssue({ code: 'custom', message: 'expected one of secretAccessKeyEnv or secretAccessKeyFile', path: ['secretAccessKeyEnv'] });
    if ((d.accessKeyIdEnv === undefined) !== (secret === undefined)) ctx.addIssue({ code: 'custom', message: 'give accessKeyIdEnv with secretAccessKeyEnv (or secretAccessKeyFile), or neither for the standard AWS chain', path: ['accessKeyIdEnv'] });
    if (d.kmsKeyId !== undefined && d.serverSideEncryption !== 'aws:kms') ctx.addIssue({ code: 'custom', message: 'kmsKeyId needs serverSideEncryption "aws:kms"', path: ['kmsKeyId'] });
  }
});

export const deliverySchema = z
  .strictObject({
    /** the whole time one destination may take for one folder, attempts and backoff included */
    timeoutMs: z.number().int().min(1000).max(3_600_000).default(300_000),
    /** attempts per destination within that time (retries only on cut connections and timeouts) */
    attempts: z.number().int().min(1).max(10).default(3),
    destinations: z.array(deliveryDestinationSchema).max(20).default([]),
  })
  .superRefine((n, ctx) => {
    const seen = new Set<string>();
    n.destinations.forEach((d, i) => {
      if (seen.has(d.name)) ctx.addIssue({ code: 'custom', message: `delivery destination name '${d.name}' is used twice`, path: ['destinations', i, 'name'] });
      seen.add(d.name);
    });
  });

export type DeliveryConfig = z.infer<typeof deliverySchema>;
export type DeliveryDestination = z.infer<typeof deliveryDestinationSchema>;
export type FolderDestination = Extract<DeliveryDestination, { kind: 'folder' }>;
export type SftpDestination = Extract<DeliveryDestination, { kind: 'sftp' }>;
export type S3Destination = Extract<DeliveryDestination, { kind: 's3' }>;

/** Whether `d` delivers the reports of `job`. */
export function deliversJob(d: DeliveryDestination, job: string): boolean {
  if (typeof d.when === 'string') return d.when === 'always';
  return (d.when as Record<string, string | undefined>)[job] === 'always';
}
