// Help, version, usage errors, one-line failures.

import {existsSync, mkdirSync} from 'node:fs';
import {join} from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {demoDatabase, ensureBuilt, fileDigest, sift, tempDir} from '../support/cli.js';

beforeAll(() => ensureBuilt());

/**
 * Every subcommand with a flag it does not take, one it takes but must not repeat, and a bad
 * value. `''` is `sift` with no subcommand (the TUI).
 */
type Case = {command: string; misplaced: string[]; repeated: string[]; badValue: string[]; badValueMessage: RegExp};

const CASES: Case[] = [
	{command: '', misplaced: ['--all'], repeated: ['--channel', 'a', '--channel', 'b'], badValue: ['--timeout', 'soon'], badValueMessage: /--timeout must be a whole number, got "soon"/},
	{command: 'demo', misplaced: ['--filter', 'a=b'], repeated: ['--items', '5', '--items', '6'], badValue: ['--items', '0'], badValueMessage: /--items must be from 1 to/},
	{command: 'import', misplaced: ['--where', 'x'], repeated: ['--json', '--json'], badValue: ['--db'], badValueMessage: /--db needs a value/},
	{command: 'channels', misplaced: ['--limit', '3'], repeated: ['--json', '--json'], badValue: ['--json=yes'], badValueMessage: /--json takes no value/},
	{command: 'list', misplaced: ['--grant', 'bugs'], repeated: ['--limit', '2', '--limit', '3'], badValue: ['--limit', '51'], badValueMessage: /--limit must be from 1 to 50, got 51/},
	{command: 'show', misplaced: ['--expect-version', '1'], repeated: ['--channel', 'bugs', '--channel', 'bugs'], badValue: ['--channel'], badValueMessage: /--channel needs a value/},
	{command: 'edit', misplaced: ['--all'], repeated: ['--expect-version', '1', '--expect-version', '2'], badValue: ['--expect-version', 'abc'], badValueMessage: /--expect-version must be a whole number, got "abc"/},
	{command: 'add', misplaced: ['--before', 'it_0000000001'], repeated: ['--json', '--json'], badValue: ['--channel', '--json'], badValueMessage: /--channel needs a value/},
	{command: 'delete', misplaced: ['--limit', '1'], repeated: ['--expect-version', '1', '--expect-version', '1'], badValue: ['--expect-version', '0'], badValueMessage: /--expect-version must be 1 or greater, got 0/},
	{command: 'events', misplaced: ['--before', 'x'], repeated: ['--after', '1', '--after', '2'], badValue: ['--limit=-1'], badValueMessage: /--limit must be from 1 to 100, got -1/},
	{command: 'followups', misplaced: ['--limit', '5'], repeated: ['--json', '--json'], badValue: ['--db'], badValueMessage: /--db needs a value/},
	{command: 'mcp', misplaced: ['--all'], repeated: ['--actor', 'agent', '--actor', 'human'], badValue: ['--owner-pid', 'me'], badValueMessage: /--owner-pid must be a whole number, got "me"/},
	{command: 'run', misplaced: ['--grant', 'bugs'], repeated: ['--timeout', '120', '--timeout', '60'], badValue: ['--timeout', '0'], badValueMessage: /--timeout must be from 1 to/},
	{command: 'runs', misplaced: ['--channel', 'bugs'], repeated: ['--limit', '2', '--limit', '3'], badValue: ['--limit', 'many'], badValueMessage: /--limit must be a whole number, got "many"/},
	{command: 'doctor', misplaced: ['--where', 'status:new'], repeated: ['--codex', 'a', '--codex', 'b'], badValue: ['--codex'], badValueMessage: /--codex needs a value/},
];

describe('every subcommand: help, unknown, repeated and misplaced flags, bad values', () => {
	let db: string;
	let digest: string;
	beforeAll(() => {
		db = demoDatabase(5);
		digest = fileDigest(db);
	});

	/** Runs the command against the demo database (where it takes --db) and checks nothing was written. */
	function run(command: string, args: string[]) {
		const words = command === '' ? [] : [command];
		const takesDb = !args.includes('--db');
		const result = sift([...words, ...args, ...(takesDb ? ['--db', db] : [])], {SIFT_CODEX: '/nonexistent/codex'});
		expect(fileDigest(db), `${command} ${args.join(' ')} changed the database`).toBe(digest);
		return result;
	}

	function expectUsageError(result: ReturnType<typeof sift>, command: string, message: RegExp) {
		expect(result.code, result.stderr).toBe(2);
		expect(result.stdout).toBe('');
		const lines = result.stderr.trimEnd().split('\n');
		expect(lines, result.stderr).toHaveLength(1);
		expect(lines[0]).toMatch(/^sift: /);
		expect(lines[0]).toMatch(message);
		expect(lines[0]).toContain(`see \`sift${command === '' ? '' : ` ${command}`} --help\``);
		expect(result.stderr).not.toMatch(/\n\s+at /);
	}

	for (const {command, misplaced, repeated, badValue, badValueMessage} of CASES) {
		const name = `sift${command === '' ? '' : ` ${command}`}`;
		for (const help of ['--help', '-h']) {
			it(`${name} ${help} prints its usage and does nothing else`, () => {
				const result = run(command, [help]);
				expect(result.code, result.stderr).toBe(0);
				expect(result.stderr).toBe('');
				expect(result.stdout).toMatch(command === '' ? /^Usage: sift \[COMMAND\]/ : new RegExp(`^Usage: sift ${command}\\b`));
				expect(result.stdout).toMatch(/--help\s+print this help|-h, --help/);
			});
		}

		it(`${name}: an unknown flag is a usage error`, () => {
			expectUsageError(run(command, ['--frobnicate']), command, /unknown flag --frobnicate/);
		});

		it(`${name}: a flag of another command is a usage error`, () => {
			expectUsageError(run(command, misplaced), command, new RegExp(`${misplaced[0]} does not apply to ${name}`));
		});

		it(`${name}: a repeated flag is a usage error`, () => {
			expectUsageError(run(command, repeated), command, new RegExp(`${repeated[0]} is given more than once`));
		});

		it(`${name}: a bad flag value is a usage error`, () => {
			expectUsageError(run(command, badValue), command, badValueMessage);
		});
	}

	it('--limit outside 1..50 is a usage error for list', () => {
		for (const value of ['0', '51', '-1', 'abc', '2.5', '']) {
			expectUsageError(run('list', [`--limit=${value}`]), 'list', /--limit (must be|needs a value)/);
		}
	});
});

describe('help, version and errors', () => {
	it('sift --version prints the version', () => {
		const result = sift(['--version']);
		expect(result.code).toBe(0);
		expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
	});

	it('sift --help lists every command; sift help COMMAND is COMMAND --help', () => {
		const main = sift(['--help']);
		for (const command of ['demo', 'import', 'channels', 'list', 'show', 'edit', 'add', 'delete', 'events', 'followups', 'mcp', 'run', 'runs', 'doctor']) {
			expect(main.stdout).toMatch(new RegExp(`^  ${command}\\s`, 'm'));
		}

		expect(sift(['help', 'list']).stdout).toBe(sift(['list', '--help']).stdout);
	});

	it('sift run --help lists the exit codes, abandoned included', () => {
		const {stdout} = sift(['run', '--help']);
		for (const line of [/^\s+0\s+ok/m, /^\s+1\s+failed, or codex_missing/m, /^\s+1\s+agent_sandbox_unavailable/m, /^\s+3\s+partial/m, /^\s+4\s+auth_required/m, /^\s+5\s+timed_out/m, /^\s+130\s+cancelled/m, /abandoned in `sift runs` only/]) {
			expect(stdout).toMatch(line);
		}
	});

	it('edit and delete --help say what happens without --expect-version', () => {
		expect(sift(['edit', '--help']).stdout).toMatch(/Without --expect-version the edit applies to whatever version is current/);
		expect(sift(['delete', '--help']).stdout).toMatch(/Without --expect-version the item is deleted whatever its current version/);
	});

	it('sift demo --help neither creates a database nor opens the TUI', () => {
		const data = tempDir('sift-data-');
		const result = sift(['demo', '--help'], {XDG_DATA_HOME: data});
		expect(result.code).toBe(0);
		expect(existsSync(join(data, 'sift', 'sift.db'))).toBe(false);
	});

	it('an unexpected failure is one line; SIFT_DEBUG=1 adds the stack trace', () => {
		const dir = tempDir('sift-bad-');
		const notADatabase = join(dir, 'x.db');
		// A folder where the database file should be: SQLite cannot open it.
		mkdirSync(notADatabase);
		const plain = sift(['list', '--db', notADatabase]);
		expect(plain.code).toBe(1);
		expect(plain.stderr.trimEnd().split('\n')).toHaveLength(1);
		expect(plain.stderr).toMatch(/^sift: /);
		const debug = sift(['list', '--db', notADatabase], {SIFT_DEBUG: '1'});
		expect(debug.stderr).toMatch(/\n\s+at /);
	});
});
