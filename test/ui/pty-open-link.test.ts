// `O` opens a record's link in the browser, on the built app in a real pseudo-terminal: with a fake
// `xdg-open` on PATH (a script writing its arguments to a file), the link is handed over as one
// argument; on a record without a link the key says so; with no opener on PATH, the footer shows
// the link to copy.

import {chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {openStore} from '../../store/index.js';
import {suiteLauncher} from '../support/pty-fixtures.js';
import {tempDir} from '../support/temp.js';
import {waitUntil} from '../support/wait.js';

const launch = suiteLauncher();
const LINK = 'https://example.com/issues/7?q=a&b=c';
const OPENED = LINK;

let dir = '';
let db = '';

beforeAll(() => {
	dir = tempDir('sift-open-link-');
	db = path.join(dir, 'links.db');
	const store = openStore(db, {create: true});
	const field = (key: string, type: string) => ({key, label: key, type, is_required: false, is_unique: false, config: {}});
	// Newest first: the linked record is the first row, the one without a link the second.
	store.importChannel({channel: {id: 'links', name: 'Links', fields: [field('title', 'text'), field('site', 'url')]}, items: [{values: {title: 'without a link'}}, {values: {title: 'with a link', site: LINK}}]});
	store.close();
});

function start(pathVariable: string) {
	return launch({args: ['--db', db], cols: 140, rows: 24, env: {SIFT_STATE_DIR: path.join(dir, 'state'), XDG_CONFIG_HOME: dir, PATH: pathVariable}});
}

describe('O: open the record\'s link', () => {
	it('hands the link to xdg-open as one argument; a record without a link says so', async () => {
		const bin = path.join(dir, 'bin');
		mkdirSync(bin, {recursive: true});
		const argv = path.join(dir, 'argv.txt');
		writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$#" "$@" > '${argv}'\n`);
		chmodSync(path.join(bin, 'xdg-open'), 0o755);
		const app = start(`${bin}${path.delimiter}${process.env.PATH ?? ''}`);
		await app.waitFor('with a link');
		app.type('O');
		await waitUntil(() => existsSync(argv) && readFileSync(argv, 'utf8').includes('\n'), 'xdg-open ran');
		expect(readFileSync(argv, 'utf8')).toBe(`1\n${OPENED}\n`);
		await app.waitFor(`Opened ${OPENED}`);
		app.type('j');
		app.type('O');
		await app.waitFor('No URL on this record');
		expect(await app.quit()).toBe(0);
	});

	it('with neither xdg-open nor open on PATH, the footer shows the link to copy', async () => {
		const empty = path.join(dir, 'empty-bin');
		mkdirSync(empty, {recursive: true});
		const app = start(empty);
		await app.waitFor('with a link');
		app.type('O');
		await app.waitFor(`no xdg-open here: ${OPENED}`);
		expect(await app.quit()).toBe(0);
	});
});
