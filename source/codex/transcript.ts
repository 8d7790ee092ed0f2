// Rebuilds earlier exchanges from run logs for the next prompt.

import {existsSync} from 'node:fs';
import {loadRunLog, type RunLog} from './runlog.js';
import {runLogPath} from './paths.js';

/** One earlier exchange: what the person asked, and Codex's final answer to it. */
export type Turn = {user: string; assistant: string; partial: boolean};

const ANSWERED = new Set(['ok', 'partial']);

/**
 * Rebuilds the conversation from run logs: only a paired start and end line of the
 * same run count, and only `ok`/`partial` runs with an answer. Tool calls and their raw output
 * are never replayed: a record's text must not come back to the model as if someone had said it.
 */
export function buildTranscript(logs: RunLog[]): Turn[] {
	return logs.flatMap(log => {
		const {start, end} = log;
		if (!start || !end || start.run_id !== end.run_id) return [];
		if (!ANSWERED.has(end.outcome) || typeof end.text !== 'string' || !end.text.trim()) return [];
		if (typeof start.instruction !== 'string' || !start.instruction.trim()) return [];
		return [{user: start.instruction, assistant: end.text, partial: end.outcome === 'partial'}];
	});
}

/** The transcript of these runs, in the order given; missing logs are skipped, damaged ones repaired. */
export function loadTranscript(stateDir: string, runIds: readonly string[]): Turn[] {
	const files = runIds.map(id => runLogPath(stateDir, id)).filter(file => existsSync(file));
	return buildTranscript(files.map(file => loadRunLog(file)));
}
