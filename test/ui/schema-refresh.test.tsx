// A running TUI shows a schema change at once, in the list's cells and the record pane too, not
// only in its pickers: after another connection's change (its channel.updated event) and after its
// own `:channel rename-label`.

import {describe, expect, it} from 'vitest';
import {appDemo, renderApp} from './helpers.js';

const demo = appDemo(40, 'sift-schema-refresh-');

const rows = (frame: string) => frame.split('\n').filter(line => /BUG-00\d\d/.test(line));
const ENTER = '\r';

describe('a schema change in a running TUI', () => {
	it('made elsewhere: the list\'s cells and the record pane use the new label', async () => {
		const app = renderApp(demo.store);
		try {
			await app.waitFor(frame => rows(frame).some(line => /\sNew(\s|$)/.test(line)));
			await demo.store.changeChannel('bugs', {kind: 'rename_label', key: 'status', value: 'new', label: 'Fresh'}, {kind: 'human'});
			const after = await app.waitFor(frame => rows(frame).some(line => /\sFresh(\s|$)/.test(line)), 8000);
			expect(rows(after).some(line => /\sNew(\s|$)/.test(line))).toBe(false);
			await app.keys(ENTER);
			await app.waitFor(frame => /Status\s+Fresh/.test(frame));
		} finally {
			app.unmount();
		}
	});

	it('made by its own :channel rename-label: the list shows it', async () => {
		const app = renderApp(demo.store);
		try {
			await app.waitFor(frame => rows(frame).some(line => /\sNew(\s|$)/.test(line)));
			await app.keys(':', ...'channel rename-label status new "Brand new"', ENTER);
			await app.waitFor(frame => frame.includes('Schema changed'));
			const after = await app.waitFor(frame => rows(frame).some(line => /\sBrand new(\s|$)/.test(line)), 8000);
			expect(rows(after).some(line => /\sNew(\s|$)/.test(line))).toBe(false);
		} finally {
			app.unmount();
		}
	});
});
