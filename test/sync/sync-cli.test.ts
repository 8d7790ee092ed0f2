// `sift sync` through the built CLI against the fake GitHub, on SQLite and PostgreSQL: add, pull
// and push; a conflict end to end (exit 3, `sift followups resolve`, then in step); a push
// SIGKILLed after its request went but before its confirmation sends nothing twice; under --watch,
// an edit pushed at once, not at the next poll; bad input (a refused token, a missing repository,
// a token file others may read, a body too long); and the token in no output and not in the
// database file.

import {chmodSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {ensureBuilt, siftAsync, siftChild, tempDir, type CliResult} from '../support/cli.js';
import {FIXTURE_REPO, startFakeGithub, type FakeGithub} from '../support/fake-github.js';
import {cliStoreTargets} from '../support/pg.js';
import {waitUntil} from '../support/wait.js';

const TARGETS = cliStoreTargets('sift-sync-cli-');

beforeAll(() => ensureBuilt());

describe.each(TARGETS)('sift sync on $name', target => {
	let fake: FakeGithub;
	let db: string;
	const outputs: CliResult[] = [];
	beforeAll(async () => target.setUp());
	afterAll(async () => target.tearDown());
	beforeEach(async () => {
		fake = await startFakeGithub();
		db = await target.fresh();
	});
	afterEach(async () => {
		await fake.stop();
		fake.assertClean();
	});

	const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({GITHUB_TOKEN: fake.token, GH_TOKEN: '', SIFT_GITHUB_API: fake.url, SIFT_NO_GH: '1', XDG_CONFIG_HOME: tempDir('sift-config-'), ...extra});
	const run = async (args: string[], extra: NodeJS.ProcessEnv = {}) => {
		const result = await siftAsync([...args, '--db', db], env(extra));
		outputs.push(result);
		return result;
	};

	const json = async <T = any>(args: string[]): Promise<T> => {
		const result = await run([...args, '--json']);
		if (result.code !== 0 && result.code !== 3) throw new Error(`sift ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
		return JSON.parse(result.stdout) as T;
	};

	async function linked(): Promise<void> {
		const added = await run(['sync', 'add', 'github', FIXTURE_REPO]);
		expect(added.stderr).toBe('');
		expect(added.stdout).toMatch(/created channel rust ⇄ github rust-lang\/rust/);
		const pulled = await run(['sync', 'rust']);
		expect(pulled).toMatchObject({code: 0});
		expect(pulled.stdout).toMatch(/pulled 300 new, 0 changed, 0 unchanged, 200 comments.*in step/);
	}

	it('a conflict end to end: exit 3, resolved with sift followups resolve, then pushed and in step', async () => {
		await linked();
		expect((await run(['edit', '27002', 'title=Ours', '--channel', 'rust'])).code).toBe(0);
		fake.edit(27002, issue => {
			issue.title = 'Theirs';
		});
		const clash = await run(['sync']);
		expect(clash.code).toBe(3);
		expect(clash.stdout).toMatch(/1 conflict open/);
		const [conflict] = await json<Array<{id: number; kind: string; ours: unknown; theirs: unknown}>>(['followups', '--channel', 'rust']);
		expect(conflict).toMatchObject({kind: 'sync_conflict', ours: 'Ours', theirs: 'Theirs'});
		expect((await run(['followups', 'resolve', String(conflict!.id), '--ours'])).code).toBe(0);
		const after = await run(['sync', 'rust']);
		expect(after.code).toBe(0);
		expect(fake.issue(27002).title).toBe('Ours');
		expect(fake.writesTo(27002)).toHaveLength(1);
		const [status] = await json<Array<{pending: number; conflicts: number}>>(['sync', 'status']);
		expect(status).toMatchObject({pending: 0, conflicts: 0});
	});

	it('a push killed after its request went and before its confirmation sends nothing twice', async () => {
		await linked();
		expect((await run(['edit', '27003', 'title=Exactly once', '--channel', 'rust'])).code).toBe(0);
		const held = fake.holdNext((method, path) => method === 'PATCH' && path.endsWith('/issues/27003'));
		const {child, done} = siftChild(['sync', 'push', 'rust', '--db', db], env());
		await held;
		child.kill('SIGKILL');
		expect((await done).code).toBeNull();
		expect(fake.writesTo(27003)).toHaveLength(1);
		const again = await run(['sync', 'push', 'rust', '--json']);
		expect(again.code).toBe(0);
		expect(JSON.parse(again.stdout)[0].outcome.push).toMatchObject({confirmed: 1, sent: 0});
		expect(fake.writesTo(27003)).toHaveLength(1);
		expect(fake.issue(27003).title).toBe('Exactly once');
	});

	it('under --watch, an edit made meanwhile is pushed long before the next poll (an hour away)', async () => {
		await linked();
		const {child, done} = siftChild(['sync', '--watch', 'rust', '--interval', '1h', '--json', '--db', db], env());
		let printed = '';
		child.stdout!.on('data', (chunk: string) => (printed += chunk));
		try {
			// The first round (a pull with nothing to push) is done when it prints its line.
			await waitUntil(() => printed.includes('\n'), 'the first round of the watch', {timeoutMs: 60_000});
			expect((await run(['edit', '27004', 'title=Pushed while watching', '--channel', 'rust'])).code).toBe(0);
			await waitUntil(() => fake.writesTo(27004).length > 0, 'the watch to push the edit', {timeoutMs: 60_000});
			expect(fake.issue(27004).title).toBe('Pushed while watching');
		} finally {
			child.kill('SIGTERM');
		}

		expect((await done).code).toBe(0);
		expect(fake.writesTo(27004)).toHaveLength(1);
	});

	it('bad input: a refused token, a missing repository, a body too long; each named, nothing half-written', async () => {
		await linked();
		const refused = await run(['sync', 'rust'], {GITHUB_TOKEN: 'ghp_notTheRightOne'});
		expect(refused.code).toBe(1);
		expect(refused.stderr.trim().split('\n')).toEqual(['sift: sync of rust failed: github rust-lang/rust: GitHub refused the token (401 Bad credentials): check GITHUB_TOKEN, GH_TOKEN, `gh auth login` or sync.github_token_file']);
		expect(refused.stderr).not.toContain('ghp_notTheRightOne');
		const missing = await run(['sync', 'add', 'github', 'nobody/nothing', '--channel', 'nothing']);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toMatch(/^sift: github nobody\/nothing: not found on GitHub \(404\)/);
		expect((await json<Array<{channel_id: string}>>(['sync', 'list'])).map(link => link.channel_id)).toEqual(['rust']);
		expect((await run(['edit', '27004', `body=${'x'.repeat(65_537)}`, '--channel', 'rust'])).code).toBe(0);
		const long = await run(['sync', 'push', 'rust']);
		expect(long.code).toBe(3);
		expect(long.stdout).toMatch(/1 refused/);
		expect(fake.writesTo(27004)).toEqual([]);
		const followUps = await json<Array<{key: string; message: string}>>(['followups', '--channel', 'rust']);
		expect(followUps).toEqual([expect.objectContaining({key: 'body', message: expect.stringContaining('65,537 characters; GitHub keeps at most 65,536')})]);
	});

	it('follows a renamed repository and updates the link', async () => {
		await linked();
		fake.rename(FIXTURE_REPO, 'rust-lang/rust2');
		fake.edit(27001, issue => {
			issue.title = 'After the rename';
		}, 'rust-lang/rust2');
		const result = await run(['sync', 'pull']);
		expect(result.code).toBe(0);
		expect(result.stderr).toMatch(/renamed to rust-lang\/rust2/);
		expect((await json<Array<{remote: string}>>(['sync', 'list']))[0]!.remote).toBe('rust-lang/rust2');
	});

	it('the token is in no output and not in the database', async () => {
		outputs.length = 0;
		await linked();
		await run(['sync', 'status']);
		await run(['sync', 'list', '--json']);
		await run(['sync', 'rust'], {GITHUB_TOKEN: `${fake.token}x`});
		await run(['doctor', '--json']);
		for (const output of outputs) {
			expect(output.stdout).not.toContain(fake.token);
			expect(output.stderr).not.toContain(fake.token);
		}

		if (target.name === 'sqlite') {
			const folder = join(db, '..');
			for (const file of readdirSync(folder)) expect(readFileSync(join(folder, file)).includes(fake.token)).toBe(false);
		}
	});
});

describe('the token file', () => {
	it('is refused, naming it, unless only its owner may read it', async () => {
		const fake = await startFakeGithub();
		try {
			const config = tempDir('sift-config-');
			const file = join(config, 'github-token');
			writeFileSync(file, `${fake.token}\n`);
			chmodSync(file, 0o644);
			const configFile = join(config, 'config.yaml');
			writeFileSync(configFile, `sync:\n  github_token_file: ${file}\n`);
			const db = join(tempDir('sift-sync-cli-'), 'store.db');
			const environment = {GITHUB_TOKEN: '', GH_TOKEN: '', SIFT_NO_GH: '1', SIFT_GITHUB_API: fake.url};
			const open = await siftAsync(['sync', 'add', 'github', FIXTURE_REPO, '--db', db, '--config', configFile], environment);
			expect(open.code).toBe(1);
			expect(open.stderr.trim()).toBe(`sift: the GitHub token file ${file} may be read by others (mode 0644); make it private: chmod 600 ${file}`);
			chmodSync(file, 0o600);
			const fine = await siftAsync(['sync', 'add', 'github', FIXTURE_REPO, '--db', db, '--config', configFile], environment);
			expect(fine.code).toBe(0);
			const none = await siftAsync(['sync', 'rust', '--db', db], environment);
			expect(none.code).toBe(1);
			expect(none.stderr).toMatch(/no GitHub token: set GITHUB_TOKEN or GH_TOKEN/);
			expect(`${open.stdout}${open.stderr}${fine.stdout}${fine.stderr}`).not.toContain(fake.token);
		} finally {
			await fake.stop();
			fake.assertClean();
		}
	});
});
