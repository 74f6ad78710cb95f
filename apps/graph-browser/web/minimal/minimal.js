// Minimal page of the graph-browser worker (issue 12): proves the JSON API end to end (overview,
// search, node, neighborhood, source). The real UI is apps/graph-browser/web (issue 13).
const $ = (id) => document.getElementById(id);

async function api(path) {
  const response = await fetch(path, { credentials: 'same-origin' });
  const body = await response.json();
  if (!response.ok) throw new Error(`${body.error.code}: ${body.error.message}`);
  return body;
}

function item(node, onClick) {
  const li = document.createElement('li');
  const button = document.createElement('button');
  button.textContent = `${node.leaf} (${node.kind})`;
  button.title = node.id;
  button.addEventListener('click', () => onClick(node.id));
  li.append(button);
  return li;
}

async function focus(id) {
  try {
    const enc = encodeURIComponent(id);
    const [detail, hood, source] = await Promise.all([api(`/api/nodes/${enc}`), api(`/api/nodes/${enc}/neighborhood`), api(`/api/nodes/${enc}/source`)]);
    $('focus-title').textContent = `${detail.node.title} (${detail.node.kind})`;
    $('focus').textContent = detail.node.summary;
    $('neighbors').replaceChildren(...hood.edges.map((edge) => {
      const otherId = edge.source === id ? edge.target : edge.source;
      const other = hood.nodes.find((n) => n.id === otherId);
      const li = item(other, focus);
      li.prepend(`${edge.source === id ? '→' : '←'} ${edge.relation} `);
      return li;
    }));
    $('source').replaceChildren(...source.lines.map((text, i) => {
      const line = source.first_line + i;
      const span = document.createElement('span');
      span.textContent = `${String(line).padStart(5)}  ${text}\n`;
      if (line >= source.highlight.start_line && line <= source.highlight.end_line) span.className = 'hl';
      return span;
    }));
    $('status').textContent = '';
  } catch (error) {
    $('status').textContent = String(error.message);
  }
}

async function start() {
  try {
    const overview = await api('/api/overview');
    $('snapshot').textContent = `${overview.project_id} · generation ${overview.signature.generation} · ${overview.counts.nodes} nodes`;
    $('list').replaceChildren(...overview.entries.map((n) => item(n, focus)));
    const params = new URLSearchParams(location.search);
    if (params.get('focus')) await focus(params.get('focus'));
    else if (params.get('q')) { $('q').value = params.get('q'); await runSearch(); }
  } catch (error) {
    $('status').textContent = String(error.message);
  }
}

async function runSearch(event) {
  event?.preventDefault();
  try {
    const result = await api(`/api/search?q=${encodeURIComponent($('q').value)}`);
    $('list').replaceChildren(...result.items.map((hit) => item(hit.node, focus)));
  } catch (error) {
    $('status').textContent = String(error.message);
  }
}

$('search').addEventListener('submit', runSearch);
start();
