/**
 * An error the simulator answers with, in the service's envelope `{error: {type, detail, code?, context?}}`
 * (docs/service-facts.md#errors; OpenAPI `ErrorResponse_*`).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly type: string,
    readonly detail: string,
    readonly extra: { code?: string; context?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(`${status} ${type}: ${detail}`);
  }

  body(): { error: Record<string, unknown> } {
    return {
      error: {
        type: this.type,
        detail: this.detail,
        ...(this.extra.code !== undefined ? { code: this.extra.code } : {}),
        ...(this.extra.context !== undefined ? { context: this.extra.context } : {}),
      },
    };
  }
}

export const invalidParameter = (name: string, why: string): ApiError => new ApiError(400, 'invalid_parameter', `Invalid query parameter ${name}: ${why}`);
export const accessRights = (detail = 'The credentials do not grant access to this resource'): ApiError => new ApiError(403, 'access_rights', detail);
export const walletNotFound = (walletId: string): ApiError => new ApiError(404, 'instance_not_found', 'Wallet not found', { context: { wallet_id: walletId } });
