import {describe, expect, it} from 'vitest';
import {bugsChannel} from '../../demo-data/generate.js';
import {ptyDemo} from '../support/pty-fixtures.js';
import {KEYS} from '../support/pty.js';

// Every key of the key table in every scope, on the built app at 80×24 and at 200×60: nothing
// crashes, the header stays, and no line is wider than the terminal (xterm would wrap it).

const statusAt = bugsChannel.fields.filter(field => field.type !== 'formula').findIndex(field => field.key === 'status');
const ctrl = (letter: string) => String.fromCodePoint(letter.codePointAt(0)! - 96);

/** A walk through the list, the pane, every overlay and its keys; names for failure messages. */
const WALK: Array<[string, string]> = [
	...(['j', 'k'] as const).map(key => [key, key] as [string, string]),
	['PgDn', KEYS.pageDown], ['PgUp', KEYS.pageUp], ['Ctrl+D', ctrl('d')], ['Ctrl+U', ctrl('u')],
	['G', 'G'], ['k', 'k'], ['g', 'g'], ['End', KEYS.end], ['Home', KEYS.home],
	['Enter (detail)', KEYS.enter], ['J', 'J'], ['K', 'K'], ['Tab', KEYS.tab], ['Esc (pane)', KEYS.escape],
	['Space', KEYS.space], ['V', 'V'], ['V', 'V'], ['k', 'k'], ['Space', KEYS.space],
	['e', 'e'], ['j', 'j'], ['k', 'k'], ['Tab', KEYS.tab], ['k', 'k'], ['Enter (text field)', KEYS.enter], ['type', 'x'], ['Backspace', KEYS.backspace], ['Esc (to fields)', KEYS.escape], ['Esc (close)', KEYS.escape],
	['e', 'e'], ...Array.from({length: statusAt}, () => ['j', 'j'] as [string, string]), ['Enter (options)', KEYS.enter], ['Space', KEYS.space], ['j', 'j'], ['k', 'k'], ['Esc (to fields)', KEYS.escape], ['q (close)', 'q'],
	['f', 'f'], ['j', 'j'], ['k', 'k'], ['Enter (values)', KEYS.enter], ['j', 'j'], ['Esc (to fields)', KEYS.escape], ['Esc (close)', KEYS.escape],
	['/', '/'], ['type', 'zz'], ['Backspace', KEYS.backspace], ['Esc', KEYS.escape],
	['u', 'u'], ['x', 'x'], ['r', 'r'],
	['F', 'F'], ['j', 'j'], ['k', 'k'], ['n', 'n'], ['p', 'p'], ['right', KEYS.right], ['left', KEYS.left], ['t', 't'], ['Esc (typing)', KEYS.escape], ['d', 'd'], ['n (keep it)', 'n'], ['Enter', KEYS.enter], ['Esc (typing)', KEYS.escape], ['Esc (close)', KEYS.escape],
	['R', 'R'], ['j', 'j'], ['k', 'k'], ['Enter', KEYS.enter], ['Esc', KEYS.escape], ['Esc (close)', KEYS.escape],
	['?', '?'], ['j', 'j'], ['k', 'k'], ['PgDn', KEYS.pageDown], ['Space', KEYS.space], ['PgUp', KEYS.pageUp], ['Ctrl+D', ctrl('d')], ['Ctrl+U', ctrl('u')], ['? (close)', '?'],
	// The runs board: nothing on it yet, then watch mode's (no new items: no run starts). It is
	// closed with b, not Esc: an Esc and the c after it read in one chunk would be Alt+c.
	['X', 'X'], ['b (empty)', 'b'], ['W', 'W'], ['b', 'b'], ['j', 'j'], ['k', 'k'], ['Enter (focus)', KEYS.enter], ['Enter (board)', KEYS.enter], ['x', 'x'], ['X', 'X'], ['W (off)', 'W'], ['b (close)', 'b'],
	['c', 'c'], ['Esc (cancel)', KEYS.escape],
];

const demo = ptyDemo(300, 'sift-walk-');

const settle = () => new Promise(resolve => setTimeout(resolve, 60));

describe('a walk with every key', () => {
	for (const [cols, rows] of [[80, 24], [200, 60]] as const) {
		it(`at ${cols}×${rows}: no crash, no line wider than the terminal`, async () => {
			const app = demo.launch({args: ['--db', demo.db.dbPath], cols, rows, env: {SIFT_STATE_DIR: demo.db.stateDir}});
			await app.waitFor('BUG-0300');
			for (const [name, key] of WALK) {
				app.press(key);
				// eslint-disable-next-line no-await-in-loop
				await settle();
				expect(app.exitCode, `after ${name}`).toBeNull();
				const buffer = app.term.buffer.active;
				const wrapped = Array.from({length: rows}, (_, y) => buffer.getLine(buffer.viewportY + y)).findIndex(line => line?.isWrapped);
				expect(wrapped, `a wrapped line after ${name}:\n${app.screen()}`).toBe(-1);
				expect(app.screen(), `after ${name}`).toMatch(/sift Bugs/);
			}

			// Back in the list (its footer shows), and apart from the last Esc: an Esc and a q read in one
			// chunk would be Alt+q.
			await app.waitFor(/^j ↓ move/m, 10_000, 'the list footer');
			// Watch mode (W, then W again) stops in the background: quitting while it is on would ask first.
			await app.waitFor(text => !text.split('\n')[0]!.includes('Watching'), 10_000, 'watch mode off');
			await new Promise(resolve => setTimeout(resolve, 200));
			app.press('q');
			const exited = await Promise.race([app.exited, new Promise(resolve => setTimeout(resolve, 10_000, 'still running'))]);
			expect(exited, app.screen()).toBe(0);
		}, 60_000);
	}
});
