import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import * as bills from '../../../src/api/wire/bills.js';
import * as enums from '../../../src/api/wire/enums.js';
import * as ledger from '../../../src/api/wire/ledger.js';
import { loadOpenApi, type OpenApi } from '../../support/sim/openapi.js';

/**
 * src/api/wire/ (every file of it) against the official OpenAPI document: the exported enum arrays equal the
 * document's enums, and every property a mapped schema declares is declared on the wire type
 * (read with the TypeScript compiler API, so optional and inherited members count). Extra wire
 * properties are fine: they describe legacy shapes the document no longer lists.
 */

type Schema = Record<string, unknown>;

let doc: OpenApi;
let checker: ts.TypeChecker;
let wireFiles: ts.SourceFile[];

/** The enum arrays of every wire file that declares some. */
const wire = { ...enums, ...ledger, ...bills };

const schemas = (): Record<string, Schema> => doc.components.schemas;

function deref(schema: Schema): Schema {
  const ref = schema['$ref'];
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  const target = schemas()[name];
  if (!target) throw new Error(`unresolved ${ref}`);
  return deref(target);
}

/** Property names an object schema declares, through $ref, allOf and (for oneOf of objects) the union of members. */
function openApiProperties(schema: Schema): Set<string> {
  const s = deref(schema);
  const out = new Set<string>(Object.keys((s['properties'] as Schema | undefined) ?? {}));
  for (const part of (s['allOf'] as Schema[] | undefined) ?? []) for (const p of openApiProperties(part)) out.add(p);
  for (const part of (s['oneOf'] as Schema[] | undefined) ?? []) {
    const member = deref(part);
    if (member['type'] === 'object' || member['properties'] || member['allOf']) for (const p of openApiProperties(member)) out.add(p);
  }
  return out;
}

function enumOf(name: string): string[] {
  return ((deref({ $ref: `#/components/schemas/${name}` })['enum'] as string[] | undefined) ?? []).slice().sort();
}

function wireType(name: string): ts.Type {
  const symbol = wireFiles
    .map((file) => checker.getSymbolAtLocation(file))
    .flatMap((moduleSymbol) => (moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []))
    .find((s) => s.name === name);
  if (!symbol) throw new Error(`src/api/wire/ declares no type ${name}`);
  return checker.getDeclaredTypeOfSymbol(symbol);
}

/** Properties of a wire type; for a union, of the member whose `discriminant` property is `value`, else of every member. */
function wireProperties(name: string, discriminant?: { property: string; value: string }): Set<string> {
  let type = wireType(name);
  if (discriminant && type.isUnion()) {
    const member = type.types.find((t) => {
      const p = t.getProperty(discriminant.property);
      return p !== undefined && checker.typeToString(checker.getTypeOfSymbol(p)) === JSON.stringify(discriminant.value);
    });
    if (!member) throw new Error(`${name} has no member with ${discriminant.property} = ${discriminant.value}`);
    type = member;
  }
  const props = type.isUnion() ? type.types.flatMap((t) => t.getProperties()) : checker.getPropertiesOfType(type);
  return new Set(props.map((p) => p.name));
}

function missing(openApi: Set<string>, wireProps: Set<string>): string[] {
  return [...openApi].filter((p) => !wireProps.has(p)).sort();
}

beforeAll(() => {
  doc = loadOpenApi();
  const dir = fileURLToPath(new URL('../../../src/api/wire/', import.meta.url));
  const files = readdirSync(dir).filter((name) => name.endsWith('.ts')).map((name) => join(dir, name));
  const program = ts.createProgram(files, { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true, types: [] });
  checker = program.getTypeChecker();
  wireFiles = files.map((file) => {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`${file} not loaded`);
    return source;
  });
  expect(wireFiles.length).toBeGreaterThan(5);
});

describe('the wire enums equal the OpenAPI enums', () => {
  it.each([
    ['NETWORKS', 'Network'],
    ['PAYMENT_KINDS', 'PaymentKind'],
    ['PAYMENT_CATEGORIES', 'PaymentCategory'],
    ['PAYMENT_ROUTES', 'PaymentRoute'],
    ['SEND_STATUSES', 'SendStatus'],
    ['RECEIVE_STATUSES', 'ReceiveStatus'],
    ['PAYMENT_STATUSES', 'PaymentStatus'],
    ['PAYMENT_DIRECTIONS', 'PaymentDirection'],
    ['SORT_KEYS', 'SortKey'],
    ['SORT_ORDERS', 'SortOrder'],
    ['LEDGER_SORT_KEYS', 'LedgerSortKey'],
    ['SWAP_STEPS', 'SwapPaymentStep'],
    ['BILL_STATUSES', 'BillStatus'],
    ['RECONCILIATION_FREQUENCIES', 'ReconciliationFrequency'],
    ['SETTLEMENT_TYPES', 'SettlementType'],
  ] as const)('%s = %s', (constName, schemaName) => {
    expect([...(wire[constName] as readonly string[])].sort()).toEqual(enumOf(schemaName));
  });

  it('LEDGER_EVENT_TYPES = the tags of LedgerEvent', () => {
    const tags = (schemas()['LedgerEvent']?.['oneOf'] as Schema[]).map((m) => (((m['allOf'] as Schema[])[1]?.['properties'] as Schema)['type'] as Schema)['enum'] as string[]).flat();
    expect([...wire.LEDGER_EVENT_TYPES].sort()).toEqual(tags.sort());
  });
});

describe('the wire types declare every property of the mapped OpenAPI schemas', () => {
  const objectPairs: Array<[string, string]> = [
    ['Amount', 'WireAmount'],
    ['SignedAmount', 'WireSignedAmount'],
    ['Wallet', 'WireWallet'],
    ['Balance', 'WireBalance'],
    ['Hold', 'WireHold'],
    ['PendingSettlement', 'WirePendingSettlement'],
    ['NamedAsset', 'WireNamedAsset'],
    ['SupportedAssets', 'WireSupportedAssets'],
    ['MarketQuote', 'WireMarketQuote'],
    ['PeerQuote', 'WirePeerQuote'],
    ['AmountExchange', 'WireExchange'],
    ['OnChainPaymentReceipt', 'WireOnChainReceipt'],
    ['LightningPaymentReceipt', 'WireLightningReceipt'],
    ['ShortCircuitPaymentReceipt', 'WireShortCircuitReceipt'],
    ['SwapPaymentReceipt', 'WireSwapReceipt'],
    ['UsdPayment', 'WireUsdTransfer'],
    ['PaymentProcessingFee', 'WireProcessingFeeTerms'],
    ['PaymentBreakdown', 'WirePaymentBreakdown'],
    ['SendError', 'WirePaymentError'],
    ['ReceiveErrorWire', 'WirePaymentError'],
    ['Payments', 'WirePaymentsPage'],
    ['Ledger', 'WireLedgerPage'],
    ['ProcessingFee', 'WireLedgerProcessingFee'],
    ['WalletPaymentBreakdown', 'WireWalletPaymentBreakdown'],
    ['PaymentBucketSummary', 'WireSummaryBucket'],
    ['PaymentCountSummary', 'WireCountSummary'],
    ['PaymentEnvironmentSummary', 'WireEnvironmentCountSummary'],
    ['PaymentLineOfCreditSummary', 'WireLineOfCreditSummary'],
    ['PaymentSummary', 'WireEnvironmentSummary'],
    ['PaymentWalletSummary', 'WireWalletSummary'],
    ['WalletPolicies', 'WireWalletPolicies'],
    ['SendPayment', 'WireSendPayment'],
    ['ReceivePayment', 'WireReceivePayment'],
    ['BillRead', 'WireBill'],
    ['BillPage', 'WireBillPage'],
    ['Invoice', 'WireInvoice'],
    ['LineItem', 'WireBillLineItem'],
    ['ProcessingFees', 'WireProcessingFees'],
    ['PaymentActivity', 'WirePaymentActivity'],
    ['DirectionalPaymentActivity', 'WireDirectionalPaymentActivity'],
    ['PaymentActivityBucket', 'WirePaymentActivityBucket'],
    ['BillSummary', 'WireBillSummary'],
    ['BillCurrencySummary', 'WireBillCurrencySummary'],
    ['BillCurrencyStatusSummary', 'WireBillCurrencyStatusSummary'],
  ];
  it.each(objectPairs)('%s → %s', (schemaName, typeName) => {
    expect(missing(openApiProperties({ $ref: `#/components/schemas/${schemaName}` }), wireProperties(typeName))).toEqual([]);
  });

  const dataTypes: Record<string, Record<string, string>> = {
    PaymentSendType: { bolt11: 'WireSendBolt11Data', onchain: 'WireSendOnchainData', bip21: 'WireSendBip21Data', taprootasset: 'WireSendTaprootAssetData', usdbatch: 'WireUsdBatchData' },
    PaymentReceiveType: { bolt11: 'WireReceiveBolt11Data', onchain: 'WireReceiveOnchainData', bip21: 'WireReceiveBip21Data', taprootasset: 'WireReceiveTaprootAssetData', usdbatch: 'WireUsdBatchData' },
  };
  it.each(Object.entries(dataTypes).flatMap(([schema, kinds]) => Object.entries(kinds).map(([kind, typeName]) => [schema, kind, typeName] as const)))('%s %s data → %s', (schemaName, kind, typeName) => {
    const member = (schemas()[schemaName]?.['oneOf'] as Schema[]).find((m) => (((m['properties'] as Schema)['type'] as Schema)['enum'] as string[])[0] === kind) as Schema;
    const data = (member['properties'] as Schema)['data'] as Schema;
    expect(missing(openApiProperties(data), wireProperties(typeName))).toEqual([]);
  });

  it.each([
    ['CreditedEvent', 'credited'],
    ['CapturedEvent', 'captured'],
    ['HeldEvent', 'held'],
    ['ReleasedEvent', 'released'],
    ['DepositedEvent', 'deposited'],
    ['WithdrawnEvent', 'withdrawn'],
  ])('%s → WireLedgerEvent[type=%s]', (schemaName, tag) => {
    const expected = openApiProperties({ $ref: `#/components/schemas/${schemaName}` });
    expected.add('type');
    expect(missing(expected, wireProperties('WireLedgerEvent', { property: 'type', value: tag }))).toEqual([]);
  });

  it('the error envelope', () => {
    const withCode = deref({ $ref: '#/components/schemas/ApiErrorWithCodeAndContext_PaymentErrorRequiredFieldContextType_PaymentErrorRequiredFieldCode_FieldContext' });
    const error = wireType('WireErrorBody').getProperty('error');
    if (!error) throw new Error('WireErrorBody has no error');
    const declared = new Set(checker.getPropertiesOfType(checker.getTypeOfSymbol(error)).map((p) => p.name));
    expect(missing(new Set(Object.keys(withCode['properties'] as Schema)), declared)).toEqual([]);
  });

  it('detects a gap (the check is not vacuous)', () => {
    expect(missing(openApiProperties({ $ref: '#/components/schemas/QuotingRead' }), wireProperties('WireWallet'))).toContain('consumed_at');
    expect(wireProperties('WireWallet').size).toBeGreaterThan(10);
  });
});
