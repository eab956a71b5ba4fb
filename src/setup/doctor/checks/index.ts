/**
 * The checks `payexport doctor` runs, in the order a run meets their subjects. The config's own
 * check comes first in run-doctor.ts (every other check reads the loaded config). A new check is
 * one more object here — or, for a check owned elsewhere (a delivery destination's probe, the
 * price cache's coverage), passed in as `extraChecks` to runDoctor.
 */
import type { DoctorCheck } from '../check.js';
import { apiAccessCheck } from './api-access.js';
import { deliveryDestinationsCheck } from './delivery-destinations.js';
import { keyFilesCheck } from './key-files.js';
import { notifyDestinationsCheck } from './notify-destinations.js';
import { outputRootCheck } from './output-root.js';
import { outputScopeCheck } from './output-scope.js';
import { priceCoverageCheck } from './price-coverage.js';
import { serviceClockCheck } from './service-clock.js';
import { signingKeyCheck } from './signing-key.js';
import { snapshotCheck } from './snapshot.js';

export const DEFAULT_CHECKS: readonly DoctorCheck[] = [keyFilesCheck, apiAccessCheck, serviceClockCheck, snapshotCheck, outputRootCheck, outputScopeCheck, priceCoverageCheck, notifyDestinationsCheck, deliveryDestinationsCheck, signingKeyCheck];
