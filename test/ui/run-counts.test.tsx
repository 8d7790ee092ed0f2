// One run's steps and time read the same in the header, the run pane, the board line and the
// footer; the live pane's answer lines beside many steps.

import {render} from 'ink-testing-library';
import type {ReactElement} from 'react';
import {describe, expect, it} from 'vitest';
import type {FanoutRun} from '../../source/codex/fanout.js';
import type {RunResult} from '../../source/codex/runner.js';
import type {Step} from '../../source/codex/steps.js';
import {paneRows, RunPane} from '../../source/ui/components/run-pane.js';
import {boardLine} from '../../source/ui/features/board/view.js';
import type {RunView} from '../../source/ui/model/runs.js';
import {runFinishMessage, runStatus} from '../../source/ui/run-status.js';
import {makeTheme, ThemeProvider} from '../../source/ui/theme.js';

// One run read the same wherever it is shown: the header, the run pane, the board line and the
// footer agree on its steps (`1 step`) and its time (the runner's own duration); and the live
// pane shows the answer's lines, not one.

const theme = makeTheme({NO_COLOR: '1'});
const show = (node: ReactElement) => render(<ThemeProvider theme={theme}>{node}</ThemeProvider>);
const plain = (frame: string | undefined) => (frame ?? '').replaceAll(/\u001b\[[\d;]*m/g, '');

const step = (index: number, status: Step['status'] = 'done'): Step => ({id: `s${index}`, kind: 'mcp_tool_call', label: `edit_record_item BUG-${index}`, status, result: null});
const result = (outcome: RunResult['outcome'], steps: Step[], durationMs: number): RunResult => ({
	runId: 'run-1', outcome, text: '', error: outcome === 'ok' ? null : 'Codex is not logged in. Run `codex login` and try again.', usage: null, durationMs, steps, warnings: [],
	editsApplied: 0, rejections: 0, followupsOpened: 0, logPath: '/tmp/x.jsonl', exitCode: 1, signal: null, stderrTail: '', pid: 1, loginCommand: null,
});
const view = (extra: Partial<RunView>): RunView => ({runId: 'run-1', instruction: 'triage', itemIds: ['a'], startedAt: 1000, finishedAt: null, steps: [], text: '', notices: [], warnings: [], usage: null, stall: null, cancelling: false, result: null, crash: null, ...extra});
const fanoutRun = (extra: Partial<FanoutRun>): FanoutRun => ({runId: 'run-1', index: 0, itemIds: ['a'], state: 'finished', startedAt: 1000, finishedAt: 2000, stepsDone: 0, currentStep: null, usage: null, result: null, error: null, ...extra});

describe('a run\'s counts and time', () => {
	it('auth_required reads the same duration in the header, the pane, the board and the footer', () => {
		const ended = result('auth_required', [step(1)], 600);
		// The screen saw 1.0 s pass (the run was recorded and the login checked); the runner timed 0.6 s.
		const run = view({finishedAt: 2000, steps: [step(1)], result: ended});
		expect(runStatus(run, 5000, 0)?.text).toBe('Codex auth_required 0.6s · 1 step');
		expect(runFinishMessage(ended).text).toMatch(/^Codex auth_required in 0\.6s/);
		expect(boardLine(fanoutRun({result: ended}), 0, 5000, 0, run).text).toMatch(/1 step · 0\.6s/);
		const pane = plain(show(<RunPane run={run} now={5000} frame={0} width={80} height={12}/>).lastFrame());
		expect(pane.split('\n')[0]).toMatch(/Codex auth_required in 0\.6s · 1 step · run-1/);
	});

	it('a proposing run says its proposals were not applied, in the footer, the pane and the board line', () => {
		const proposed: RunResult = {...result('ok', [step(1)], 600), proposals: 3, error: null};
		expect(runFinishMessage(proposed).text).toMatch(/^Codex ok in 0\.6s: 0 edits, 3 proposed \(not applied\), 0 refused/);
		const run = view({finishedAt: 2000, steps: [step(1)], result: proposed});
		expect(boardLine(fanoutRun({result: proposed}), 0, 5000, 0, run).text).toContain('3 proposed (not applied)');
		const pane = plain(show(<RunPane run={run} now={5000} frame={0} width={120} height={12}/>).lastFrame());
		expect(pane).toContain('3 proposed (not applied)');
	});

	it('counts steps one way: the board line as the pane and the header, `1 step` not `1 steps`', () => {
		const steps = Array.from({length: 9}, (_, index) => step(index));
		const run = view({finishedAt: 2000, steps, result: result('ok', steps, 900)});
		// The board's own tally saw 8 end before the run's last step arrived with its result.
		expect(boardLine(fanoutRun({stepsDone: 8, result: run.result}), 0, 5000, 0, run).text).toContain('9 steps');
		expect(runStatus(run, 5000, 0)?.text).toContain('9 steps');
		const one = view({steps: [step(1, 'running')]});
		expect(runStatus(one, 2000, 0)?.text).toMatch(/ · 1 step$/);
		expect(plain(show(<RunPane run={one} now={2000} frame={0} width={80} height={12}/>).lastFrame()).split('\n')[0]).toContain('· 1 step ·');
	});
});

describe('the live run pane', () => {
	it('shows the answer\'s lines next to many steps, with what was cut counted', () => {
		const steps = Array.from({length: 30}, (_, index) => step(index));
		const text = Array.from({length: 6}, (_, index) => `answer line ${index + 1}`).join('\n');
		// A bottom pane at 80×24 is about this high: the answer once got a single line of it.
		const frame = plain(show(<RunPane run={view({steps, text})} now={2000} frame={0} width={80} height={8}/>).lastFrame());
		const lines = frame.split('\n');
		const answerAt = lines.findIndex(line => line.startsWith('Answer (so far):'));
		expect(answerAt).toBeGreaterThan(0);
		expect(lines.filter(line => line.startsWith('answer line')).length).toBeGreaterThanOrEqual(2);
		expect(frame).toMatch(/… \d+ earlier steps/);
		expect(frame).toMatch(/… \d+ more lines \(R shows the whole run\)/);
		expect(lines.length).toBeLessThanOrEqual(8);
	});

	it('shares its rows: both fit whole when they can, else the steps keep a third', () => {
		expect(paneRows(3, 4, 12)).toEqual({stepRows: 3, answerRows: 5});
		expect(paneRows(0, 0, 5)).toEqual({stepRows: 1, answerRows: 0});
		expect(paneRows(30, 0, 10)).toEqual({stepRows: 10, answerRows: 0});
		expect(paneRows(30, 20, 10)).toEqual({stepRows: 3, answerRows: 7});
		expect(paneRows(30, 6, 6)).toEqual({stepRows: 2, answerRows: 4});
		expect(paneRows(30, 2, 10)).toEqual({stepRows: 7, answerRows: 3});
	});
});
