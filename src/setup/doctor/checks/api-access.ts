/**
 * The key: valid, and scoped to the configured environments — one request per environment, the
 * same wallet list a job's discovery asks for, so a ✗ here is the error tonight's run would stop
 * with. The fix names where the key is read from (a variable or a file), never the key.
 */
import { assertEnvironmentMatchesBaseUrl } from '../../../api/environment-guard.js';
import type { EnvironmentConfig } from '../../../config/schema.js';
import { accessProblemOf } from '../../access-problem.js';
import { viewOfKey } from '../../key-view.js';
import { fail, pass, skip, type CheckLine, type DoctorCheck, type DoctorContext } from '../check.js';
import { secretFileFix } from '../secret-fix.js';
import { configFix } from '../config-fix.js';
import { AppError } from '../../../util/errors.js';

function keySource(environment: EnvironmentConfig | undefined): string {
  if (environment?.apiKeyEnv) return `the variable ${environment.apiKeyEnv}`;
  if (environment?.apiKeyFile) return `the file ${environment.apiKeyFile}`;
  if (environment?.bearerTokenEnv) return `the variable ${environment.bearerTokenEnv}`;
  if (environment?.bearerTokenFile) return `the file ${environment.bearerTokenFile}`;
  return 'PAYEXPORT_API_KEY (or PAYEXPORT_API_KEY_FILE, PAYEXPORT_BEARER_TOKEN)';
}

async function checkOne(ctx: DoctorContext, organizationId: string, environment: EnvironmentConfig | undefined): Promise<CheckLine> {
  const { config, secrets } = ctx.loaded;
  const title = environment === undefined ? 'API key for the organization' : `API key for environment ${environment.name === undefined ? environment.id : `${environment.name} (${environment.id})`}`;
  const problem = secrets.problems?.get(environment?.id ?? '*') ?? (environment === undefined ? undefined : secrets.credentials.has(environment.id) ? undefined : secrets.problems?.get('*'));
  // a key file that cannot be read has its own line (key-files.ts): this one depends on it
  if (problem !== undefined && problem.type !== 'missing_credentials') return skip(title, `not checked: ${keySource(environment)} cannot be read (its line above says why)`);
  if (problem !== undefined) return fail(title, problem.message, secretFileFix(problem, 'the API key'));
  const credential = (environment && secrets.credentials.get(environment.id)) ?? secrets.credentials.get('*');
  if (credential === undefined) return fail(title, 'no key is configured', `set ${keySource(environment)}, or run payexport init`);
  const baseUrl = environment?.baseUrl ?? config.baseUrl;
  try {
    assertEnvironmentMatchesBaseUrl(environment?.kind, baseUrl);
    const view = await viewOfKey({
      baseUrl,
      credential,
      organizationId,
      ...(environment === undefined ? {} : { environmentId: environment.id }),
      scrubber: ctx.scrubber,
      timeoutMs: config.requestTimeoutMs,
    });
    const inactive = view.wallets.filter((w) => !w.active).length;
    return pass(title, `sees ${view.wallets.length} wallet(s)${inactive > 0 ? ` (${inactive} inactive)` : ''} in ${view.environments.length} environment(s)`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // refused before any request: the config says one kind, the base URL another
    if (error instanceof AppError && error.exit === 'config') return fail(title, message, configFix(error, ctx.loaded.configFile));
    switch (accessProblemOf(error, environment !== undefined)) {
      case 'key':
        return fail(title, message, `the key in ${keySource(environment)} is not accepted: put a valid key of this environment there`);
      case 'environment':
        return fail(title, message, `this key belongs to another environment: give environment ${environment?.id ?? ''} its own key (apiKeyEnv or apiKeyFile in the config)`);
      case 'organization':
        return fail(title, message, `check "organization" in the config (${organizationId}): the key has no access to it`);
      case 'service':
        return fail(title, message, `check baseUrl (${baseUrl}) and this machine's network; if the service itself is down, the next run tries again`);
    }
  }
}

export const apiAccessCheck: DoctorCheck = {
  id: 'api-key',
  async run(ctx) {
    const { config } = ctx.loaded;
    if (config.organization === undefined) return [fail('API key', 'no organization is configured', 'set "organization" in the config (or PAYEXPORT_ORGANIZATION_ID), or run payexport init')];
    if (config.environments.length === 0) return [await checkOne(ctx, config.organization, undefined)];
    const lines: CheckLine[] = [];
    for (const environment of config.environments) lines.push(await checkOne(ctx, config.organization, environment));
    return lines;
  },
};
