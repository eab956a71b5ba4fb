/** The process environment as the program reads it (injected, so tests pass their own). */
export type Env = Readonly<Record<string, string | undefined>>;
