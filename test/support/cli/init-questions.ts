/**
 * The questions `payexport init` asks at a terminal when no flag answers them, in order, each with
 * the prompt a person sees and the answer a test gives — for a key of the simulator's first
 * environment (one environment, so one name question).
 */
import type { TestSim } from './sim.js';
import { PLANTED_KEYS } from './sim.js';

export interface InitQuestion {
  /** a short name for the test's title */
  name: string;
  /** the prompt, at the end of the screen or of the output so far */
  prompt: RegExp;
  answer: string;
  /** typed without echo */
  secret?: boolean;
  /** the words of `no answer to "…"` when the input ends here */
  text: string;
}

export function initQuestions(sim: TestSim, answers: { out?: string; tz?: string } = {}): InitQuestion[] {
  return [
    { name: 'service', prompt: /Service: production \(https:\/\/voltageapi\.com\/v1\), staging \(https:\/\/staging\.voltageapi\.com\/v1\), or the base URL of another, with its \/v1 \[production\]:\s*$/m, answer: sim.sim.baseUrl, text: 'Service: production' },
    { name: 'organization', prompt: /Organization id \(UUID\):\s*$/m, answer: sim.sim.organizationId, text: 'Organization id (UUID)' },
    { name: 'API key', prompt: /API key \(saved to .*\.api-key, mode 600, never into the config\) \(typing is not shown\):\s*$/m, answer: PLANTED_KEYS[0], secret: true, text: 'API key' },
    { name: 'environment name', prompt: /Name for environment [0-9a-f-]{36} \((production|staging|kind unknown), \d+ wallet\(s\): .*\) \[(production|staging|environment)\]:\s*$/m, answer: 'Payments', text: 'Name for environment' },
    { name: 'time zone', prompt: /Time zone of the books \(IANA, such as America\/New_York\) \[[^\]]+\]:\s*$/m, answer: answers.tz ?? 'Europe/Berlin', text: 'Time zone of the books' },
    { name: 'snapshot', prompt: /Snapshot database: .* \[embedded\]:\s*$/m, answer: '', text: 'Snapshot database' },
    { name: 'output root', prompt: /Output root \(this account's report folders go under it\) \[reports\/org-[0-9a-f]{8}\]:\s*$/m, answer: answers.out ?? '', text: 'Output root' },
    { name: 'books', prompt: /Set up the books: journal entries, lots \(first in, first out\) and prices fetched for them \[yes\]:\s*$/m, answer: 'yes', text: 'Set up the books' },
    { name: 'books currency', prompt: /Books currency \(ISO 4217: the currency of the accountant's books\) \[USD\]:\s*$/m, answer: 'usd', text: 'Books currency' },
  ];
}
