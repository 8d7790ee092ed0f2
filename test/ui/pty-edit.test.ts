// `s 2` on a row, hotkeys in footer and help; `d friday` shown as its ISO date, then saved; a bulk
// edit on 5 marks with a conflict from `sift edit` in another process, one `u`; `E` with an editor
// script; `e` on marks takes `tomorrow` from today (80×24, 200×60)

import {chmodSync, mkdirSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {sift} from '../support/cli.js';
import {idOfTicket, ptyDemo} from '../support/pty-fixtures.js';
import {CLI, KEYS, rowOf, type PtyApp} from '../support/pty.js';
import {bulkFields} from '../../source/ui/edit.js';
import {resolveDateInput} from '../../source/text/typed-value.js';

// Field hotkeys, bulk edits on marks and E ($EDITOR) on the built app in a real pseudo-terminal,
// checked in the store; the other writer is `sift edit` in its own process.

const demo = ptyDemo(300, 'sift-pty-edit-');

function start(env: NodeJS.ProcessEnv = {}): PtyApp {
	return demo.launch({args: ['--db', demo.db.dbPath], cols: 140, rows: 36, env: {SIFT_STATE_DIR: demo.db.stateDir, ...env}});
}

const ticket = (n: number) => `BUG-${String(n).padStart(4, '0')}`;
const values = (name: string) => demo.store.readItem('bugs', idOfTicket(demo.store, name)).values;
const options = (key: string) => demo.store.getChannel('bugs').fields.find(field => field.key === key)!.config.options!.map(option => option.value);

describe('field hotkeys, bulk edits and E in a pseudo-terminal', () => {
	it('s 2 sets the status of a row to its second option', async () => {
		// The first of the newest rows whose status is not the second option already.
		const second = options('status')[1]!;
		const offset = Array.from({length: 20}, (_, index) => ticket(300 - index)).findIndex(name => values(name).status !== second);
		const name = ticket(300 - offset);
		const app = start();
		await app.waitFor(ticket(300));
		app.press(...Array.from({length: offset}, () => 'j'));
		await app.waitFor(`row ${offset + 1} `);
		app.press('s', '2');
		const screen = await app.waitFor(`${name}: Status`);
		expect(screen).toMatch(new RegExp(`${name}: Status .+ → Triaged \\(v\\d+\\) · u undoes`));
		expect(rowOf(screen, name)).toContain('Triaged');
		expect(values(name).status).toBe(second);
		// The hotkeys are in the footer and the help.
		expect(screen).toContain('e edit · s o v p a d set a field');
		app.press('?');
		const help = await app.waitFor('Field hotkeys');
		expect(help).toMatch(/s\s+set Status/);
		expect(help).toMatch(/d\s+set Due/);
		app.press(KEYS.escape);
		await app.waitFor(/^j ↓ move/m);
		expect(await app.quit()).toBe(0);
	});

	it('d takes "friday", shows the ISO date before Enter, and the store gets that date; a refused number shows what is allowed', async () => {
		const name = ticket(280);
		const app = start();
		await app.waitFor(ticket(300));
		app.press(...Array.from({length: 20}, () => 'j'));
		await app.waitFor('row 21 ');
		app.press('d');
		await app.waitFor('Due (date');
		// Ctrl+U clears what the input holds (the current due date, if any).
		app.press('\u0015');
		app.type('friday');
		const preview = await app.waitFor(/friday → \d{4}-\d{2}-\d{2}/);
		const date = /friday → (\d{4}-\d{2}-\d{2})/.exec(preview)![1]!;
		expect(new Date(`${date}T12:00:00`).getDay()).toBe(5);
		app.press(KEYS.enter);
		await app.waitFor(`${name}: Due`);
		expect(values(name).due).toBe(date);
		// A refused number stays in its input, with what is allowed.
		const points = values(name).points;
		app.press('p');
		await app.waitFor('Points (number');
		app.press('\u0015');
		app.type('20');
		app.press(KEYS.enter);
		await app.waitFor('Allowed: 0 to 13');
		app.press(KEYS.escape);
		await app.waitFor(/^j ↓ move/m);
		expect(values(name).points).toBe(points);
		expect(await app.quit()).toBe(0);
	});

	it('edits 5 marked rows: 4 written, 1 conflict from another process named, one u reverts the 4', async () => {
		const names = Array.from({length: 5}, (_, index) => ticket(290 - index));
		// An area none of the five has, so each write is a change.
		const area = options('area').findIndex(value => names.every(name => values(name).area !== value));
		expect(area).toBeGreaterThanOrEqual(0);
		const before = Object.fromEntries(names.map(name => [name, values(name).area]));
		const app = start();
		await app.waitFor(ticket(300));
		app.press(...Array.from({length: 10}, () => 'j'));
		await app.waitFor('row 11 ');
		app.press(' ', ' ', ' ', ' ', ' ');
		await app.waitFor('5 marked');
		// Meanwhile, another process changes the third marked row.
		const other = sift(['edit', names[2]!, 'points=5', '--db', demo.db.dbPath]);
		expect(other.code, other.stderr).toBe(0);
		app.press('a', String(area + 1));
		const summary = await app.waitFor(/area: 4 items written, 1 conflict, 0 refused/, 10_000, 'the bulk summary');
		expect(summary).toContain(`conflict on ${names[2]}`);
		for (const name of names) expect(values(name).area).toBe(name === names[2] ? before[name] : options('area')[area]);
		expect(values(names[2]!).points).toBe(5);

		app.press('u');
		await app.waitFor(/Undone: area: 4 items written, 0 conflicts, 0 refused/, 10_000, 'the undo summary');
		for (const name of names) expect(values(name).area).toBe(before[name]);
		expect(await app.quit()).toBe(0);
	});

	it('E hands the long text to $EDITOR and saves what it wrote; a failed or unchanged edit and a conflict write nothing', async () => {
		const dir = path.join(demo.db.dir, 'editor');
		mkdirSync(dir, {recursive: true});
		const script = path.join(dir, 'editor.sh');
		const mode = path.join(dir, 'mode');
		// The editor: rewrites the file, or fails, or leaves it, or lets another process edit the record first.
		writeFileSync(script, [
			'#!/bin/sh',
			`mode=$(cat "${mode}")`,
			'case "$mode" in',
			'  fail) exit 3 ;;',
			'  keep) exit 0 ;;',
			`  race) "${process.execPath}" "${CLI()}" edit ${ticket(300)} points=8 --db "${demo.db.dbPath}" >/dev/null; printf 'mine' > "$1" ;;`,
			`  *) printf 'Rewritten in the editor.\\nSecond line.' > "$1" ;;`,
			'esac',
			'',
		].join('\n'));
		chmodSync(script, 0o755);
		const name = ticket(300);
		const app = start({EDITOR: script, VISUAL: ''});
		await app.waitFor(name);

		writeFileSync(mode, 'write');
		app.press('E');
		const saved = await app.waitFor(`${name}: Description`, 10_000, 'the saved message');
		expect(saved).toMatch(/\(v\d+\) · u undoes/);
		expect(rowOf(saved, ticket(299))).not.toBe('');
		expect(values(name).description).toBe('Rewritten in the editor.\nSecond line.');

		writeFileSync(mode, 'fail');
		app.press('E');
		await app.waitFor(/exited with 3; nothing saved/);
		writeFileSync(mode, 'keep');
		app.press('E');
		await app.waitFor('text unchanged; nothing saved');
		expect(values(name).description).toBe('Rewritten in the editor.\nSecond line.');

		writeFileSync(mode, 'race');
		app.press('E');
		await app.waitFor(`Not saved: ${name} changed since you opened it`);
		expect(values(name)).toMatchObject({description: 'Rewritten in the editor.\nSecond line.', points: 8});
		expect(await app.quit()).toBe(0);
		rmSync(dir, {recursive: true, force: true});
	});
});

describe('a relative date on marked rows in a pseudo-terminal', () => {
	for (const [cols, rows, first] of [[80, 24, 270], [200, 60, 265]] as const) {
		it(`e on 2 marked rows reads tomorrow from today: shown before Enter, and written to both (${cols}×${rows})`, async () => {
			const names = [ticket(first), ticket(first - 1)];
			const app = demo.launch({args: ['--db', demo.db.dbPath], cols, rows, env: {SIFT_STATE_DIR: demo.db.stateDir}});
			await app.waitFor(ticket(300));
			app.press(...Array.from({length: 300 - first}, () => 'j'));
			await app.waitFor(`row ${301 - first} `);
			app.press(' ', ' ');
			await app.waitFor('2 marked');
			app.press('e');
			await app.waitFor('Edit 2 marked rows: which field?');
			const due = bulkFields(demo.store.getChannel('bugs').fields).findIndex(field => field.key === 'due');
			app.press(...Array.from({length: due}, () => 'j'), KEYS.enter);
			await app.waitFor('Due (date');
			app.press('\u0015');
			app.type('tomorrow');
			const tomorrow = resolveDateInput('tomorrow', new Date());
			expect(tomorrow.ok).toBe(true);
			const date = tomorrow.ok ? tomorrow.date : '';
			await app.waitFor(`tomorrow → ${date}`);
			app.press(KEYS.enter);
			await app.waitFor(/due: 2 items written, 0 conflicts, 0 refused/);
			for (const name of names) expect(values(name).due).toBe(date);
			expect(await app.quit()).toBe(0);
		});
	}
});
