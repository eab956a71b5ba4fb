/**
 * Imported first by the entry point (main.ts), for its effect: the tier-up budget is set before any
 * other module of the program runs (tier-up-budget.ts says why).
 */
import { raiseTierUpBudget } from './tier-up-budget.js';

raiseTierUpBudget();
