/**
 * What the catalogue says of each check: enough for the Overview, the Definitions sheet and an
 * accountant re-performing it.
 */
import type { Severity, SubjectKind } from '../../model/results.js';

export interface CheckDefinition {
  id: string;
  severity: Severity;
  subject_kind: SubjectKind;
  /** one line for the Overview sheet */
  description: string;
  /** the rule, precise enough for an accountant to re-perform it */
  rule: string;
}
