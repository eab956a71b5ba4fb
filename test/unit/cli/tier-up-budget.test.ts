import { describe, expect, it } from 'vitest';
import { INTERRUPT_BUDGET, raiseTierUpBudget, userChoseTierUpBudget } from '../../../src/cli/tier-up-budget.js';

describe('raiseTierUpBudget', () => {
  it('sets eight times V8 11’s default budget when the user named none', () => {
    const set: string[] = [];
    expect(raiseTierUpBudget(['--enable-source-maps', '--max-old-space-size=300'], (flag) => set.push(flag))).toBe(true);
    expect(set).toEqual([`--interrupt-budget=${8 * 67_584}`]);
    expect(INTERRUPT_BUDGET).toBe(540_672);
  });

  it('leaves a budget the user chose in their node flags alone', () => {
    const set: string[] = [];
    expect(raiseTierUpBudget(['--interrupt-budget=100000'], (flag) => set.push(flag))).toBe(false);
    expect(raiseTierUpBudget(['--interrupt_budget=100000'], (flag) => set.push(flag))).toBe(false);
    expect(set).toEqual([]);
  });

  it('does not take V8’s other --interrupt-budget-… flags for the budget', () => {
    expect(userChoseTierUpBudget(['--interrupt-budget-for-feedback-allocation=940'])).toBe(false);
    expect(userChoseTierUpBudget(['--interrupt-budget-factor-for-feedback-allocation=8'])).toBe(false);
  });
});
