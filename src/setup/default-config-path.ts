/**
 * Where `init` writes the configuration and where its help says it does: a module of its own so the
 * CLI's option list reads it without loading init's checks (they load when init runs).
 */
export const DEFAULT_CONFIG_PATH = 'config/payexport.json';
