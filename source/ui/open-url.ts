// "Open in browser" (`O`): which of a record's values is its link (a url field, or GitHub's and
// Redmine's `url` / `html_url`), and handing it to the desktop's opener (`xdg-open` on Linux,
// `open` on macOS). Only http(s) links are handed over, as one argument with no shell; the opener
// exits at once (the browser is its child, not sift's), and sift waits for that exit.

import {spawn} from 'node:child_process';
import type {Field, Values} from '../../store/index.js';

/** Keys that hold a record's web address whatever their type (trackers' own names). */
const LINK_KEYS = ['url', 'html_url'];

/** An http(s) address, or undefined for anything else (`javascript:`, `file:`, a relative path, text). */
export function webAddress(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	try {
		const url = new URL(value.trim());
		return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
	} catch {
		return undefined;
	}
}

/** The record's link: the first url-typed field holding an http(s) address, else a `url` / `html_url` field's. */
export function recordLink(fields: readonly Field[], values: Values): string | undefined {
	const candidates = [...fields.filter(field => field.type === 'url'), ...fields.filter(field => field.type !== 'url' && LINK_KEYS.includes(field.key))];
	for (const field of candidates) {
		const address = webAddress(values[field.key]);
		if (address) return address;
	}

	return undefined;
}

/** The program that opens a link on this platform. */
export const openerProgram = (platform: NodeJS.Platform = process.platform) => (platform === 'darwin' ? 'open' : 'xdg-open');

/** What became of a link handed to the opener: opened, or why not (then the footer shows the link to copy). */
export type Opened = {ok: true} | {ok: false; why: string};

/**
 * Hands `address` (checked: http or https) to the opener and waits for it to exit: stdio ignored,
 * no shell, the address one argument. An opener that is not there, or fails, is `ok: false`.
 */
export async function openLink(address: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<Opened> {
	if (!webAddress(address)) return {ok: false, why: 'not an http(s) link'};
	const program = openerProgram(platform);
	return new Promise(resolve => {
		const child = spawn(program, [address], {stdio: 'ignore', shell: false, env});
		child.once('error', error => resolve({ok: false, why: (error as NodeJS.ErrnoException).code === 'ENOENT' ? `no ${program} here` : `${program} failed: ${error.message}`}));
		child.once('exit', (code, signal) => resolve(code === 0 ? {ok: true} : {ok: false, why: `${program} ended with ${signal ?? `exit ${code}`}`}));
	});
}
