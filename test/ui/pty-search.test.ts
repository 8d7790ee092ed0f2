// A bare word in `/` finds the one record whose description holds it, with the live count, at 80×24
// and 200×60 (the full-text index in the built app)

import {beforeAll, describe, expect, it} from 'vitest';
import {ptyDemo} from '../support/pty-fixtures.js';
import {KEYS} from '../support/pty.js';

// Bare words in `/` search the long text too (the full-text index), on the built app at 80×24
// and 200×60: a word that stands only in one record's description finds that record, with the
// live count while typing, and a word in no record finds none.

const demo = ptyDemo(200, 'sift-pty-search-');
const SIZES = [[80, 24], [200, 60]] as const;
const WORD = 'quokkafrobnicate';

const promptLine = (screen: string) => screen.split('\n').reverse().find(line => line.startsWith('/ ')) ?? '';

describe('a bare word in / searches the description', () => {
	beforeAll(() => {
		demo.store.createItem('bugs', {ticket: 'FTS-1', title: 'Upload stalls', status: 'new', description: `Steps:\n\n1. open the app\n2. the log says ${WORD} twice\n`}, {kind: 'human'});
	});

	for (const [cols, rows] of SIZES) {
		it(`at ${cols}×${rows}: the one record whose description holds the word is listed, counted while typing`, async () => {
			const app = demo.launch({args: ['--db', demo.db.dbPath], cols, rows, env: {SIFT_STATE_DIR: demo.db.stateDir}});
			await app.waitFor('BUG-0200');
			app.type('/');
			await app.waitFor(/^\/ /m);
			app.type(WORD);
			await app.waitFor(screen => promptLine(screen).includes('1 match'), 10_000, 'the live count');
			app.press(KEYS.enter);
			const found = await app.waitFor(screen => screen.includes('FTS-1') && !screen.includes('BUG-0200'), 10_000, 'the record found by its description');
			expect(found).toContain('Upload stalls');
			expect(found.split('\n').filter(line => /\b(BUG-\d{4}|FTS-1)\b/.test(line) && !line.startsWith('sift'))).toHaveLength(1);
			app.press(KEYS.escape);
			app.type('/');
			await app.waitFor(/^\/ /m);
			app.type(`${WORD}zz`);
			await app.waitFor(screen => promptLine(screen).includes('0 matches'), 10_000, 'no match for another word');
			app.press(KEYS.escape);
			expect(await app.quit()).toBe(0);
		});
	}
});
