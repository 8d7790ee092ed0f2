// The runs board's state: fan-out events folded into rows and live views, totals, escaped lines.

import {describe, expect, it} from 'vitest';
import type {FanoutEvent, FanoutRun} from '../../source/codex/fanout.js';
import type {RunResult} from '../../source/codex/runner.js';
import {boardLine, boardStatus} from '../../source/ui/features/board/view.js';
import {boardReducer, boardTotals, EMPTY_BOARD, type BoardState} from '../../source/ui/model/runs.js';

// The runs board's state: fan-out events folded into one row per run and each run's live view.

const queued = (runId: string, itemIds: string[]): FanoutRun => ({runId, index: 0, itemIds, state: 'queued', startedAt: null, finishedAt: null, stepsDone: 0, currentStep: null, usage: null, result: null, error: null});
const result = (runId: string, outcome: RunResult['outcome']): RunResult => ({runId, outcome, text: 'done', error: null, usage: {input_tokens: 100, cached_input_tokens: 0, output_tokens: 20}, durationMs: 1000, steps: [], warnings: [], editsApplied: 1, rejections: 0, followupsOpened: 0, logPath: '/tmp/x', exitCode: 0, signal: null, stderrTail: '', pid: 1, loginCommand: null});

const fold = (events: FanoutEvent[]): BoardState => events.reduce((state, event) => boardReducer(state, {type: 'event', event, instruction: 'triage', at: 1000}), EMPTY_BOARD);

describe('the runs board', () => {
	const a = queued('run-a', ['i1', 'i2']);
	const b = queued('run-b', ['i3']);
	const running = {...a, state: 'running' as const, startedAt: 1000, stepsDone: 1, currentStep: 'edit_record_item \u001B[31mBUG-1'};
	const step = {id: 's1', kind: 'mcp_tool_call', label: 'edit_record_item BUG-1', status: 'running' as const, result: null};

	it('keeps one row per run in the order queued, and each run\'s steps in its view', () => {
		const board = fold([
			{type: 'queued', run: a},
			{type: 'queued', run: b},
			{type: 'started', run: {...a, state: 'running', startedAt: 1000}},
			{type: 'update', run: running, update: {type: 'step', step}},
		]);
		expect(board.runs.map(run => [run.runId, run.state])).toEqual([['run-a', 'running'], ['run-b', 'queued']]);
		expect(board.views['run-a']?.steps).toEqual([step]);
		expect(board.views['run-a']?.instruction).toBe('triage');
		expect(board.views['run-b']?.steps).toEqual([]);
	});

	it('ends a run with its result, a skipped one as cancelled before it started', () => {
		const finished = {...running, state: 'finished' as const, finishedAt: 3000, result: result('run-a', 'ok'), usage: {input_tokens: 100, cached_input_tokens: 0, output_tokens: 20}};
		const board = fold([{type: 'queued', run: a}, {type: 'queued', run: b}, {type: 'finished', run: finished, result: finished.result}, {type: 'skipped', run: {...b, state: 'skipped'}}]);
		expect(board.views['run-a']?.result?.outcome).toBe('ok');
		expect(board.views['run-b']?.crash).toBe('Cancelled before it started.');
		expect(boardTotals(board.runs)).toEqual({running: 0, done: 2, items: 3, tokens: 120});
		expect(boardStatus(board.runs)).toEqual({text: 'Runs 0 going · 2 done · 3 items · 120 tok', tone: 'ok'});
		expect(boardStatus([], true)?.text).toBe('Watching · Runs 0 going · 0 done · 0 items · 0 tok');
		expect(boardStatus([])).toBeNull();
	});

	it('draws a line with items, steps, elapsed, tokens and the current step, escaped', () => {
		const line = boardLine(running, 1, 3500, 0);
		expect(line.text).toBe('[2] 2 items · 1 step · 2.5s · 0 tok · edit_record_item ␛[31mBUG-1');
		expect(line.text).not.toContain('\u001B');
	});

	it('a finished run\'s line counts its edits, its proposals (propose mode) and its follow-ups, as sift run does', () => {
		const done = {...running, state: 'finished' as const, finishedAt: 3000, result: {...result('run-a', 'ok'), editsApplied: 0, proposals: 3, followupsOpened: 1}};
		expect(boardLine(done, 0, 5000, 0).text).toMatch(/ · ok · 0 edits, 3 proposed \(not applied\), 1 follow-up$/);
		const applied = {...done, result: {...done.result, editsApplied: 1, proposals: 0, followupsOpened: 2}};
		expect(boardLine(applied, 0, 5000, 0).text).toMatch(/ · ok · 1 edit, 2 follow-ups$/);
	});
});
