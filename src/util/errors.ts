import { ExitCode, type ExitCodeName, type ExitCodeValue } from './exit-codes.js';

/**
 * Every error that reaches the user is an AppError: a machine-readable `type`, a one-line
 * message that is safe to print (no secrets, no stack), and the exit code from one table.
 * Model: stripe-node src/Error.ts.
 */
export class AppError extends Error {
  override readonly name: string = 'AppError';
  /** machine-readable, e.g. `bad_date`, `lock_held`, `api_unavailable` */
  readonly type: string;
  readonly exit: ExitCodeName;
  /** extra facts for --verbose and JSON logs; must never hold a secret */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(exit: ExitCodeName, type: string, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.type = type;
    this.exit = exit;
    this.details = options?.details;
  }

  get exitCode(): ExitCodeValue {
    return ExitCode[this.exit];
  }
}

/** Bad command-line usage: exit 64. */
export const usageError = (type: string, message: string, details?: Record<string, unknown>): AppError =>
  new AppError('usage', type, message, details ? { details } : undefined);

/** Bad configuration: exit 78. */
export const configError = (type: string, message: string, details?: Record<string, unknown>): AppError =>
  new AppError('config', type, message, details ? { details } : undefined);

/** Maps anything thrown to its exit code: AppErrors carry theirs; anything else is a bug (1). */
export function exitCodeOf(error: unknown): ExitCodeValue {
  return error instanceof AppError ? error.exitCode : ExitCode.internal;
}
