// Pins the new-user trial 48 finding (issue 30): a README that opens with a centred HTML `<h1>` and
// only then a Markdown `## Description` (yargs 18.2.0, whose first lines are quoted below; MIT
// licence) was titled "Description". In a README the first heading in document order is the title,
// an HTML `<h1>` counting as one; an HTML `<h3>` does not (axios 1.21.1 opens with a sponsors
// `<h3>`). Elsewhere an HTML `<h1>` is no title: every page of fastify's docs opens with the banner
// `<h1 align="center">Fastify</h1>` before its own `## Hooks`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { htmlHeadingOne, markdownFacts } from '../src/markdown-facts.js';

const YARGS_README_START = `<p align="center">
  <img width="250" src="https://raw.githubusercontent.com/yargs/yargs/main/yargs-logo.png">
</p>
<h1 align="center"> Yargs </h1>
<p align="center">
  <b >Yargs be a node.js library fer hearties tryin' ter parse optstrings</b>
</p>

<br>

## Description
Yargs helps you build interactive command line tools, by parsing arguments and generating an elegant user interface.
`;

test('yargs: the HTML <h1> before the first Markdown heading is the title', () => {
  assert.equal(markdownFacts(YARGS_README_START, 1, 'README.md').firstHeading, 'Yargs');
});

test('axios: an HTML <h3> is no title; the first Markdown heading stays the title', () => {
  const axios = '<h3 align="center">💎 Platinum sponsors <br /></h3>\n<table align="center"></table>\n\n## Table of contents\n\nText.\n';
  assert.equal(markdownFacts(axios, 1, 'README.md').firstHeading, 'Table of contents');
});

test('fastify: a docs page keeps its Markdown heading under the site banner <h1>; a README of any case and folder takes the <h1>', () => {
  const hooks = '<h1 align="center">Fastify</h1>\n\n## Hooks\n\nHooks are registered with the `fastify.addHook` method.\n';
  assert.equal(markdownFacts(hooks, 1, 'docs/Reference/Hooks.md').firstHeading, 'Hooks');
  assert.equal(markdownFacts(hooks, 1, 'Readme.md').firstHeading, 'Fastify');
  assert.equal(markdownFacts(hooks, 1, 'packages/web/README.markdown').firstHeading, 'Fastify');
  assert.equal(markdownFacts(hooks, 1, 'README.old.md').firstHeading, 'Hooks');
});

test('a Markdown heading before an HTML <h1> stays the title; inner tags, entities and blanks are cleaned', () => {
  assert.equal(markdownFacts('# First\n\n<h1>Second</h1>\n', 1, 'README.md').firstHeading, 'First');
  assert.equal(htmlHeadingOne('<H1 class="x">\n  <a href="/">Fast &amp; <b>small</b></a>\n</H1>'), 'Fast & small');
  assert.equal(htmlHeadingOne('<h1><img src="logo.svg" alt="logo"></h1>\n<h1>Named</h1>'), 'Named');
  assert.equal(htmlHeadingOne('<h10>no</h10><header>no</header>'), null);
});

test('an HTML <h1> inside the skipped lines gives no title', () => {
  assert.equal(markdownFacts('<h1>Skipped</h1>\n\n# Kept\n', 1, 'README.md', { from: 1, to: 1 }).firstHeading, 'Kept');
});
