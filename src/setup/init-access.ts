/**
 * The answers `init` checks against the service together — the service, the organization, the
 * key and (when named) the environments: one wallet list answers them all, with the requests and
 * errors of a job's discovery (key-view.ts). A refused answer is said in the person's terms
 * (init-refusals.ts) and the question it points at is asked again: a wrong key asks for the key,
 * an unknown organization for the organization, a service that does not answer for the service.
 * Under `--yes`, or for an answer that cannot be typed (a key from a variable), the refusal ends
 * the run with the service's exit code.
 */
import type { Env } from '../config/load.js';
import { usageError } from '../util/errors.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';
import { accessProblemOf, type AccessProblem } from './access-problem.js';
import { obtainKey, type ObtainedKey } from './init-key.js';
import type { Answer, Given, Questions } from './init-questions.js';
import { refusal } from './init-refusals.js';
import { viewOfKey, type KeyView } from './key-view.js';
import type { Prompter } from './prompter.js';
import { describeService, parseService, SERVICE_QUESTION, type ServiceAnswer } from './service-answer.js';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export interface AccessInput {
  questions: Questions;
  prompter: Prompter | null;
  given: { service: Given[]; organization: Given[]; environments: readonly string[] | undefined };
  keyEnv: string;
  /** the key file for an organization (default: in the user's config folder) */
  keyFileFor(organization: string): string;
  /** `--force`: a key an earlier init saved is asked again at a terminal (under --yes it is kept) */
  replaceSavedKey: boolean;
  env: Env;
  cwd: string;
  scrubber: SecretScrubber;
}

export interface Access {
  service: ServiceAnswer & { said: string };
  organization: string;
  key: ObtainedKey;
  /** the environments asked for with --environment; empty: every one the key sees */
  environments: string[];
  view: KeyView;
}

function checkUuid(answer: Answer): string {
  if (!UUID.test(answer.value)) throw usageError('bad_option', `${answer.said} '${answer.value.slice(0, 60)}' is not an organization id: expected a UUID such as bedd7c8d-cd3f-482c-a379-0efce67ab08d`);
  return answer.value.toLowerCase();
}

export async function checkAccess(input: AccessInput): Promise<Access> {
  const { questions } = input;
  const askService = (skipGiven: boolean): Promise<ServiceAnswer & { said: string }> =>
    questions.until({ text: SERVICE_QUESTION, what: 'service', defaultAnswer: skipGiven ? undefined : 'production', given: skipGiven ? [] : input.given.service }, (a) => ({ ...parseService(a.value, a.said), said: a.said }));
  const askOrganization = (skipGiven: boolean): Promise<{ id: string; said: string }> =>
    questions.until({ text: 'Organization id (UUID)', what: 'organization id', given: skipGiven ? [] : input.given.organization }, (a) => ({ id: checkUuid(a), said: a.said }));
  const askKey = (organization: string, retype: boolean): Promise<ObtainedKey> =>
    obtainKey({ env: retype ? {} : input.env, keyEnv: input.keyEnv, keyFile: input.keyFileFor(organization), cwd: input.cwd, prompter: input.prompter, retype, replaceSaved: input.replaceSavedKey });

  let service = await askService(false);
  questions.say(`  service: ${describeService(service)}`);
  let organization = await askOrganization(false);
  let key = await askKey(organization.id, false);
  let environments = input.given.environments === undefined ? [] : [...input.given.environments];
  let environmentSaid = '--environment';
  for (;;) {
    try {
      const view = await viewOfKey({ baseUrl: service.baseUrl, credential: key.credential, organizationId: organization.id, scrubber: input.scrubber });
      for (const environment of environments) {
        await viewOfKey({ baseUrl: service.baseUrl, credential: key.credential, organizationId: organization.id, environmentId: environment, scrubber: input.scrubber });
      }
      return { service, organization: organization.id, key, environments, view };
    } catch (error) {
      const problem: AccessProblem = accessProblemOf(error, environments.length > 0);
      // a key from a variable (or a file the person named) cannot be typed again here: only init's own key file is replaced
      const ownKeyFile = key.source.kind === 'file' && key.source.path === input.keyFileFor(organization.id);
      const askAgain = questions.interactive && (problem !== 'key' || ownKeyFile);
      const facts = { problem, keySaid: key.said, organization, service, askAgain, ...(problem === 'environment' ? { environment: { id: environments.join(', '), said: environmentSaid } } : {}) };
      if (!askAgain) throw refusal(error, facts);
      questions.refused(refusal(error, facts));
      if (problem === 'key') key = await askKey(organization.id, true);
      else if (problem === 'organization') organization = await askOrganization(true);
      else if (problem === 'service') service = await askService(true);
      else {
        const answer = await questions.until({ text: "Environment id (the key's own environment)", what: 'environment id' }, (a) => ({ id: checkUuid(a), said: a.said }));
        environments = [answer.id];
        environmentSaid = answer.said;
      }
    }
  }
}
