// The default columns of a channel imported from GitHub (format.ts chooseColumns): the list shows
// what a triager reads on every row, title, state, labels, assignees and author, at 80 and 120
// columns, from the real GitHub fixture's schema.

import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';
import {readGithubFile} from '../../source/import/github.js';
import {LIST_GUTTER} from '../../source/ui/components/list.js';
import {chooseColumns} from '../../source/ui/format.js';
import {screenLayout} from '../../source/ui/layout.js';

const fixture = fileURLToPath(new URL('../fixtures/github/freecad-rest-page.json', import.meta.url));
const {channel} = readGithubFile(fixture, 'freecad', 'FreeCAD');

const shownAt = (columns: number) => {
	const layout = screenLayout({columns, rows: 30}, {kind: 'none'}, 'none');
	const chosen = chooseColumns(channel.fields, layout.listWidth - LIST_GUTTER, 1);
	const used = chosen.reduce((sum, column) => sum + column.width, 0) + chosen.length - 1;
	expect(used, `${columns} columns`).toBeLessThanOrEqual(layout.listWidth - LIST_GUTTER);
	return chosen.map(column => column.field.key);
};

describe('a GitHub channel\'s default columns', () => {
	it('show title, state, labels, assignees and author at 80 columns, in schema order', () => {
		const shown = shownAt(80);
		expect(shown.filter(key => ['title', 'state', 'labels', 'assignees', 'author'].includes(key))).toEqual(['title', 'state', 'labels', 'assignees', 'author']);
	});

	it('keep them at 120 columns, and add more as room allows', () => {
		const shown = shownAt(120);
		for (const key of ['title', 'state', 'labels', 'assignees', 'author']) expect(shown, key).toContain(key);
		expect(shown.length).toBeGreaterThan(5);
	});
});
