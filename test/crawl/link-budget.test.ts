import { describe, expect, it } from 'vitest';
import { LinkBudget } from '../../src/crawl/link-budget.js';

describe('LinkBudget', () => {
  it('admits up to maxLinksPerPage links of a page, and counts the rest dropped', () => {
    const b = new LinkBudget({ maxLinksPerPage: 10, queueBudgetMultiple: 100, budget: 50, pendingAtStart: 0 });
    expect(b.admit(25, 1)).toBe(10);
    expect(b.dropped).toBe(15);
  });

  it('keeps the queue within the multiple of the budget left, reserving across concurrent pages', () => {
    const b = new LinkBudget({ maxLinksPerPage: 1000, queueBudgetMultiple: 2, budget: 50, pendingAtStart: 0 });
    b.addedOutside(1); // the seed
    // The seed started, nothing pending, 49 left: room for 98.
    expect(b.admit(60, 1)).toBe(60);
    // A second page handled before the first one's links are added: its reservation counts.
    expect(b.admit(60, 1)).toBe(38);
    b.settle(60, 60);
    b.settle(38, 38);
    expect(b.admit(5, 1)).toBe(0);
    expect(b.dropped).toBe(22 + 5);
    // Ten more started: 88 pending, 39 left: 2 × 39 − 88 < 0, no room.
    expect(b.admit(5, 11)).toBe(0);
  });

  it('frees room as pages are started, and counts links already queued as no growth', () => {
    const b = new LinkBudget({ maxLinksPerPage: 1000, queueBudgetMultiple: 1, budget: 10, pendingAtStart: 3 });
    // 10 left, 3 pending: room 7.
    expect(b.admit(7, 0)).toBe(7);
    b.settle(7, 2); // five were in the queue already
    // 5 pending: room 5.
    expect(b.admit(9, 0)).toBe(5);
    b.settle(5, 5);
    // 3 started: 7 left, 7 pending: no room.
    expect(b.admit(1, 3)).toBe(0);
  });

  it('admits nothing once the budget is spent', () => {
    const b = new LinkBudget({ maxLinksPerPage: 1000, queueBudgetMultiple: 10, budget: 5, pendingAtStart: 0 });
    expect(b.admit(3, 5)).toBe(0);
    expect(b.dropped).toBe(3);
  });
});
