import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/**
 * The official OpenAPI 3.1 document of the repository (spec/voltage-openapi.json, see
 * docs/service-facts.md) as JSON Schema 2020-12 validators: `#/components/schemas/...`
 * refs resolve inside the document, and the document's custom formats are registered.
 */

export type OpenApi = {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};

const here = fileURLToPath(new URL('.', import.meta.url));
const SPEC_FILE = `${here}../../../spec/voltage-openapi.json`;

export function loadOpenApi(): OpenApi {
  if (!existsSync(SPEC_FILE)) throw new Error(`voltage-openapi.json not found at ${SPEC_FILE}`);
  return JSON.parse(readFileSync(SPEC_FILE, 'utf8')) as OpenApi;
}

const DOC_ID = 'https://voltageapi.com/v1/openapi/docs.json';
// ajv-formats is CommonJS with a default export; under NodeNext the callable sits on `.default`
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

export class OpenApiValidator {
  readonly doc: OpenApi;
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly templates: Array<{ template: string; re: RegExp }>;

  constructor(doc: OpenApi = loadOpenApi()) {
    this.doc = doc;
    // strict: false — the document uses `discriminator`, `example` and `x-*` keywords ajv does not validate
    this.ajv = new Ajv2020({ strict: false, allErrors: false });
    addFormats(this.ajv);
    const integer = (min: number, max: number) => ({ type: 'number' as const, validate: (n: number) => Number.isInteger(n) && n >= min && n <= max });
    this.ajv.addFormat('u-int8', integer(0, 255));
    this.ajv.addFormat('u-int16', integer(0, 65_535));
    this.ajv.addFormat('u-int32', integer(0, 4_294_967_295));
    // values beyond 2^53 reach the validator as (integral) doubles; the exact digits are checked
    // elsewhere (test/unit/sim/dataset/consistency.test.ts), so the bounds here are 2^64 and 2^63
    this.ajv.addFormat('u-int64', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= 0 && n < 2 ** 64 });
    this.ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 63 });
    this.ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
    this.ajv.addFormat('rate', /^\d+e\d+$/);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema({ ...doc, $id: DOC_ID } as Record<string, unknown>);
    this.templates = Object.keys(doc.paths).map((template) => ({ template, re: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));
  }

  /** A validator for `#/components/schemas/<name>`. */
  schema(name: string): ValidateFunction {
    return this.byRef(`${DOC_ID}#/components/schemas/${name}`);
  }

  private byRef(ref: string): ValidateFunction {
    let v = this.cache.get(ref);
    if (!v) {
      v = this.ajv.compile({ $ref: ref });
      this.cache.set(ref, v);
    }
    return v;
  }

  /** The OpenAPI path template of a concrete path (without `/v1`). */
  templateOf(path: string): string | null {
    const matches = this.templates.filter((t) => t.re.test(path));
    // prefer the template with the most literal segments (`/payments/summary` over `/payments/{id}`)
    const params = (t: string): number => t.split('{').length;
    matches.sort((a, b) => params(a.template) - params(b.template));
    return matches[0]?.template ?? null;
  }

  /** Errors of a response body against the declared schema of (method, path, status); null when valid. */
  validateResponse(method: string, path: string, status: number, body: unknown): { operation: string; errors: string | null } {
    const template = this.templateOf(path);
    if (!template) throw new Error(`no OpenAPI path for ${path}`);
    const operation = this.doc.paths[template]?.[method.toLowerCase()];
    if (!operation) throw new Error(`no OpenAPI operation ${method} ${template}`);
    const response = operation.responses?.[String(status)];
    if (!response) return { operation: operation.operationId ?? template, errors: `status ${status} is not declared` };
    if (!response.content) return { operation: operation.operationId ?? template, errors: body === undefined ? null : 'a body where none is declared' };
    const pointer = `${DOC_ID}#/paths/${template.replace(/~/g, '~0').replace(/\//g, '~1')}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
    const validate = this.byRef(pointer);
    return { operation: operation.operationId ?? template, errors: validate(body) ? null : this.ajv.errorsText(validate.errors, { separator: '; ' }) };
  }
}
