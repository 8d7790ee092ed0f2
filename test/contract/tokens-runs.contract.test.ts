// Tokens and runs, run against both backends through the asynchronous interface: what a token
// request may be, that only a hash is kept, verification (wrong, expired, revoked secrets), the
// touch throttle; and the runs the runner records, ends and reaps.

import {createHash} from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import {describe, expect, it, vi} from 'vitest';
import type {AsyncStore} from '../../store/api.js';
import {TOKEN_PREFIX} from '../../store/index.js';
import type {RunEnd} from '../../store/runs.js';
import {notePgOff} from '../support/pg.js';
import {BACKENDS, refusalOf, storesOn, type Backend} from './backends.js';

const MINUTE_MS = 60_000;

const ended = (extra: Partial<RunEnd> = {}): RunEnd => ({finishedAt: '2026-01-01T00:05:00.000Z', outcome: 'completed', usage: null, editsApplied: 1, rejections: 0, followupsOpened: 0, error: null, ...extra});

const started = (id: string, ownerPid: number | null = null) => ({id, channelId: 'kit', itemIds: ['it_1'], instruction: 'triage', startedAt: '2026-01-01T00:00:00.000Z', logPath: null, ownerPid});

describe.each(BACKENDS)('tokens and runs on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const {fresh, again: same} = storesOn(backend);

	/** The tokens table as stored, read beside the interface: to see what a copy of the database holds. */
	async function storedTokens(): Promise<Array<Record<string, unknown>>> {
		if (backend.name === 'sqlite') {
			const db = new Database(backend.lastLocation(), {readonly: true});
			try {
				return db.prepare('SELECT * FROM tokens').all() as Array<Record<string, unknown>>;
			} finally {
				db.close();
			}
		}

		const client = new pg.Client({connectionString: backend.lastLocation()});
		await client.connect();
		try {
			return (await client.query('SELECT * FROM tokens')).rows as Array<Record<string, unknown>>;
		} finally {
			await client.end();
		}
	}


	describe('tokens', () => {
		it('creates a token whose secret is shown once and kept only as its sha256', async () => {
			const store = await fresh();
			const now = new Date();
			const {token, info} = await store.tokens.create({name: 'ci-bot', grants: ['kit', 'other', 'kit'], actor: 'human', now});
			// 256 random bits in base64url after the prefix.
			expect(token).toMatch(new RegExp(`^${TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`));
			expect(info).toEqual({name: 'ci-bot', grants: ['kit', 'other'], actor: 'human', scope: 'write', run_id: null, created_at: now.toISOString(), expires_at: null, last_used_at: null, revoked_at: null});
			expect(await store.tokens.list()).toEqual([info]);
			const [row] = await storedTokens();
			expect(row!.hash).toBe(createHash('sha256').update(token).digest('hex'));
			expect(JSON.stringify(Object.values(row!))).not.toContain(token.slice(TOKEN_PREFIX.length));
			const second = await store.tokens.create({grants: ['kit']});
			expect(second.token).not.toBe(token);
			expect(second.info.name).toMatch(/^token-[0-9a-f]{8}$/);
			expect(second.info.actor).toBe('agent');
		});

		it('verifies a good secret to its grants and actor, a run token with its run id, from another connection too', async () => {
			const store = await fresh();
			const {token} = await store.tokens.create({name: 'triager', grants: ['kit'], actor: 'human'});
			const run = await store.tokens.create({name: 'run-token', grants: ['kit'], runId: 'run-7', expiresAt: new Date(Date.now() + MINUTE_MS).toISOString()});
			const other = await same();
			expect(await other.tokens.verify(token)).toEqual({name: 'triager', grants: ['kit'], actor: {kind: 'human'}, scope: 'write'});
			expect(await other.tokens.verify(run.token)).toEqual({name: 'run-token', grants: ['kit'], actor: {kind: 'agent', run_id: 'run-7'}, scope: 'write'});
			const reader = await store.tokens.create({name: 'reader', grants: ['kit'], scope: 'read'});
			expect(await other.tokens.verify(reader.token)).toEqual({name: 'reader', grants: ['kit'], actor: {kind: 'agent'}, scope: 'read'});
		});

		it('refuses a wrong, malformed, expired or revoked secret, and verifying writes nothing', async () => {
			const store = await fresh();
			const {token} = await store.tokens.create({name: 'a', grants: ['kit'], expiresAt: new Date(Date.now() + MINUTE_MS).toISOString()});
			const before = await storedTokens();
			const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
			expect(await store.tokens.verify(flipped)).toBeNull();
			expect(await store.tokens.verify(token.slice(TOKEN_PREFIX.length))).toBeNull();
			expect(await store.tokens.verify(token + 'x'.repeat(300))).toBeNull();
			expect(await store.tokens.verify('')).toBeNull();
			// At and after its expiry, the same secret is refused.
			expect(await store.tokens.verify(token, new Date(Date.now() + MINUTE_MS + 1000))).toBeNull();
			expect(await store.tokens.verify(token)).not.toBeNull();
			expect(await storedTokens()).toEqual(before);
			await store.tokens.revoke('a');
			expect(await store.tokens.verify(token)).toBeNull();
		});

		it('refuses a bad request with one clear error and stores nothing', async () => {
			const store = await fresh();
			const cases: Array<[Parameters<AsyncStore['tokens']['create']>[0], RegExp]> = [
				[{name: '-dash', grants: ['kit']}, /token name "-dash" must be 1 to 128 letters/],
				[{name: 'x'.repeat(129), grants: ['kit']}, /token name/],
				[{name: 'ok', grants: []}, /at least one granted channel/],
				[{name: 'ok', grants: ['kit'], actor: 'robot' as 'agent'}, /token actor must be agent or human, got "robot"/],
				[{name: 'ok', grants: ['kit'], expiresAt: new Date(Date.now() - 1000).toISOString()}, /is not a time in the future/],
				[{name: 'ok', grants: ['kit'], expiresAt: 'next week'}, /is not a time in the future/],
			];
			for (const [request, message] of cases) {
				const refusal = await refusalOf(() => store.tokens.create(request));
				expect(refusal.error).toBe('invalid_argument');
				expect('message' in refusal ? refusal.message : '').toMatch(message);
			}

			expect(await store.tokens.list()).toEqual([]);
		});

		it('a name is taken for good: a second token of that name is refused, even after revocation, even at once from two connections', async () => {
			const store = await fresh();
			const other = await same();
			const both = await Promise.allSettled([store.tokens.create({name: 'twin', grants: ['kit']}), other.tokens.create({name: 'twin', grants: ['kit']})]);
			expect(both.map(result => result.status).sort()).toEqual(['fulfilled', 'rejected']);
			const kept = both.find(result => result.status === 'fulfilled')!.value.token;
			await store.tokens.revoke('twin');
			const refusal = await refusalOf(() => store.tokens.create({name: 'twin', grants: ['kit']}));
			expect(refusal).toEqual({error: 'invalid_argument', message: 'a token named "twin" already exists (revoked tokens keep their name)'});
			expect((await store.tokens.list()).length).toBe(1);
			expect(await store.tokens.verify(kept)).toBeNull();
		});

		it('revoking is idempotent (the first time stays); an unknown name is not_found', async () => {
			const store = await fresh();
			await store.tokens.create({name: 'gone', grants: ['kit']});
			const first = await store.tokens.revoke('gone');
			expect(first.revoked_at).not.toBeNull();
			// A minute later by the clock: a second revoke that wrote its own time would show.
			vi.useFakeTimers({toFake: ['Date']});
			try {
				vi.setSystemTime(Date.parse(first.revoked_at!) + 60_000);
				expect(await store.tokens.revoke('gone')).toEqual(first);
			} finally {
				vi.useRealTimers();
			}

			expect(await store.tokens.list()).toEqual([first]);
			expect(await refusalOf(() => store.tokens.revoke('nobody'))).toEqual({error: 'not_found', message: 'no token named "nobody"'});
		});

		it('touch writes the last use at most once a minute', async () => {
			const store = await fresh();
			await store.tokens.create({name: 'busy', grants: ['kit']});
			await store.tokens.create({name: 'idle', grants: ['kit']});
			const lastUsed = async () => Object.fromEntries((await store.tokens.list()).map(info => [info.name, info.last_used_at]));
			const t0 = new Date('2030-01-01T00:00:00.000Z');
			await store.tokens.touch('busy', t0);
			expect(await lastUsed()).toEqual({busy: t0.toISOString(), idle: null});
			await store.tokens.touch('busy', new Date(t0.getTime() + 30_000));
			await store.tokens.touch('busy', new Date(t0.getTime() + MINUTE_MS - 1));
			expect((await lastUsed()).busy).toBe(t0.toISOString());
			const later = new Date(t0.getTime() + MINUTE_MS + 1);
			await store.tokens.touch('busy', later);
			expect(await lastUsed()).toEqual({busy: later.toISOString(), idle: null});
			// Touching a name that is not there writes nothing and does not fail.
			await store.tokens.touch('nobody', later);
			expect((await store.tokens.list()).length).toBe(2);
		});
	});

	describe('runs', () => {
		it('records the owner pid and the process group, and lists the unfinished runs with them', async () => {
			const store = await fresh();
			await store.runs.start(started('run-1', 4242));
			await store.runs.start(started('run-2'));
			await store.runs.setProcessGroup('run-1', 4300);
			expect(await store.runs.get('run-1')).toMatchObject({owner_pid: 4242, process_group: 4300, finished_at: null, item_ids: ['it_1'], usage: null});
			const unfinished = await store.runs.unfinished();
			expect(unfinished.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
				{id: 'run-1', owner_pid: 4242, process_group: 4300, log_path: null},
				{id: 'run-2', owner_pid: null, process_group: null, log_path: null},
			]);
			expect(await store.runs.end('run-1', ended({usage: {input_tokens: 3}}))).toBe(true);
			expect((await store.runs.unfinished()).map(run => run.id)).toEqual(['run-2']);
			expect(await store.runs.get('run-1')).toMatchObject({outcome: 'completed', usage: {input_tokens: 3}, owner_pid: 4242, process_group: 4300});
			// Another connection sees the same runs.
			expect((await (await same()).runs.list()).map(run => run.id)).toEqual(['run-2', 'run-1']);
		});

		it('an end with onlyIfUnfinished leaves a finished run as it was', async () => {
			const store = await fresh();
			await store.runs.start(started('run-1'));
			expect(await store.runs.end('run-1', ended({outcome: 'completed', onlyIfUnfinished: true}))).toBe(true);
			const first = await store.runs.get('run-1');
			expect(await store.runs.end('run-1', ended({outcome: 'abandoned', error: 'owner gone', onlyIfUnfinished: true}))).toBe(false);
			expect(await store.runs.get('run-1')).toEqual(first);
			expect(await store.runs.end('missing', ended({onlyIfUnfinished: true}))).toBe(false);
			// Without the flag, an end overwrites (the runner's own end wins over a reaper's guess).
			expect(await store.runs.end('run-1', ended({outcome: 'partial'}))).toBe(true);
			expect((await store.runs.get('run-1'))!.outcome).toBe('partial');
		});

		it('a run\'s end revokes its tokens, whoever records it (the reaper\'s abandoned too), and no other token', async () => {
			const store = await fresh();
			for (const id of ['run-a', 'run-b']) {
				await store.runs.start(started(id, 4242));
			}

			const runA = await store.tokens.create({name: 'run-run-a', grants: ['kit'], runId: 'run-a'});
			const runB = await store.tokens.create({name: 'run-run-b', grants: ['kit'], runId: 'run-b'});
			const person = await store.tokens.create({name: 'person', grants: ['kit'], actor: 'human'});
			// As the reaper records a run whose sift was SIGKILLed.
			expect(await store.runs.end('run-a', ended({outcome: 'abandoned', onlyIfUnfinished: true, endSequenceUnknown: true}))).toBe(true);
			const other = await same();
			expect(await other.tokens.verify(runA.token)).toBeNull();
			expect(await other.tokens.verify(runB.token)).not.toBeNull();
			expect(await other.tokens.verify(person.token)).not.toBeNull();
			const revokedAt = (await store.tokens.list()).find(token => token.name === 'run-run-a')!.revoked_at;
			expect(revokedAt).not.toBeNull();
			// A later end (the runner's own) leaves the first revocation time as it was.
			await store.runs.end('run-a', ended({outcome: 'ok'}));
			expect((await store.tokens.list()).find(token => token.name === 'run-run-a')!.revoked_at).toBe(revokedAt);
			await store.runs.end('run-b', ended());
			expect(await other.tokens.verify(runB.token)).toBeNull();
			expect(await other.tokens.verify(person.token)).not.toBeNull();
		});

		it('setProcessGroup on an unknown run changes nothing', async () => {
			const store = await fresh();
			await store.runs.setProcessGroup('nope', 1);
			expect(await store.runs.list()).toEqual([]);
			expect(await store.runs.unfinished()).toEqual([]);
		});
	});
});
