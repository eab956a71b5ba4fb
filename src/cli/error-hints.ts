/**
 * What to do next, for the errors people meet first (README "Troubleshooting"), appended to the
 * one stderr line by error type. Errors whose message already says what to do have none.
 */
export const ERROR_HINTS: Readonly<Record<string, string>> = {
  wrong_credentials: 'check PAYEXPORT_API_KEY or PAYEXPORT_BEARER_TOKEN (or the key file the config names)',
  // the service answers 403 access_rights both for a key of another environment and for an organization the key cannot see: the hint names both, it cannot tell which
  access_rights: 'the key cannot reach this: check the organization id, and that the key is this environment\'s (a key works for its own organization and environment only: give each environment its key in the config file, apiKeyEnv or apiKeyFile)',
  environment_mismatch: 'staging keys belong to https://staging.voltageapi.com/v1, production keys to https://voltageapi.com/v1',
};

/** `message` with its hint, when the type has one the message does not already contain. */
export function withHint(message: string, type: string | undefined): string {
  const hint = type === undefined ? undefined : ERROR_HINTS[type];
  return hint === undefined || message.includes(hint) ? message : `${message} — ${hint}`;
}
