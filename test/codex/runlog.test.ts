// Run logs: writing, reading, repairing.

import {appendFileSync, readFileSync, readdirSync, statSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {listRunLogPaths, loadRunLog, RunLogWriter, type RunEndLine} from '../../source/codex/runlog.js';
import {runLogPath} from '../../source/codex/paths.js';
import {tempDir} from './support.js';

const START = {run_id: 'run-1', started_at: '2025-01-02T03:04:05.000Z', channel_id: 'bugs', item_ids: ['a'], instruction: 'triage', model: null};
const END: Omit<RunEndLine, 'sift'> = {
	run_id: 'run-1',
	finished_at: '2025-01-02T03:05:00.000Z',
	outcome: 'ok',
	text: 'done',
	error: null,
	usage: null,
	duration_ms: 55_000,
	edits_applied: 1,
	rejections: 0,
	followups_opened: 0,
	exit_code: 0,
	signal: null,
	stderr_tail: '',
};

function writeLog(stateDir: string, runId = 'run-1'): string {
	const writer = new RunLogWriter(runLogPath(stateDir, runId));
	writer.start({...START, run_id: runId});
	writer.stdout('{"type":"turn.started"}');
	writer.stdout('not json');
	writer.stdout('{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":2}}');
	writer.end({...END, run_id: runId});
	return writer.file;
}

describe('run logs', () => {
	it('hold the start line, each stdout line as received, and the end line', () => {
		const file = writeLog(tempDir());
		const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
		expect(lines).toHaveLength(5);
		expect(lines[1]).toBe('{"type":"turn.started"}');
		expect(JSON.parse(lines[2]!)).toEqual({sift: 'raw', line: 'not json'});
		const log = loadRunLog(file);
		expect(log.start).toEqual({sift: 'start', ...START});
		expect(log.end).toEqual({sift: 'end', ...END});
		expect(log.events.map(event => event.type)).toEqual(['turn.started', 'turn.completed']);
		expect(log.backupPath).toBeNull();
	});

	it('repair on load: malformed lines dropped, the original backed up first, valid lines kept', () => {
		const stateDir = tempDir();
		const file = writeLog(stateDir);
		const original = readFileSync(file, 'utf8');
		const valid = original.trimEnd().split('\n');
		// A crash mid-write, and some damage in the middle.
		writeFileSync(file, [valid[0], '{"type":"item.sta', valid[1], '\u0000\u0000garbage', ...valid.slice(2), '{"type":"tu'].join('\n'));
		const damaged = readFileSync(file, 'utf8');

		const log = loadRunLog(file);
		expect(log.backupPath).not.toBeNull();
		expect(readFileSync(log.backupPath!, 'utf8')).toBe(damaged);
		expect(readFileSync(file, 'utf8')).toBe(original);
		expect(log.end?.outcome).toBe('ok');

		// Once repaired, loading again changes nothing and makes no second backup.
		expect(loadRunLog(file).backupPath).toBeNull();
		expect(readdirSync(path.dirname(file)).filter(name => name.endsWith('.bak'))).toHaveLength(1);
	});

	it('a log without an end line (sift died mid-run) loads with end null', () => {
		const stateDir = tempDir();
		const writer = new RunLogWriter(runLogPath(stateDir, 'run-2'));
		writer.start({...START, run_id: 'run-2'});
		appendFileSync(writer.file, '{"type":"turn.started"}\n{"type":"item.st');
		const log = loadRunLog(writer.file);
		expect(log.start?.run_id).toBe('run-2');
		expect(log.end).toBeNull();
		expect(log.events).toHaveLength(1);
	});

	it('lists logs oldest first and ignores backups', () => {
		const stateDir = tempDir();
		writeLog(stateDir, 'run-b');
		writeLog(stateDir, 'run-a');
		writeFileSync(runLogPath(stateDir, 'run-a') + '.x.bak', '');
		expect(listRunLogPaths(stateDir).map(file => path.basename(file))).toEqual(['run-a.jsonl', 'run-b.jsonl']);
		expect(listRunLogPaths(path.join(stateDir, 'none'))).toEqual([]);
	});
});

describe('run log files are private', () => {
	const mode = (file: string) => statSync(file).mode & 0o777;

	it('a new state dir and its runs folder are 0700, a run log 0600, whatever the umask', () => {
		const stateDir = path.join(tempDir(), 'state', 'sift');
		const file = runLogPath(stateDir, 'run-1');
		RunLogWriter.assertWritable(file);
		const writer = new RunLogWriter(file);
		writer.start(START);
		writer.end(END);
		expect(mode(path.dirname(stateDir))).toBe(0o700);
		expect(mode(stateDir)).toBe(0o700);
		expect(mode(path.dirname(file))).toBe(0o700);
		expect(mode(file)).toBe(0o600);
	});

	it('a repaired log stays 0600', () => {
		const file = runLogPath(path.join(tempDir(), 'state'), 'run-1');
		new RunLogWriter(file).start(START);
		appendFileSync(file, 'not json\n');
		expect(loadRunLog(file).backupPath).not.toBeNull();
		expect(mode(file)).toBe(0o600);
	});
});
