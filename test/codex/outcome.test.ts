// Outcome decisions.

import {describe, expect, it} from 'vitest';
import {decideOutcome, stderrReason, type OutcomeFacts} from '../../source/codex/outcome.js';

const FACTS: OutcomeFacts = {
	stoppedBy: null,
	timeoutMs: 1_800_000,
	turnCompleted: false,
	turnFailedMessage: null,
	lastErrorMessage: null,
	text: '',
	stderrTail: '',
	exitCode: 0,
	signal: null,
};

const decide = (facts: Partial<OutcomeFacts>) => decideOutcome({...FACTS, ...facts});

describe('decideOutcome', () => {
	it('ok needs turn.completed and an answer; the exit status does not overrule them', () => {
		expect(decide({turnCompleted: true, text: 'done', exitCode: 1})).toEqual({outcome: 'ok', error: null});
	});

	it('an answer without turn.completed is partial, whatever the exit status', () => {
		expect(decide({text: 'done', exitCode: 0}).outcome).toBe('partial');
		expect(decide({text: 'done', exitCode: null, signal: 'SIGKILL'})).toEqual({outcome: 'partial', error: expect.stringContaining('killed by SIGKILL')});
	});

	it('a clean exit without turn.completed or an answer is still a failure', () => {
		expect(decide({exitCode: 0})).toEqual({outcome: 'failed', error: 'Codex ended before finishing its turn (exit code 0).'});
		expect(decide({turnCompleted: true}).outcome).toBe('failed');
	});

	it('turn.failed decides over everything the stream said before', () => {
		expect(decide({turnFailedMessage: 'context window exceeded', text: 'half', lastErrorMessage: 'Reconnecting... 1/5'})).toEqual({outcome: 'failed', error: 'context window exceeded'});
	});

	it('without turn.failed, the last error event explains, then the stderr tail', () => {
		expect(decide({lastErrorMessage: 'stream disconnected', stderrTail: 'Error: other'}).error).toBe('stream disconnected');
		expect(decide({stderrTail: 'INFO start\nError: cannot read config\n'}).error).toBe('Error: cannot read config');
	});

	it('a transient error event followed by success is ok', () => {
		expect(decide({lastErrorMessage: 'Reconnecting... 2/5', turnCompleted: true, text: 'done'}).outcome).toBe('ok');
	});

	it.each([
		'unexpected status 401 Unauthorized: Missing bearer',
		'Not logged in',
		'Please log in again',
		'Your access token could not be refreshed. Please sign in again.',
		'unauthorized',
	])('%s is auth_required, with a pointer to `codex login`', message => {
		const decision = decide({turnFailedMessage: message});
		expect(decision.outcome).toBe('auth_required');
		expect(decision.error).toContain(message);
		expect(decision.error).toContain('`codex login`');
	});

	it('finds auth failures in the stderr tail too', () => {
		expect(decide({stderrTail: 'Error: Not logged in\n', exitCode: 1}).outcome).toBe('auth_required');
	});

	it('sift stopping the run decides first', () => {
		expect(decide({stoppedBy: 'deadline', timeoutMs: 90_000, text: 'x', turnCompleted: true})).toEqual({outcome: 'timed_out', error: 'Codex did not finish within 90 s; it was stopped.'});
		expect(decide({stoppedBy: 'cancel', turnFailedMessage: '401'}).outcome).toBe('cancelled');
	});
});

describe('stderrReason', () => {
	it('names the required MCP server failure, not the backtrace after it', () => {
		const tail = [
			'Reading additional input from stdin...',
			'Error: thread/start failed: required MCP servers failed to initialize: sift: handshaking with MCP server failed',
			'',
			'Stack backtrace:',
			'   0: <unknown>',
		].join('\n');
		expect(stderrReason(tail)).toMatch(/^Error: thread\/start failed: required MCP servers failed to initialize: sift.*npm run build/);
	});

	it('falls back to the last line, and to null for an empty tail', () => {
		expect(stderrReason('one\ntwo\n')).toBe('two');
		expect(stderrReason(' \n')).toBeNull();
	});
});
