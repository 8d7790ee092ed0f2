// A status option added by `sift channel` in another process appears in an open TUI's picker
// without a restart and can be set; so does one grown by `sift import --grow-options` (80×24,
// 200×60); `:channel add-option` in the TUI, and a refused `:channel retire-option`.

import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {sift} from '../support/cli.js';
import {ptyDemo} from '../support/pty-fixtures.js';
import {KEYS, type PtyApp} from '../support/pty.js';

// A schema change made by `sift channel` in another process reaches an open TUI without a restart:
// its channel.updated event makes the screen read the schema again, and the status picker then
// offers the new option (the built app in a real pseudo-terminal).

const demo = ptyDemo(60, 'sift-pty-schema-');

function start(): PtyApp {
	return demo.launch({args: ['--db', demo.db.dbPath], cols: 140, rows: 36, env: {SIFT_STATE_DIR: demo.db.stateDir}});
}

describe('a schema change reaches an open TUI', () => {
	it('a new status option appears in the picker without a restart, and can be set', async () => {
		const app = start();
		await app.waitFor('BUG-0060');
		app.press('s');
		const before = await app.waitFor('Triaged');
		expect(before).not.toContain('Sam reviews');
		app.press(KEYS.escape);
		await app.waitFor(/^j ↓ move/m);

		const changed = sift(['channel', 'add-option', 'status', 'sam_review', '--label', 'Sam reviews', '--db', demo.db.dbPath]);
		expect(changed.code, changed.stderr).toBe(0);
		await app.waitFor('schema changed', 15_000);
		app.press('s');
		const picker = await app.waitFor('Sam reviews');
		const options = demo.store.getChannel('bugs').fields.find(field => field.key === 'status')!.config.options!;
		expect(options.at(-1)).toEqual({value: 'sam_review', label: 'Sam reviews'});
		// The new option is the last one; choosing it by its number sets it.
		app.press(String(options.length));
		await app.waitFor(/BUG-0060: Status .+ → Sam reviews/);
		expect(picker).toContain('Sam reviews');
		expect(await app.quit()).toBe(0);
	});

	it(':channel add-option in the TUI changes the schema through the store, and its picker has the option at once', async () => {
		const app = start();
		await app.waitFor('BUG-0060');
		app.press(':');
		app.type('channel add-option status zed "Zed waits"');
		app.press(KEYS.enter);
		await app.waitFor('Schema changed: status.');
		expect(demo.store.getChannel('bugs').fields.find(field => field.key === 'status')!.config.options!.at(-1)).toEqual({value: 'zed', label: 'Zed waits'});
		app.press('s');
		await app.waitFor('Zed waits');
		app.press(KEYS.escape);
		await app.waitFor(/^j ↓ move/m);
		// A refused change says why, and changes nothing.
		app.press(':');
		app.type('channel retire-option status new');
		app.press(KEYS.enter);
		await app.waitFor(/items? hold status "new"/);
		expect(demo.store.getChannel('bugs').fields.find(field => field.key === 'status')!.config.options!.map(option => option.value)).toContain('new');
		expect(await app.quit()).toBe(0);
	});

	for (const [cols, rows, ticket] of [[80, 24, 'BUG-0058'], [200, 60, 'BUG-0057']] as const) {
		it(`an option grown by sift import --grow-options appears in the picker without a restart (${cols}×${rows})`, async () => {
			const label = `Grown ${cols}`;
			const app = demo.launch({args: ['--db', demo.db.dbPath], cols, rows, env: {SIFT_STATE_DIR: demo.db.stateDir}});
			await app.waitFor('BUG-0060');
			const file = path.join(demo.db.dir, `grow-${cols}.csv`);
			writeFileSync(file, `Ticket,Status\n${ticket},${label}\n`);
			const imported = sift(['import', file, '--into', 'bugs', '--key', 'ticket', '--grow-options', '--db', demo.db.dbPath]);
			expect(imported.code, imported.stdout + imported.stderr).toBe(0);
			const options = demo.store.getChannel('bugs').fields.find(field => field.key === 'status')!.config.options!;
			expect(options.map(option => option.label)).toContain(label);
			await app.waitFor('schema changed', 15_000);
			// The status picker of the top row offers the grown option, by its label.
			app.press('s');
			await app.waitFor(label);
			app.press(KEYS.escape);
			await app.waitFor(/^j ↓ move/m);
			expect(await app.quit()).toBe(0);
		});
	}
});
