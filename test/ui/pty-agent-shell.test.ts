// The built TUI with a Codex whose shell cannot be turned off: `c` refuses and says why;
// `--allow-agent-shell` runs.

import {tempDir} from '../support/temp.js';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {ptyDemo} from '../support/pty-fixtures.js';
import {KEYS, repoRoot} from '../support/pty.js';

// The built TUI in a pseudo-terminal with a Codex that has no switch for its shell (the fake codex
// playing an old binary): `c` does not start the run and says why; --allow-agent-shell runs it.

const FAKE_CODEX = path.join(repoRoot(), 'test', 'support', 'fake-codex.mjs');
const demo = ptyDemo(20, 'sift-pty-shell-');

function start(extra: string[] = []) {
	// A state dir of its own: the probe's cache must not carry one launch's answer to the next.
	const stateDir = tempDir('sift-pty-shell-state-');
	return demo.launch({
		args: ['--db', demo.db.dbPath, '--codex', FAKE_CODEX, ...extra],
		cols: 140,
		rows: 30,
		env: {SIFT_STATE_DIR: stateDir, FAKE_CODEX_MODE: 'normal', FAKE_CODEX_FEATURES: 'old'},
	});
}

describe('a Codex whose shell cannot be turned off, in the TUI', () => {
	it('c refuses the run and says how to go on; with --allow-agent-shell the run goes ahead', async () => {
		const refused = start();
		await refused.waitFor('BUG-0020');
		refused.press('c');
		await refused.waitFor('Run Codex on');
		refused.press(KEYS.enter);
		const screen = await refused.waitFor('start sift with --allow-agent-shell', 20_000, 'the refusal in the run pane');
		expect(screen).toContain('Codex agent_sandbox_unavailable');
		expect(screen).toContain('codex-cli 0.171.0-fake offers the agent a shell');
		expect(await refused.quit()).toBe(0);

		const allowed = start(['--allow-agent-shell']);
		await allowed.waitFor('BUG-0020');
		allowed.press('c');
		await allowed.waitFor('Run Codex on');
		allowed.press(KEYS.enter);
		await allowed.waitFor(text => text.includes('✓ Codex ok'), 20_000, 'the finished run pane');
		expect(await allowed.quit()).toBe(0);
	});
});
