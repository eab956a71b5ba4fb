import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { ANOMALY_KINDS, type AnomalyKind } from '../../sim/dataset/anomaly-kinds.js';
import { DATASET_PROFILES, type DatasetProfile, type EnvironmentKind } from '../../sim/dataset/options.js';
import { parseDeliveryFaults } from '../../sim/faults/delivery-faults.js';
import { FaultSpecError, parseFaultSpec } from '../../sim/faults/fault-spec.js';
import type { SimHandle } from '../../sim/start-simulator.js';
import { usageError } from '../../util/errors.js';
import { exitCodesEpilog } from '../command-exit-codes.js';


/** `payexport sim`: run the payments-service simulator alone until SIGINT/SIGTERM (docs/simulator.md). */

interface SimArgs {
  port: number;
  seed: number;
  scale: number;
  wallets: number;
  faults?: string;
  'delivery-faults'?: string;
  'request-log'?: string;
  from?: string;
  to?: string;
  environments?: string;
  anomalies?: string;
  'unknown-fields': boolean;
  profile: DatasetProfile;
  json: boolean;
  'clock-offset'?: number;
}

export const simCommand: CommandModule<object, SimArgs> = {
  command: 'sim',
  describe: 'Run the payments-service simulator (seeded data, faults on request)',
  builder: (y: Argv<object>) =>
    y
      .option('port', { type: 'number', default: 0, describe: 'TCP port on 127.0.0.1 (0 = any free port)' })
      .option('seed', { type: 'number', default: 1, describe: 'dataset seed: same seed, same data' })
      .option('scale', { type: 'number', default: 10_000, describe: 'number of generated payments' })
      .option('wallets', { type: 'number', default: 8, describe: 'number of wallets (at least 4)' })
      .option('faults', { type: 'string', describe: 'fault spec, e.g. latency=50ms,503=0.05,429=0.02:retry-after=1' })
      .option('delivery-faults', { type: 'string', describe: 'webhook delivery faults, e.g. drop=0.2,dup=0.2,reorder=0.2,badsig=0.05' })
      .option('request-log', { type: 'string', describe: 'append a JSON-lines request log to FILE' })
      .option('from', { type: 'string', describe: 'first day of the payments (default 2026-09-01)' })
      .option('to', { type: 'string', describe: 'end of the payments, exclusive (default 2026-11-22)' })
      .option('environments', { type: 'string', describe: 'environment kinds, comma-separated (default production,production)' })
      .option('anomalies', { type: 'string', describe: `plant anomalies: all, or a comma list of ${ANOMALY_KINDS.join(', ')}` })
      .option('unknown-fields', { type: 'boolean', default: false, describe: 'add unknown fields and enum values' })
      .option('profile', { choices: DATASET_PROFILES, default: 'business' as DatasetProfile, describe: 'business: a mid-sized company (paired treasury transfers); stress: every extreme (hostile text, amounts above 2^53)' })
      .option('json', { type: 'boolean', default: false, describe: 'print the connection details as one JSON line' })
      .option('clock-offset', { type: 'number', describe: "seconds the service's Date header runs ahead (negative: behind); what `payexport doctor` checks" })
      .example('$0 sim --port 8080 --seed 7 --scale 10000', 'serve a seeded organization on http://127.0.0.1:8080/v1')
      .example("$0 sim --faults 'latency=50ms,503=0.05' --anomalies all", 'slow, flaky, and with reconciliation anomalies planted')
      .example('$0 sim --json --environments production,staging', 'one JSON line with the URL, organization and keys, for scripts')
      .epilog(`\n${exitCodesEpilog('sim')}`) as unknown as Argv<SimArgs>,
  handler: async (args: ArgumentsCamelCase<SimArgs>) => {
    if (args.faults !== undefined) {
      try {
        parseFaultSpec(args.faults);
      } catch (error) {
        if (error instanceof FaultSpecError) throw usageError('bad_faults', `--faults: ${error.message}`);
        throw error;
      }
    }
    if (args['delivery-faults'] !== undefined) {
      try {
        parseDeliveryFaults(args['delivery-faults']);
      } catch (error) {
        if (error instanceof FaultSpecError) throw usageError('bad_faults', `--delivery-faults: ${error.message}`);
        throw error;
      }
    }
    const environments = args.environments?.split(',').map((k) => k.trim()) as EnvironmentKind[] | undefined;
    if (environments?.some((k) => k !== 'production' && k !== 'staging')) throw usageError('bad_environments', '--environments takes production and staging, comma-separated');
    const anomalies = args.anomalies === undefined ? undefined : args.anomalies === 'all' ? ('all' as const) : (args.anomalies.split(',').map((a) => a.trim()) as AnomalyKind[]);
    // listen for the signals before anything is printed: a supervisor may signal as soon as it reads the URL
    const stopped = new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    const { startSimulator } = await import('../../sim/start-simulator.js');
    let sim: SimHandle;
    try {
      sim = await startSimulator({
        port: args.port,
        seed: args.seed,
        scale: args.scale,
        wallets: args.wallets,
        unknownFields: args['unknown-fields'],
        profile: args.profile,
        ...(args.faults !== undefined ? { faults: args.faults } : {}),
        ...(args['delivery-faults'] !== undefined ? { webhooks: { faults: args['delivery-faults'] } } : {}),
        ...(args['request-log'] !== undefined ? { requestLog: { file: args['request-log'] } } : {}),
        ...(args.from !== undefined ? { from: args.from } : {}),
        ...(args.to !== undefined ? { to: args.to } : {}),
        ...(environments ? { environments } : {}),
        ...(anomalies ? { anomalies } : {}),
        ...(args['clock-offset'] !== undefined ? { clockOffsetMs: args['clock-offset'] * 1000 } : {}),
      });
    } catch (error) {
      if (error instanceof RangeError) throw usageError('bad_option', error.message);
      throw error;
    }
    print(sim, args);
    await stopped;
    await sim.close();
  },
};

function print(sim: SimHandle, args: SimArgs): void {
  const ds = sim.dataset.options;
  if (args.json) {
    process.stdout.write(
      `${JSON.stringify({ baseUrl: sim.baseUrl, organizationId: sim.organizationId, environments: sim.environments.map((e) => ({ id: e.id, kind: e.kind, apiKey: e.apiKey })), bearerToken: sim.bearerToken, seed: ds.seed, scale: ds.scale, wallets: ds.wallets, profile: ds.profile })}\n`,
    );
    return;
  }
  const lines = [
    'payexport simulator',
    `  base URL      ${sim.baseUrl}`,
    `  organization  ${sim.organizationId}`,
    ...sim.environments.map((e) => `  environment   ${e.id} (${e.kind})  api key ${e.apiKey}`),
    `  bearer token  ${sim.bearerToken}`,
    `  dataset       seed ${ds.seed}, ${ds.scale} payments, ${ds.wallets} wallets (${ds.profile})`,
    `  faults        ${args.faults ?? 'none'}`,
    `  deliveries    ${args['delivery-faults'] ?? 'no faults'}`,
    'Serving until Ctrl-C (SIGINT) or SIGTERM.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
