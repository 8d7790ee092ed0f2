// No ICU service before the TUI's first frame (docs/architecture.md#start-up): the first one a
// process makes loads ICU's data (~13 ms), and the first frame needs none. A preload wraps every
// Intl constructor and the locale methods, and notes each use (with its stack) until the first frame (the first
// write with a ticket in it) is written; the built app runs in a real pseudo-terminal at both
// sizes. Before, string-width, ansi-tokenize and slice-ansi each made an Intl.Segmenter when
// loaded, and the header's counts went through toLocaleString.

import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {ptyDemo} from '../support/pty-fixtures.js';

const PRELOAD = String.raw`
const {writeFileSync} = require('node:fs');
const seen = [];
let framed = false;
const note = what => { if (!framed) seen.push(what + ' ' + new Error().stack); };
for (const name of Object.getOwnPropertyNames(Intl).filter(name => typeof Intl[name] === 'function' && /^[A-Z]/.test(name))) {
	const Original = Intl[name];
	Intl[name] = new Proxy(Original, {construct(target, args, newTarget) { note('Intl.' + name); return Reflect.construct(target, args, newTarget); }});
}
for (const [owner, label, methods] of [[Number.prototype, 'Number', ['toLocaleString']], [Date.prototype, 'Date', ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']], [String.prototype, 'String', ['localeCompare', 'toLocaleUpperCase', 'toLocaleLowerCase']], [Array.prototype, 'Array', ['toLocaleString']]]) {
	for (const method of methods) {
		const original = owner[method];
		owner[method] = function (...args) { note(label + '.' + method); return original.apply(this, args); };
	}
}
const write = process.stdout.write;
process.stdout.write = function (chunk, ...rest) {
	if (!framed && /BUG-\d+/.test(String(chunk))) {
		framed = true;
		writeFileSync(process.env.SIFT_TEST_ICU_LOG, JSON.stringify(seen));
	}
	return write.call(this, chunk, ...rest);
};
`;

const demo = ptyDemo(2000, 'sift-pty-icu-');
const dir = mkdtempSync(path.join(tmpdir(), 'sift-icu-'));
const preload = path.join(dir, 'note-icu.cjs');
writeFileSync(preload, PRELOAD);
afterAll(() => rmSync(dir, {recursive: true, force: true}));

describe('the first frame without ICU', () => {
	for (const [cols, rows] of [[80, 24], [200, 60]] as const) {
		it(`at ${cols}×${rows}: no Intl service and no locale method runs before the first rows are written`, async () => {
			const log = path.join(dir, `icu-${cols}x${rows}.json`);
			const app = demo.launch({args: ['--db', demo.db.dbPath], cols, rows, nodeArgs: ['--require', preload], env: {SIFT_STATE_DIR: demo.db.stateDir, SIFT_TEST_ICU_LOG: log}});
			await app.waitFor(/row 1\b/, 20_000);
			expect(await app.waitFor(/BUG-\d{4}/, 10_000)).toMatch(/2,000 items/);
			expect(JSON.parse(readFileSync(log, 'utf8'))).toEqual([]);
			expect(await app.quit()).toBe(0);
		});
	}
});
