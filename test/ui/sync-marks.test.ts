// A synced channel on the screen (source/ui/sync-marks.ts, the list's gutter): the header's words
// and each row's mark, conflict before "changed just now" before unpushed.

import {describe, expect, it} from 'vitest';
import {rowLine} from '../../source/ui/components/list.js';
import {syncMarkOf, syncSummary, type SyncMarks} from '../../source/ui/sync-marks.js';

const sync = (more: Partial<SyncMarks> = {}): SyncMarks => ({remote: 'acme/app', lastPullAt: null, pending: 0, conflicts: 0, unpushed: new Set(['a']), conflicted: new Set(['b']), ...more});
const row = (id: string) => ({id, version: 1, updated_at: '', preview: {}});

describe('sync marks', () => {
	it('says the remote, the last pull, what waits to be sent and the conflicts', () => {
		const pulledAt = new Date(2026, 2, 2, 9, 5);
		expect(syncSummary(sync(), pulledAt.getTime())).toBe('⇅ acme/app · never pulled · pushed');
		expect(syncSummary(sync({lastPullAt: pulledAt.toISOString(), pending: 3, conflicts: 2}), pulledAt.getTime() + 60_000)).toBe('⇅ acme/app · pulled 09:05 · 3 to push · 2 conflicts (C)');
		// Another day: the date too.
		expect(syncSummary(sync({lastPullAt: pulledAt.toISOString()}), pulledAt.getTime() + 86_400_000 * 2)).toBe('⇅ acme/app · pulled 2026-03-02 09:05 · pushed');
	});

	it('marks a conflicted row with !, an unpushed one with ↑, a conflict before a change just now', () => {
		expect(syncMarkOf(sync(), 'a')).toBe('unpushed');
		expect(syncMarkOf(sync(), 'b')).toBe('conflict');
		expect(syncMarkOf(sync(), 'c')).toBeNull();
		expect(syncMarkOf(null, 'b')).toBeNull();
		const gutter = (id: string, changed: boolean) => rowLine(row(id), [], false, changed, 20, '2026-03-02', syncMarkOf(sync(), id))[1]!.text;
		expect(gutter('a', false)).toBe('↑');
		expect(gutter('a', true)).toBe('•');
		expect(gutter('b', true)).toBe('!');
		expect(gutter('c', false)).toBe(' ');
	});
});
