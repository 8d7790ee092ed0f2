// `E`: a long text in the person's $EDITOR. The terminal is handed over while the editor runs (the
// alternate screen left, raw mode off) and taken back after, so the editor draws on a terminal
// that behaves as it expects; Ink redraws on the next frame (the screen is cleared on the way back).

import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN} from './terminal.js';

const SHOW_CURSOR = '\u001B[?25h';
const HOME = '\u001B[H';

export type EditorResult = {code: number | null; text: string; editor: string};

type Terminal = {stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream};

/** The editor to run: $VISUAL, else $EDITOR, else vi (as git does). */
export const editorOf = (env: NodeJS.ProcessEnv) => env.VISUAL || env.EDITOR || 'vi';

/** A file name safe on every system from a record's name. */
const fileName = (name: string) => `${name.replaceAll(/[^\w.-]+/g, '_').slice(0, 60) || 'record'}.md`;

/**
 * Runs the editor on `text` and returns what it left in the file. Blocks until the editor exits:
 * the app draws nothing meanwhile, and the editor reads the keys. The temp file is removed.
 */
export function editInEditor(text: string, name: string, env: NodeJS.ProcessEnv, terminal: Terminal = {stdin: process.stdin, stdout: process.stdout}): EditorResult {
	const dir = mkdtempSync(path.join(tmpdir(), 'sift-edit-'));
	const file = path.join(dir, fileName(name));
	const editor = editorOf(env);
	writeFileSync(file, text);
	const tty = terminal.stdin.isTTY === true;
	terminal.stdout.write(SHOW_CURSOR + LEAVE_ALT_SCREEN);
	if (tty) terminal.stdin.setRawMode(false);
	try {
		// Through the shell, so EDITOR="code --wait" works; the file is an argument, never spliced in.
		const result = spawnSync('/bin/sh', ['-c', `${editor} "$1"`, 'sift-editor', file], {stdio: 'inherit', env});
		return {code: result.error ? null : result.status, text: readFileSync(file, 'utf8'), editor};
	} finally {
		if (tty) terminal.stdin.setRawMode(true);
		terminal.stdout.write(ENTER_ALT_SCREEN + HOME);
		rmSync(dir, {recursive: true, force: true});
	}
}

/** What the editor left, as the field's new value: its final newline dropped when the old text had none. */
export function editedText(before: string, after: string): string {
	return !before.endsWith('\n') && after.endsWith('\n') ? after.slice(0, -1) : after;
}
