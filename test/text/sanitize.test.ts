// Nothing a terminal would act on gets through.

import {describe, expect, it} from 'vitest';
import {generateBugItems} from '../../demo-data/generate.js';
import {isClean, safeJson, sanitize, sanitizeValue} from '../../source/text/sanitize.js';
import {cellWidth, fit, truncate} from '../../source/ui/width.js';

// Nothing a terminal would act on: C0 (but newline where allowed), DEL, C1, bidi controls, separators.
const DANGEROUS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('sanitize', () => {
	it('shows a CSI color sequence visibly escaped and inert', () => {
		expect(sanitize('Crash: \u001b[31mFATAL\u001b[0m')).toBe('Crash: ␛[31mFATAL␛[0m');
	});

	it('escapes an OSC window-title set and its BEL terminator', () => {
		expect(sanitize('x \u001b]0;pwned\u0007 y')).toBe('x ␛]0;pwned␇ y');
	});

	it('escapes OSC 8 hyperlinks and OSC 52 clipboard writes terminated by ST', () => {
		const text = sanitize('\u001b]8;;http://evil\u001b\\link\u001b]8;;\u001b\\ \u001b]52;c;cGF5bG9hZA==\u001b\\');
		expect(text).not.toMatch(DANGEROUS);
		expect(text).toContain('␛]8;;http://evil␛\\link');
		expect(text).toContain('␛]52;c;');
	});

	it('writes bidi overrides and isolates as \\u escapes', () => {
		expect(sanitize('invoice\u202etxt.exe')).toBe('invoice\\u202etxt.exe');
		expect(sanitize('a\u2066b\u2069c\u200fd')).toBe('a\\u2066b\\u2069c\\u200fd');
	});

	it('writes C1 controls (the one-byte CSI) as \\x escapes and DEL as a picture', () => {
		expect(sanitize('a\u009b31mb\u007f')).toBe('a\\x9b31mb␡');
	});

	it('keeps newlines only in multi-line text; tabs become spaces', () => {
		expect(sanitize('one\ntwo\tthree')).toBe('one␊two  three');
		expect(sanitize('one\r\ntwo', {multiline: true})).toBe('one\ntwo');
		expect(sanitize('bell\u0007', {multiline: true})).toBe('bell␇');
	});

	it('shows invisible format characters as marks, but keeps the ones an emoji is built of', () => {
		expect(sanitize('12345 \u200b\u2060\u00ad\ufeffNOT')).toBe('12345 \\u200b\\u2060\\u00ad\\ufeffNOT');
		expect(sanitize('a\u200cb\u200dc\u034fd\ufe0fe\u{e0041}')).toBe('a\\u200cb\\u200dc\\u034fd\\ufe0fe\\u{e0041}');
		const emoji = '👩\u200d💻 ❤\ufe0f 1\ufe0f\u20e3 🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f} 👍🏽';
		expect(sanitize(emoji)).toBe(emoji);
		expect(isClean(emoji)).toBe(true);
		expect(isClean('x\u200by')).toBe(false);
		expect(safeJson({text: 'a\u200bb\u{e0041}'})).toBe('{"text":"a\\u200bb\\udb40\\udc41"}');
	});

	it('returns clean text unchanged (the fast path)', () => {
		const text = 'Sync stalls after resume — 日本語 ok';
		expect(sanitize(text)).toBe(text);
		expect(isClean(text)).toBe(true);
	});

	it('renders non-strings as compact JSON, escaped too', () => {
		expect(sanitizeValue({name: 'a\u001b[2Jb'})).toBe('{"name":"a\\u001b[2Jb"}');
		expect(sanitizeValue(null)).toBe('');
		expect(sanitizeValue(['x\u202ey'])).toBe('["x\\u202ey"]');
	});

	it('leaves nothing dangerous in any hostile demo title', () => {
		const items = [...generateBugItems({count: 2100, seed: 1, now: new Date('2025-01-01T00:00:00Z')})];
		const hostile = items.map(item => String(item.values.title)).filter(title => DANGEROUS.test(title));
		expect(hostile.length).toBeGreaterThanOrEqual(4);
		for (const title of hostile) {
			expect(sanitize(title)).not.toMatch(DANGEROUS);
		}
	});
});

describe('cell widths', () => {
	it('counts wide characters as two cells and cuts with a marker', () => {
		expect(cellWidth('日本')).toBe(4);
		expect(truncate('abcdef', 4)).toBe('abc…');
		expect(truncate('abcdef', 4, '~')).toBe('abc~');
		expect(fit('日本語テキスト', 7)).toBe('日本語…');
		expect(cellWidth(fit('ab', 5))).toBe(5);
	});

	it('counts format characters as no cells, as Ink does', () => {
		expect(cellWidth('a\u00ad\u2060\ufeff\u200bb')).toBe(2);
		expect(cellWidth('👩\u200d💻')).toBe(4);
	});
});
