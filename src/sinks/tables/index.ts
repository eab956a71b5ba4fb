/** Every report table, in file and sheet order (docs/contracts.md#report-folder). */
import type { AnyTableSpec } from '../../model/column-spec.js';
import { BALANCES_TABLE } from './balances.js';
import { BILLS_TABLE } from './bills.js';
import { EXCEPTIONS_TABLE } from './exceptions.js';
import { FEE_RATES_TABLE } from './fee-rates.js';
import { FEES_TABLE } from './fees.js';
import { LEDGER_TABLE } from './ledger.js';
import { OPEN_ITEMS_TABLE } from './open-items.js';
import { PAYMENTS_TABLE } from './payments.js';
import { SUMMARY_CHECK_TABLE } from './summary-check.js';

export { BALANCES_TABLE, BILLS_TABLE, EXCEPTIONS_TABLE, FEE_RATES_TABLE, FEES_TABLE, LEDGER_TABLE, OPEN_ITEMS_TABLE, PAYMENTS_TABLE, SUMMARY_CHECK_TABLE };

export const ALL_TABLES: readonly AnyTableSpec[] = [PAYMENTS_TABLE, LEDGER_TABLE, FEES_TABLE, BALANCES_TABLE, SUMMARY_CHECK_TABLE, BILLS_TABLE, FEE_RATES_TABLE, EXCEPTIONS_TABLE, OPEN_ITEMS_TABLE];
