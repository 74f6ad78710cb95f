// Pins what `used_tokens` of docforge_get_task_context counts (issue 30, new-user trial: "counts every selected
// entry, not the page shown"): the estimated tokens of the capsule's selected evidence, every page of it, and
// nothing of what the budget left out (token_limit omissions). It is a capsule total like selected_items and
// omitted_items: the same on every page, never above the budget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedExampleProject } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

interface Item {
  type: string;
  reason?: string;
  estimated_tokens: number;
}

interface TaskPage {
  used_tokens: number;
  selected_items: number;
  omitted_items: number;
  items: Item[];
  page: { next_cursor: string | null };
}

test('used_tokens is the estimated tokens of the selected evidence of all pages, without the budget omissions, the same on every page', async () => {
  const s = await useServer(sharedExampleProject());
  for (const budget of [4000, 1500, 300]) {
    const pages: TaskPage[] = [];
    let cursor: string | null = null;
    do {
      const r = await s.call('docforge_get_task_context', { task_kind: 'change', task: 'ledger capture retry', budget, limit: 3, ...(cursor === null ? {} : { cursor }) });
      assert.equal(r.ok, true, JSON.stringify(r.error));
      const page = r.result as unknown as TaskPage;
      pages.push(page);
      cursor = page.page.next_cursor;
    } while (cursor !== null && pages.length < 100);
    const items = pages.flatMap((p) => p.items);
    const selected = items.filter((i) => i.type !== 'omission');
    const budgetOmissions = items.filter((i) => i.type === 'omission' && i.reason === 'token_limit');
    const sum = selected.reduce((total, i) => total + i.estimated_tokens, 0);
    for (const page of pages) {
      assert.equal(page.used_tokens, sum, `budget ${budget}: used_tokens is the selected evidence of every page`);
      assert.equal(page.selected_items, selected.length);
      assert.equal(page.omitted_items, items.length - selected.length);
    }
    assert.ok(sum <= budget, `budget ${budget}: ${sum}`);
    if (budget === 300) assert.ok(budgetOmissions.length > 0, 'a small budget leaves evidence out, and it is not counted');
    const omittedTokens = budgetOmissions.reduce((total, i) => total + i.estimated_tokens, 0);
    assert.ok(budgetOmissions.length === 0 || sum + omittedTokens > budget, 'what the budget left out would not have fit');
  }
});
