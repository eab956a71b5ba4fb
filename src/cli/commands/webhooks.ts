/**
 * `payexport webhooks register` and `payexport webhooks rotate`: the listener's registration with
 * the service. The shared secret the service returns goes ONLY to a secrets file (mode 0600, the
 * one `listen` reads) or, with --print-secret, once to stdout for the user's secret store — never
 * to the config file, the database or a log line.
 */
import { exitCodesEpilog } from '../command-exit-codes.js';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { configError, usageError } from '../../util/errors.js';
import type { CliContext } from '../cli-context.js';
import { withCommonOptions, type CommonArgs } from '../common-options.js';
import { loadCliConfig } from '../run-job.js';
import { configFileLine } from '../../config/config-file-choice.js';

interface WebhooksArgs extends CommonArgs {
  action: 'register' | 'rotate';
  url?: string;
  events?: string;
  name?: string;
  'webhook-id'?: string;
  'secrets-file'?: string;
  'print-secret'?: boolean;
}

const DEFAULT_EVENTS = 'send:succeeded,send:failed,receive:generated,receive:completed,receive:expired,receive:failed';

/** `send:succeeded,receive:completed` → the service's selectors. */
export function parseEvents(text: string): Array<{ send: string } | { receive: string }> {
  return text.split(',').map((part) => {
    const [kind = '', event = ''] = part.trim().split(':');
    if ((kind !== 'send' && kind !== 'receive') || !/^[a-z_]+$/.test(event)) throw usageError('bad_events', `--events: expected send:EVENT or receive:EVENT items, got ${JSON.stringify(part.trim())}`);
    return kind === 'send' ? { send: event } : { receive: event };
  });
}

export function webhooksCommand(ctx: CliContext): CommandModule<object, WebhooksArgs> {
  return {
    command: 'webhooks <action>',
    describe: 'Register the listener with the service (register) or rotate its shared secret (rotate)',
    builder: (y: Argv<object>) =>
      withCommonOptions(y, 'api')
        .positional('action', { choices: ['register', 'rotate'] as const, demandOption: true })
        .option('url', { type: 'string', describe: 'register: the public HTTPS URL of `payexport listen` (its --path included)', group: 'Webhooks:' })
        .option('events', { type: 'string', describe: `register: events to deliver (default ${DEFAULT_EVENTS})`, group: 'Webhooks:' })
        .option('name', { type: 'string', describe: 'register: a name for the registration (default payexport listen)', group: 'Webhooks:' })
        .option('webhook-id', { type: 'string', describe: 'rotate: the registration whose secret is rotated', group: 'Webhooks:' })
        .option('secrets-file', { type: 'string', describe: 'add the secret to this file (mode 0600; env PAYEXPORT_WEBHOOK_SECRETS_FILE)', group: 'Webhooks:' })
        .option('print-secret', { type: 'boolean', describe: 'print the secret once on stdout instead, for your secret store', group: 'Webhooks:' })
        .example('$0 webhooks register --environment ENV --url https://books.example.com/webhooks/voltage --secrets-file /etc/payexport/webhook-secrets.json', 'register; the secret goes to the file')
        .example('$0 webhooks rotate --environment ENV --webhook-id ID --secrets-file /etc/payexport/webhook-secrets.json', 'new secret added as a candidate beside the old one')
        .epilog(`\n${exitCodesEpilog('webhooks')}`) as unknown as Argv<WebhooksArgs>,
    handler: async (args) => {
      const loaded = loadCliConfig(ctx, args);
      if (args.verbose === true) ctx.stderr.write(`${configFileLine(loaded.configChoice)}\n`);
      const { config, secrets } = loaded;
      const organizationId = config.organization;
      if (!organizationId) throw configError('missing_organization', 'no organization: set --organization or PAYEXPORT_ORGANIZATION_ID');
      if (config.environments.length !== 1) throw usageError('one_environment', 'name the environment of the registration with --environment (exactly one)');
      const environment = config.environments[0]!;
      const secretsFile = args['secrets-file'] ?? config.listen.secretsFile ?? ctx.env.PAYEXPORT_WEBHOOK_SECRETS_FILE;
      if ((secretsFile === undefined || secretsFile === '') && args['print-secret'] !== true) {
        throw usageError('secret_destination', 'say where the shared secret goes: --secrets-file FILE (read by `payexport listen`) or --print-secret (shown once, for your secret store)');
      }
      const credential = secrets.credentials.get(environment.id) ?? secrets.credentials.get('*');
      if (!credential) throw configError('missing_credentials', 'no API credentials: set PAYEXPORT_API_KEY (a key with WRITE access to the environment)');
      const { createWebhook, rotateWebhookSecret } = await import('../../api/webhook-endpoints.js');
      const target = { baseUrl: environment.baseUrl ?? config.baseUrl, credential, scrubber: ctx.scrubber, timeoutMs: config.requestTimeoutMs };
      let result;
      if (args.action === 'register') {
        if (!args.url) throw usageError('missing_url', 'register needs --url, the public URL deliveries are POSTed to');
        if (!/^https?:\/\//.test(args.url)) throw usageError('bad_url', '--url must be an http(s) URL');
        const events = parseEvents(args.events ?? DEFAULT_EVENTS);
        result = await createWebhook(target, { organizationId, environmentId: environment.id, id: randomUUID(), url: args.url, name: args.name ?? 'payexport listen', events });
      } else {
        if (!args['webhook-id']) throw usageError('missing_webhook_id', 'rotate needs --webhook-id');
        result = await rotateWebhookSecret(target, { organizationId, environmentId: environment.id, webhookId: args['webhook-id'] });
      }
      const verb = args.action === 'register' ? 'registered' : 'rotated';
      if (args['print-secret'] === true) {
        // The one place a secret is printed: on request, to stdout, never to the log.
        ctx.stdout.write(`webhook ${result.id} ${verb}. Its shared secret, shown once — store it under this webhook id:\n${result.shared_secret}\n`);
        return;
      }
      const { addWebhookSecret } = await import('../../listen/secrets-file.js');
      const file = resolve(ctx.cwd, secretsFile as string);
      const candidates = await addWebhookSecret(file, result.id, result.shared_secret);
      ctx.stdout.write(`webhook ${result.id} ${verb}; its secret is in ${file} (${candidates} candidate${candidates === 1 ? '' : 's'}; a running listener picks it up)\n`);
    },
  };
}
