// The GitHub adapter against the fake GitHub (every exchange checked against GitHub's OpenAPI
// document): what a pull translates and what it costs, what a push sends, the check of an entry a
// crash left 'sending', and the failures GitHub answers with (rate limits waited out on an
// injected clock, 5xx and dropped connections retried, 401/403/404/410 as one line naming the
// repository, a rename followed).

import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {githubChannel, issueOf} from '../../source/import/github.js';
import {GithubAdapter} from '../../source/sync/github/adapter.js';
import {GithubClient, GithubError} from '../../source/sync/github/client.js';
import {githubLinkFields, GITHUB_STATE_REASONS} from '../../source/sync/github/mapping.js';
import type {OutboxEntry, RemoteRecord, SyncLink} from '../../store/sync/types.js';
import {SteppedClock} from '../support/clock.js';
import {FIXTURE_REPO, startFakeGithub, type FakeGithub} from '../support/fake-github.js';

const channel = githubChannel('rust', 'rust', {states: new Set(['open', 'closed']), reasons: new Set(GITHUB_STATE_REASONS), labels: new Map([['x', {}]]), assignees: new Set(['alice']), milestones: new Set(['m'])});
const mapped = githubLinkFields(channel);

function linkFor(state: Record<string, unknown> = {since: null, etag: null, read_only: mapped.readOnly}, remote = FIXTURE_REPO): SyncLink {
	return {channel_id: 'rust', tracker: 'github', remote, key_field: 'number', fields: mapped.fields, state, created_at: '', last_pull_at: null, last_push_at: null};
}

let fake: FakeGithub;
let clock: SteppedClock;
let client: GithubClient;
let adapter: GithubAdapter;

beforeEach(async () => {
	fake = await startFakeGithub();
	clock = new SteppedClock();
	client = new GithubClient({token: fake.token, baseUrl: fake.url, clock, writeSpacingMs: 0, retryBaseMs: 1});
	adapter = new GithubAdapter(client);
});

afterEach(async () => {
	await fake.stop();
	fake.assertClean();
});

async function pullAll(link: SyncLink): Promise<{records: RemoteRecord[]; state: Record<string, unknown>; renamed?: string}> {
	const run = adapter.pull(link, typeof link.state.since === 'string' ? link.state.since : null);
	const records: RemoteRecord[] = [];
	for await (const page of run.pages) records.push(...page);
	// A first pull's comments come after the pages, a listing page at a time: added to their records here, as the store adds them.
	const byId = new Map(records.map(record => [record.remote_id, record]));
	for await (const lists of run.comments ?? []) {
		for (const list of lists) byId.get(list.remote_id)?.comments?.push(...list.comments);
	}

	return {records, state: run.state(), renamed: run.renamedTo?.()};
}

const omit = (object: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(object).filter(([name]) => name !== key));

let nextId = 1;
const entry = (remoteId: number, field: string, base: unknown, value: unknown, kind: 'scalar' | 'set' = 'scalar'): OutboxEntry => ({
	id: nextId++, channel_id: 'rust', item_id: `it_${remoteId}`, remote_id: String(remoteId), field, kind, base, value, state: 'pending', attempts: 0, last_error: null, created_at: '',
});

async function sendAll(link: SyncLink, entries: OutboxEntry[]) {
	const units = await adapter.push(link, entries);
	const results = [];
	for (const unit of units) results.push(...(unit.refused === undefined ? await unit.send() : unit.entries.map(({id}) => ({id, refused: unit.refused}))));
	return results;
}

describe('pull', () => {
	it('translates every issue with the importer\'s mapping: pull requests told apart, the tracker\'s times, comments', async () => {
		const {records, state} = await pullAll(linkFor());
		expect(records).toHaveLength(300);
		expect(records.filter(record => record.values.is_pull_request === true)).toHaveLength(193);
		const first = fake.issue(27001);
		const record = records.find(candidate => candidate.remote_id === '27001')!;
		expect(record).toMatchObject({created_at: first.created_at, updated_at: first.updated_at});
		expect(record.values).toMatchObject({number: 27001, title: first.title, state: first.state});
		const withComments = records.filter(candidate => (candidate.comments ?? []).length > 0);
		expect(withComments).toHaveLength(100);
		expect(withComments[0]!.comments![0]).toMatchObject({author: 'bob', body: expect.stringMatching(/^Comment 1 on #/)});
		expect(records.every(candidate => Array.isArray(candidate.comments))).toBe(true);
		// 3 pages of issues, 2 of comments.
		expect(fake.countedRequests()).toHaveLength(5);
		expect(state.since).toEqual(expect.any(String));
	});

	it('a pull request is one with a non-null pull_request (the importer\'s rule too)', () => {
		const issue = {...fake.issue(27002), html_url: 'https://github.com/rust-lang/rust/issues/27002', url: 'https://api.github.com/repos/rust-lang/rust/issues/27002'};
		expect(issueOf({...issue, pull_request: null})).toMatchObject({is_pull_request: false});
		expect(issueOf({...issue, pull_request: {url: 'x'}})).toMatchObject({is_pull_request: true});
		expect(issueOf(omit(issue, 'pull_request'))).toMatchObject({is_pull_request: false});
	});

	it('an idle re-pull costs one 304 once the cursor has settled', async () => {
		const first = await pullAll(linkFor());
		const second = await pullAll(linkFor(first.state));
		expect(second.records.length).toBeLessThan(300);
		expect(second.state.etag).toEqual(expect.any(String));
		const before = fake.requests.length;
		const third = await pullAll(linkFor(second.state));
		expect(third.records).toEqual([]);
		expect(fake.requests.slice(before)).toEqual([expect.objectContaining({status: 304, conditional: true})]);
		expect(third.state).toEqual(second.state);
	});

	it('a change on GitHub comes back with the issue\'s whole comment list', async () => {
		const settled = await pullAll(linkFor(await pullAll(linkFor()).then(result => result.state)));
		const commented = [...fake.repo().issues.values()][0]!.number as number;
		fake.addComment(commented, 'new words');
		fake.edit(27001, issue => {
			issue.title = 'Renamed on GitHub';
		});
		const {records} = await pullAll(linkFor(settled.state));
		expect(records.find(record => record.remote_id === '27001')!.values.title).toBe('Renamed on GitHub');
		const withComment = records.find(record => record.remote_id === String(commented))!;
		expect(withComment.comments!.map(comment => comment.body)).toEqual([`Comment 1 on #${commented}`, `Comment 2 on #${commented}`, 'new words']);
	});
});

describe('push', () => {
	it('adds and removes labels, changes state with its reason, and the fake counts one write each', async () => {
		const number = 27001;
		fake.edit(number, issue => {
			issue.labels = [fake.label('old')];
			issue.state = 'open';
		});
		const link = linkFor();
		const results = await sendAll(link, [entry(number, 'labels', ['old'], ['new'], 'set'), entry(number, 'state', 'open', 'closed'), entry(number, 'state_reason', null, 'not_planned')]);
		expect(results.every(result => 'ok' in result && result.ok)).toBe(true);
		expect((fake.issue(number).labels as Array<{name: string}>).map(label => label.name)).toEqual(['new']);
		expect(fake.issue(number)).toMatchObject({state: 'closed', state_reason: 'not_planned'});
		expect(fake.writesTo(number).map(write => write.change)).toEqual(['labels+new', 'labels-old', 'state']);
	});

	it('says whether GitHub already holds an entry\'s value, so a journaled entry is not sent twice', async () => {
		const link = linkFor();
		const title = entry(27001, 'title', fake.issue(27001).title, 'Sent before the crash');
		expect(await adapter.remoteHas(link, title)).toEqual({holds: false});
		await sendAll(link, [title]);
		expect(await adapter.remoteHas(link, title)).toEqual({holds: true, remoteValue: 'Sent before the crash'});
		const labels = entry(27001, 'labels', [], ['a'], 'set');
		await sendAll(link, [labels]);
		fake.edit(27001, issue => (issue.labels as unknown[]).push(fake.label('someone-else')));
		expect(await adapter.remoteHas(link, labels)).toEqual({holds: true, remoteValue: ['a']});
	});

	it('refuses a body over 65,536 characters before sending anything', async () => {
		const before = fake.requests.length;
		const results = await sendAll(linkFor(), [entry(27001, 'body', 'short', 'x'.repeat(65_537))]);
		expect(results).toEqual([{id: expect.any(Number), refused: 'the body of #27001 is 65,537 characters; GitHub keeps at most 65,536'}]);
		expect(fake.requests.length).toBe(before);
	});

	it('an assignee GitHub ignores, and a milestone it does not have, become refusals naming them', async () => {
		const results = await sendAll(linkFor(), [entry(27001, 'assignees', [], ['mallory'], 'set'), entry(27001, 'milestone', null, 'No such milestone')]);
		expect(results).toEqual(expect.arrayContaining([
			expect.objectContaining({ok: false, followUp: true, error: expect.stringContaining('did not add mallory')}),
			expect.objectContaining({ok: false, followUp: true, error: expect.stringContaining('no milestone titled "No such milestone"')}),
		]));
		expect(fake.writes).toEqual([]);
	});
});

describe('failures', () => {
	it('waits out a secondary rate limit for as long as Retry-After says, on the injected clock', async () => {
		fake.failNext({status: 403, retryAfter: 30});
		const pulled = pullAll(linkFor());
		const started = clock.now();
		expect(await clock.asleep()).toBe(started + 30_000);
		clock.advance(30_000);
		expect((await pulled).records).toHaveLength(300);
		fake.failNext({status: 429, retryAfter: 7});
		const again = pullAll(linkFor());
		expect(await clock.asleep()).toBe(clock.now() + 7000);
		clock.advance(7000);
		expect((await again).records).toHaveLength(300);
	});

	it('retries a 502 and a dropped connection', async () => {
		fake.failNext({status: 502});
		fake.failNext({status: 'drop'});
		expect((await pullAll(linkFor())).records).toHaveLength(300);
		expect(fake.requests.slice(0, 2).map(request => request.status)).toEqual([502, 0]);
	});

	it.each([[401, /refused the token/], [403, /refused access/], [404, /not found/]] as const)('answers %i with one line naming the repository, never the token', async (status, why) => {
		fake.setRepoStatus(status);
		const error = await pullAll(linkFor()).catch((caught: unknown) => caught) as GithubError;
		expect(error).toBeInstanceOf(GithubError);
		expect(error.fatal).toBe(true);
		expect(error.message).toMatch(new RegExp(`^github ${FIXTURE_REPO}: .*`));
		expect(error.message).toMatch(why);
		expect(error.message).not.toContain('\n');
		expect(error.message).not.toContain(fake.token);
	});

	it('an issue deleted on GitHub (410) fails its entries alone, naming the issue', async () => {
		fake.deleteIssue(27001);
		const link = linkFor();
		const title = entry(27001, 'title', 'a', 'b');
		expect(await adapter.remoteHas(link, title)).toEqual({holds: false});
		expect(await sendAll(link, [title])).toEqual([{id: title.id, ok: false, followUp: true, error: '#27001 is not on GitHub any more (410)'}]);
	});

	it('a wrong token is refused the same way', async () => {
		const wrong = new GithubAdapter(new GithubClient({token: 'ghp_wrong', baseUrl: fake.url, clock, retryBaseMs: 1}));
		const error = await (async () => {
			for await (const _ of wrong.pull(linkFor(), null).pages) { /* drain */ }
		})().catch((caught: unknown) => caught) as Error;
		expect(error.message).toMatch(/^github rust-lang\/rust: GitHub refused the token \(401/);
	});

	it('follows a renamed repository and says where it went', async () => {
		fake.rename(FIXTURE_REPO, 'rust-lang/rust-renamed');
		const {records, renamed} = await pullAll(linkFor());
		expect(records).toHaveLength(300);
		expect(renamed).toBe('rust-lang/rust-renamed');
	});
});
