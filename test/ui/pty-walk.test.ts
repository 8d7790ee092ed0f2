// Every key in every scope at 80×24 and 200×60: no crash, no wrapped line.

import {describe, expect, it} from 'vitest';
import {bugsChannel} from '../../demo-data/generate.js';
import {ptyDemo} from '../support/pty-fixtures.js';
import {KEYS} from '../support/pty.js';

// Every key of the key table in every scope, on the built app at 80×24 and at 200×60: nothing
// crashes, the header stays, and no line is wider than the terminal (xterm would wrap it).

const statusAt = bugsChannel.fields.filter(field => field.type !== 'formula').findIndex(field => field.key === 'status');
const ctrl = (letter: string) => String.fromCodePoint(letter.codePointAt(0)! - 96);

/** Not a key: wait until the list's footer shows again (and a little more) before the next key. */
const BACK_IN_LIST = 'back in the list';

/** A walk through the list, the pane, every overlay and its keys; names for failure messages. */
const WALK: Array<[string, string]> = [
	...(['j', 'k'] as const).map(key => [key, key] as [string, string]),
	['PgDn', KEYS.pageDown], ['PgUp', KEYS.pageUp], ['Ctrl+D', ctrl('d')], ['Ctrl+U', ctrl('u')],
	['G', 'G'], ['k', 'k'], ['g', 'g'], ['End', KEYS.end], ['Home', KEYS.home],
	['Enter (detail)', KEYS.enter], ['J', 'J'], ['K', 'K'],
	// The record full screen and its keys.
	['Z (full screen)', 'Z'], ['PgDn', KEYS.pageDown], ['Space', KEYS.space], ['j', 'j'], ['k', 'k'], ['J', 'J'], ['K', 'K'], ['G', 'G'], ['g', 'g'],
	['End', KEYS.end], ['Home', KEYS.home], ['Ctrl+D', ctrl('d')], ['Ctrl+U', ctrl('u')], ['PgUp', KEYS.pageUp], ['q (back)', 'q'], ['Z', 'Z'], ['Z (back)', 'Z'], ['Z', 'Z'], ['Esc (back)', KEYS.escape],
	['Tab', KEYS.tab], ['Esc (pane)', KEYS.escape],
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
	// Field hotkeys: a picker (arrows, typing, Backspace, Space, Esc), a typed date with its preview, a pick by number.
	['s', 's'], ['down', KEYS.down], ['up', KEYS.up], ['Tab', KEYS.tab], ['type', 'w'], ['Backspace', KEYS.backspace], ['Space', KEYS.space], ['type (no match)', 'z'], ['Esc (close)', KEYS.escape],
	['d', 'd'], ['type', 'friday'], ['Esc (close)', KEYS.escape],
	['v', 'v'], ['2 (pick)', '2'], ['u', 'u'],
	// On marks: e chooses the field, then a bulk edit; u undoes it.
	['Space', KEYS.space], ['Space', KEYS.space], ['e (marks)', 'e'], ['j', 'j'], ['k', 'k'], ['Enter (field)', KEYS.enter], ['Esc (to fields)', KEYS.escape], ['Esc (close)', KEYS.escape],
	['o', 'o'], ['Enter (bulk)', KEYS.enter], ['u (bulk)', 'u'], ['V', 'V'], ['V', 'V'],
	['E (an editor that changes nothing)', 'E'],
	// Views and the `:` line (after the list is back: an Esc and a digit in one read would be Alt+digit).
	['(back in the list)', BACK_IN_LIST], ['2 (view)', '2'], ['1 (view)', '1'], ['9 (no such view)', '9'], ['4 (view)', '4'],
	[':', ':'], ['type', 'sort -due'], ['Enter', KEYS.enter], ['G', 'G'], ['g', 'g'],
	[':', ':'], ['type', 'nonsense here'], ['Enter (refused)', KEYS.enter], ['(back in the list)', BACK_IN_LIST], [':', ':'], ['type', 'BUG-0042'], ['Enter (jump)', KEYS.enter],
	[':', ':'], ['Esc', KEYS.escape], ['Esc (view order)', KEYS.escape],
];

const demo = ptyDemo(300, 'sift-walk-');


describe('a walk with every key', () => {
	for (const [cols, rows] of [[80, 24], [200, 60]] as const) {
		it(`at ${cols}×${rows}: no crash, no line wider than the terminal`, async () => {
			// A config home of its own: no person's config file changes the walk.
			const app = demo.launch({args: ['--db', demo.db.dbPath], cols, rows, env: {SIFT_STATE_DIR: demo.db.stateDir, XDG_CONFIG_HOME: demo.db.dir, EDITOR: 'true', VISUAL: ''}});
			await app.waitFor('BUG-0300');
			for (const [name, key] of WALK) {
				if (key === BACK_IN_LIST) {
					// The list's footer: its hints, or a refusal too long for one line on both of its lines.
					await app.waitFor(/^j ↓ move|^unknown command/m, 10_000, `the list footer (${name})`);
					continue;
				}

				const pressedAt = performance.now();
				const before = app.screen();
				app.press(key);
				// Keys sent together are read as one chunk (typed text, or Esc+key as Alt+key): the next key
				// goes once the app has drawn what this one did. A key that changes nothing draws nothing;
				// the deadline then stands in (it is a bound, not the pace). Every Esc of the walk closes
				// something, so the next key waits until the screen shows it: a frame drawn for an earlier
				// key is not enough on a loaded machine, and two Escs read in one chunk are one Alt+Esc.
				if (key === KEYS.escape) await app.waitFor(() => app.screen() !== before, 10_000, `the screen after ${name}`).catch(() => undefined);
				else await app.waitFor(() => app.lastOutputAt > pressedAt, 400, `a frame after ${name}`).catch(() => undefined);
				// E hands the terminal to the editor and takes it back: the redraw comes after the editor exits.
				if (name.startsWith('E ')) await app.waitFor(/sift Bugs/, 10_000, 'the screen back after the editor');
				expect(app.exitCode, `after ${name}`).toBeNull();
				// The frame is judged whole (waitFor skips a half-drawn synchronized update).
				await app.waitFor(/sift Bugs/, 5000, `the header after ${name}`);
				const buffer = app.term.buffer.active;
				const wrapped = Array.from({length: rows}, (_, y) => buffer.getLine(buffer.viewportY + y)).findIndex(line => line?.isWrapped);
				expect(wrapped, `a wrapped line after ${name}:\n${app.screen()}`).toBe(-1);
			}

			// Back in the list (its footer shows), and apart from the last Esc: an Esc and a q read in one
			// chunk would be Alt+q.
			await app.waitFor(/^j ↓ move/m, 10_000, 'the list footer');
			// Watch mode (W, then W again) stops in the background: quitting while it is on would ask first.
			await app.waitFor(text => !text.split('\n')[0]!.includes('Watching'), 10_000, 'watch mode off');
			// No pause before q: the walk's last Esc was read once the screen changed after it (or its
			// deadline passed), so q comes in a read of its own, not as Alt+q.
			app.press('q');
			const exited = await app.exitWithin(10_000);
			expect(exited, app.screen()).toBe(0);
		}, 180_000);
	}
});
