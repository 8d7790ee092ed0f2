// The TUI's run deadline.

import {describe, expect, it} from 'vitest';
import {tuiRunSettings, TUI_RUN_DEADLINE_MS} from '../../source/ui/run-settings.js';

describe('the TUI run settings', () => {
	it('give a run started from the TUI a 10-minute deadline unless one is configured', () => {
		expect(TUI_RUN_DEADLINE_MS).toBe(600_000);
		expect(tuiRunSettings({codexConfig: []}, '/tmp/a.db', 'bugs')).toEqual({codexConfig: [], timeoutMs: 600_000, dbPath: '/tmp/a.db', channelId: 'bugs'});
		expect(tuiRunSettings({timeoutMs: 5000}, '/tmp/a.db', 'bugs').timeoutMs).toBe(5000);
	});
});
