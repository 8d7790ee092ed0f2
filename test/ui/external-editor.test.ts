// `E`'s editor run for real: the temp file, exit codes, `$VISUAL` first, arguments in `$EDITOR`,
// the screen handed over and back.

import {chmodSync, existsSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {PassThrough} from 'node:stream';
import {afterAll, describe, expect, it} from 'vitest';
import {editedText, editInEditor, editorOf} from '../../source/ui/external-editor.js';
import {ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN} from '../../source/ui/terminal.js';
import {tempDir} from '../support/temp.js';

// $EDITOR run for real (a shell script), on streams standing in for the terminal.

const dir = tempDir('sift-editor-test-');
afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

function script(name: string, body: string): string {
	const file = path.join(dir, name);
	writeFileSync(file, `#!/bin/sh\n${body}\n`);
	chmodSync(file, 0o755);
	return file;
}

function terminal() {
	const stdout = new PassThrough();
	let written = '';
	stdout.on('data', chunk => {
		written += String(chunk);
	});
	return {terminal: {stdin: new PassThrough() as unknown as NodeJS.ReadStream, stdout: stdout as unknown as NodeJS.WriteStream}, written: () => written};
}

describe('editInEditor', () => {
	it('runs the editor on a temp file holding the text, returns what it left, removes the file, hands the screen over and back', async () => {
		const seen = path.join(dir, 'seen');
		const editor = script('append.sh', `cp "$1" "${seen}"; printf ' and more' >> "$1"; echo "$1" > "${seen}.path"`);
		const {terminal: term, written} = terminal();
		const result = editInEditor('the text', 'BUG-0042', {PATH: process.env.PATH, EDITOR: editor}, term);
		expect(result).toEqual({code: 0, text: 'the text and more', editor});
		expect(readFileSync(seen, 'utf8')).toBe('the text');
		const file = readFileSync(`${seen}.path`, 'utf8').trim();
		expect(path.basename(file)).toBe('BUG-0042.md');
		expect(existsSync(file)).toBe(false);
		await new Promise(resolve => setImmediate(resolve));
		expect(written().indexOf(LEAVE_ALT_SCREEN)).toBeLessThan(written().indexOf(ENTER_ALT_SCREEN));
	});

	it('reports the exit code of a failing editor, takes $VISUAL first, and passes arguments in $EDITOR through the shell', () => {
		const failing = script('fail.sh', 'exit 4');
		expect(editInEditor('x', 'a/b', {PATH: process.env.PATH, VISUAL: failing, EDITOR: 'true'}, terminal().terminal).code).toBe(4);
		const flagged = script('flag.sh', 'printf "%s" "$1" > "$2"');
		expect(editInEditor('x', 'n', {PATH: process.env.PATH, EDITOR: `${flagged} --wait`}, terminal().terminal).text).toBe('--wait');
		expect(editorOf({})).toBe('vi');
	});
});

describe('editedText', () => {
	it('drops the final newline an editor adds to a text that had none, and keeps one that was there', () => {
		expect(editedText('abc', 'abc\n')).toBe('abc');
		expect(editedText('abc\n', 'abc\n')).toBe('abc\n');
		expect(editedText('abc', 'abd')).toBe('abd');
	});
});
