// Regression (issue 30 item 2, break-it trial): a 10,000-character query of one CJK word repeated
// (`検索` × 5,000) took 4.5-12.3 s per tool, because every repeat was analysed on its own and the
// whole run went to Intl.Segmenter at once (which costs more than linearly in its input). These
// tests pin the bounded work directly (what is built, what the segmenter is handed), not a timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_QUERY_PHRASES, analyseQuery, splitTaskTerms } from '../src/index.js';
import { unspacedWords } from '@docforge/store';

/** Runs `body` while counting the calls to `Intl.Segmenter.prototype.segment` and the characters handed to them. */
function countingSegments<T>(body: () => T): { value: T; calls: number; chars: number; longest: number } {
  const proto = Intl.Segmenter.prototype;
  const original = proto.segment;
  const seen = { calls: 0, chars: 0, longest: 0 };
  proto.segment = function segment(this: Intl.Segmenter, input: string) {
    seen.calls += 1;
    seen.chars += input.length;
    seen.longest = Math.max(seen.longest, input.length);
    return original.call(this, input);
  };
  try {
    return { value: body(), ...seen };
  } finally {
    proto.segment = original;
  }
}

test('a 10,000-character query of one repeated CJK word is one term, analysed once, segmented in bounded windows', () => {
  const query = '検索'.repeat(5_000);
  const { value: analysed, calls, chars, longest } = countingSegments(() => analyseQuery(query));
  assert.deepEqual(analysed.terms.map((t) => t.word), ['検索']);
  assert.equal(analysed.groups, 1);
  assert.deepEqual(analysed.dropped, []);
  // The run goes to the segmenter in windows of at most 256 characters, each character about once
  // (a window's last segment is segmented again by the next), and the repeated word is analysed
  // once: before, one call of 10,000 characters and 5,000 more, one per repeat.
  assert.ok(longest <= 256, `longest segmented input ${longest}`);
  assert.ok(chars <= 2 * query.length, `characters segmented ${chars}`);
  assert.ok(calls <= 2 * Math.ceil(query.length / 200) + 4, `segment calls ${calls}`);
  // The task context's focus analyses the same way.
  assert.deepEqual(splitTaskTerms(query), { terms: ['検索'], dropped: [] });
});

test('repeated words of any script are analysed once each; the term limit counts CJK words as Latin ones', () => {
  const latin = countingSegments(() => analyseQuery('refund '.repeat(1_400)));
  assert.deepEqual(latin.value.terms.map((t) => t.word), ['refund']);
  assert.equal(latin.calls, 0);
  // 40 distinct words mixing scripts (`検索100` is the words `検索` and `100`), repeated 20 times:
  // the first 32 distinct words are searched, the others reported once each as term_limit, exactly
  // as for the words written once.
  const words = Array.from({ length: 40 }, (_, i) => `検索${i + 100}`);
  const once = analyseQuery(words.join(' '));
  assert.equal(once.dropped.length, 41 - MAX_QUERY_PHRASES);
  const query = Array.from({ length: 20 }, () => words.join(' ')).join(' ');
  const { value: analysed, calls } = countingSegments(() => analyseQuery(query));
  assert.equal(analysed.groups, MAX_QUERY_PHRASES);
  assert.deepEqual(analysed.terms, once.terms);
  assert.deepEqual(analysed.dropped, once.dropped);
  assert.ok(analysed.dropped.every((d) => d.reason === 'term_limit'));
  // One segmentation per distinct chunk, and one per distinct word's identifier split: not per repeat.
  assert.ok(calls <= 2 * 40 + 4, `segment calls ${calls}`);
});

test('windowed segmentation gives the words the segmenter gives the whole run', () => {
  const whole = (run: string): string[] => [...new Intl.Segmenter('und', { granularity: 'word' }).segment(run)].filter((s) => s.isWordLike === true).map((s) => s.segment);
  for (const sentence of ['日本語のテキストを検索する', '全文検索エンジンは文書を索引する', 'ภาษาไทยเขียนติดกันโดยไม่เว้นวรรค', '中文文档需要分词才能搜索']) {
    assert.deepEqual(unspacedWords(sentence), whole(sentence), sentence);
    const long = sentence.repeat(Math.ceil(1_000 / sentence.length));
    assert.deepEqual(unspacedWords(long), whole(long), `${sentence} × ${Math.ceil(1_000 / sentence.length)}`);
  }
});
