/**
 * The `notify` section: where a finished (or failed) run tells a person, and the dead man's switch
 * that raises an alarm elsewhere when a run never started, hung or crashed. Validated like every
 * other key (strict objects: unknown keys are refused, exit 78).
 *
 * Secrets are never written here: a webhook's signing secret, a Slack incoming-webhook URL (the URL
 * IS the credential), a ping URL (its UUID lets anyone raise or clear the alarm) and an SMTP
 * password come from an environment variable (`…Env`) or a mode-600 file (`…File`).
 */
import { z } from 'zod';

const envVarName = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'expected an environment variable name such as PAYEXPORT_SLACK_URL');
const httpUrl = z
  .string()
  .url('expected a URL such as https://hooks.example.com/payexport')
  .refine((u) => /^https?:\/\//.test(u), 'expected an http(s) URL')
  // a password in the URL would be a secret in the config file
  .refine((u) => !/^https?:\/\/[^/@]*:[^/@]*@/.test(u), 'a URL with a password is a secret in the config file: drop the password (deliveries are authenticated by their signature)');

export const NOTIFY_JOBS = ['nightly', 'month-end', 'export'] as const;
export type NotifyJob = (typeof NOTIFY_JOBS)[number];

/**
 * When a destination is told: `always`; `on-exceptions` = the run exited 65 (completed, but the
 * books do not tie or an item needs a person); `on-failure` = any non-zero exit (65 included: a
 * failure is anything a person must look at); `never` = not for this job.
 */
export const NOTIFY_CONDITIONS = ['always', 'on-exceptions', 'on-failure', 'never'] as const;
export type NotifyCondition = (typeof NOTIFY_CONDITIONS)[number];

const condition = z.enum(NOTIFY_CONDITIONS);
/** One condition for every job, or one per job (a job left out is `never`). */
const when = z.union([condition, z.strictObject({ nightly: condition.optional(), 'month-end': condition.optional(), export: condition.optional() })]);

/** A secret given by reference: exactly one of the variable or the file. */
function secretRef<E extends string, F extends string>(envKey: E, fileKey: F) {
  return {
    [envKey]: envVarName.optional(),
    [fileKey]: z.string().min(1).optional(),
  } as { [K in E]: z.ZodOptional<typeof envVarName> } & { [K in F]: z.ZodOptional<z.ZodString> };
}

const common = {
  /** how the runs table, the log and `notify test` name this destination */
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'expected a short lowercase name such as finance-slack'),
  when: when.default('always'),
};

const webhookSchema = z.strictObject({
  kind: z.literal('webhook'),
  ...common,
  url: httpUrl,
  ...secretRef('secretEnv', 'secretFile'),
});

const slackSchema = z.strictObject({
  kind: z.literal('slack'),
  ...common,
  ...secretRef('urlEnv', 'urlFile'),
});

const emailSchema = z.strictObject({
  kind: z.literal('email'),
  ...common,
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535).default(587),
  /** implicit TLS from the first byte (port 465) */
  secure: z.boolean().default(false),
  /** on a plain connection: upgrade with STARTTLS or refuse to send (`required`, the default) */
  starttls: z.enum(['required', 'opportunistic']).default('required'),
  /** a PEM file of extra CA certificates (an internal relay's own CA) */
  caFile: z.string().min(1).optional(),
  from: z.string().min(3),
  to: z.array(z.string().min(3)).min(1),
  user: z.string().min(1).optional(),
  ...secretRef('passwordEnv', 'passwordFile'),
  /** attach the run's exceptions.csv (it names payments and wallets; off unless asked) */
  attachExceptions: z.boolean().default(false),
});

const pingSchema = z.strictObject({
  kind: z.literal('ping'),
  name: common.name,
  /** a dead man's switch reports every run of the jobs it watches: only `always` or `never` */
  when: z.union([z.enum(['always', 'never']), z.strictObject({ nightly: z.enum(['always', 'never']).optional(), 'month-end': z.enum(['always', 'never']).optional(), export: z.enum(['always', 'never']).optional() })]).default('always'),
  ...secretRef('urlEnv', 'urlFile'),
});

export const destinationSchema = z.discriminatedUnion('kind', [webhookSchema, slackSchema, emailSchema, pingSchema]).superRefine((d, ctx) => {
  const pairs: Array<[string | undefined, string | undefined, string, string]> =
    d.kind === 'webhook'
      ? [[d.secretEnv, d.secretFile, 'secretEnv', 'secretFile']]
      : d.kind === 'email'
        ? d.user === undefined
          ? []
          : [[d.passwordEnv, d.passwordFile, 'passwordEnv', 'passwordFile']]
        : [[d.urlEnv, d.urlFile, 'urlEnv', 'urlFile']];
  for (const [env, file, envKey, fileKey] of pairs) {
    if ((env === undefined) === (file === undefined)) ctx.addIssue({ code: 'custom', message: `expected exactly one of ${envKey} or ${fileKey}`, path: [envKey] });
  }
  if (d.kind === 'email' && d.user === undefined && (d.passwordEnv !== undefined || d.passwordFile !== undefined)) {
    ctx.addIssue({ code: 'custom', message: 'a password needs a user', path: ['user'] });
  }
});

export const notifySchema = z
  .strictObject({
    /** the whole time one destination may take, attempts and backoff included */
    timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
    /** attempts per destination within that time (retries only on timeouts, 408, 429 and 5xx) */
    attempts: z.number().int().min(1).max(10).default(3),
    /** how many exceptions a message lists in words (the rest: counted, and in exceptions.csv) */
    maxExceptions: z.number().int().min(0).max(20).default(5),
    destinations: z.array(destinationSchema).max(20).default([]),
  })
  .superRefine((n, ctx) => {
    const seen = new Set<string>();
    n.destinations.forEach((d, i) => {
      if (seen.has(d.name)) ctx.addIssue({ code: 'custom', message: `destination name '${d.name}' is used twice`, path: ['destinations', i, 'name'] });
      seen.add(d.name);
    });
  });

export type NotifyConfig = z.infer<typeof notifySchema>;
export type DestinationConfig = z.infer<typeof destinationSchema>;
export type WebhookDestination = Extract<DestinationConfig, { kind: 'webhook' }>;
export type SlackDestination = Extract<DestinationConfig, { kind: 'slack' }>;
export type EmailDestination = Extract<DestinationConfig, { kind: 'email' }>;
export type PingDestination = Extract<DestinationConfig, { kind: 'ping' }>;
