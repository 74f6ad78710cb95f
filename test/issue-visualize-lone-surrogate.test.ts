// Break-it trial (issue 30): `docforge_visualize {query: "ab\uD800cd"}` answered `internal_error`
// ("URI malformed"), because the query is percent-encoded into the viewer URL and a lone surrogate
// has no UTF-8 form. Such a query is now `invalid_arguments` naming /query, before any viewer
// manager or worker starts; a well-formed surrogate pair (an emoji) is still an ordinary query.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedExampleProject } from './helpers/projects.js';
import { useServer } from './helpers/server.js';
import { useViewerRuntime } from './helpers/viewer.js';

test('a visualize query with a lone surrogate is invalid_arguments and starts nothing', async () => {
  const runtime = useViewerRuntime();
  const server = await useServer(sharedExampleProject(), { env: runtime.env });
  for (const query of ['ab\uD800cd', '\uDFFF', 'ledger \uDE80']) {
    const e = await server.call('docforge_visualize', { query });
    assert.equal(e.ok, false, JSON.stringify(query));
    assert.equal(e.error!.code, 'invalid_arguments', e.error!.message);
    assert.equal(e.error!.details.argument, 'query');
    assert.match(e.error!.message, /^\/query must be well-formed Unicode/);
  }
  assert.equal(await runtime.manager(), null, 'no viewer manager was started');
  const search = await server.call('docforge_search', { query: 'ledger \uD83D\uDE80' });
  assert.equal(search.ok, true, 'the server keeps serving; an emoji is ordinary text');
});
