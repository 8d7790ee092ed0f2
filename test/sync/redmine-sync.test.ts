// Two-way sync with a live Redmine 5 (Debian's package, test/support/redmine.ts), through the built
// CLI on SQLite and PostgreSQL stores: link and pull (the mapping read from the server, journals as
// comments), edits on both sides with a clash resolved through `sift followups resolve`, the push
// read back from Redmine's own API; the refusals Redmine gives (a status the workflow forbids, a
// 422, a closed version, a member removed) as follow-ups with nothing half-applied; a push
// interrupted after its request confirmed without a second write, and the real `sift sync push`
// SIGKILLed at seeded points in its crash window (a holding proxy keeps back Redmine's answer); an
// idle re-sync at its floor of one list request, with journals read only for issues that changed;
// a wrong key and HTML where JSON was expected, each one line, the key in no output and not in the
// store.

import {createServer, type Server} from 'node:http';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openAsyncStore} from '../../store/index.js';
import {pullChannel, pushChannel} from '../../source/sync/engine-loop.js';
import {connectRedmine} from '../../source/sync/redmine/connect.js';
import {ensureBuilt, siftAsync, tempDir, type CliResult} from '../support/cli.js';
import {createTestDatabase, PG_OFF, type TestDatabase} from '../support/pg.js';
import {pushKillLoop} from '../support/push-kill-loop.js';
import {describeRedmine, redmineKillTracker, startRedmineProxy, useRedmine, type RedmineServer} from '../support/redmine.js';

type Raw = Record<string, any>;

describeRedmine('sync with a live Redmine', () => {
	const redmine = useRedmine();
	let database: TestDatabase | undefined;
	beforeAll(async () => {
		ensureBuilt();
		if (!PG_OFF) database = await createTestDatabase();
	}, 600_000);
	afterAll(async () => database?.drop());

	/** A second project whose 101 issues (over a page) all changed within one second, an hour ago: made once for both stores. */
	let idleProject: Promise<string> | undefined;
	const IDLE_ISSUES = 101;
	const makeIdleProject = async () => redmine.server.rails(`
		admin = User.find_by!(login: 'admin')
		User.current = admin
		project = Project.create!(name: 'Idle', identifier: 'idle', tracker_ids: Tracker.pluck(:id), enabled_module_names: ['issue_tracking'])
		Issue.transaction do
			${IDLE_ISSUES}.times { |n| Issue.create!(project: project, tracker: project.trackers.first, author: admin, subject: "Idle #{n}", priority: IssuePriority.default || IssuePriority.first) }
		end
		an_hour_ago = Time.now.utc.change(usec: 0) - 3600
		Issue.where(project_id: project.id).update_all(created_on: an_hour_ago, updated_on: an_hour_ago)
		puts 'idle'
	`);

	const targets = [
		{name: 'sqlite', enabled: true, fresh: async () => join(tempDir('sift-redmine-cli-'), 'store.db')},
		{name: 'postgres', enabled: !PG_OFF, fresh: async () => database!.freshSchemaUrl()},
	];

	describe.each(targets.filter(target => target.enabled))('on $name', target => {
		let db: string;
		const outputs: CliResult[] = [];
		const server = (): RedmineServer => redmine.server;
		const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({REDMINE_API_KEY: server().apiKey, XDG_CONFIG_HOME: tempDir('sift-config-'), ...extra});
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

		const issue = async (id: number): Promise<Raw> => (await server().api<{issue: Raw}>('GET', `/issues/${id}.json?include=journals`)).issue;
		const itemOf = async (id: number): Promise<Raw> => {
			const store = await openAsyncStore(db);
			try {
				const [match] = await store.findItemsNamed('sift', String(id));
				return {...(await store.readItem('sift', match!.item_id)).values, __id: match!.item_id};
			} finally {
				await store.close();
			}
		};

		/** The comments the store keeps for an issue (read from its tables: no command shows them yet). */
		const commentsOf = async (id: number): Promise<string[]> => {
			const item = await itemOf(id);
			const sql = 'SELECT body FROM item_comments WHERE item_id = $1 ORDER BY created_at';
			if (target.name === 'sqlite') {
				const file = new Sqlite(db, {readonly: true});
				try {
					return (file.prepare(sql.replace('$1', '?')).all(item.__id) as Array<{body: string}>).map(row => row.body);
				} finally {
					file.close();
				}
			}

			const client = new pg.Client({connectionString: db});
			await client.connect();
			try {
				return (await client.query<{body: string}>(sql, [item.__id])).rows.map(row => row.body);
			} finally {
				await client.end();
			}
		};

		const newIssue = async (subject: string, extra: Record<string, unknown> = {}) => server().createIssue({subject, tracker_id: server().seed.trackers.Bug, ...extra});

		async function linked(): Promise<void> {
			db = await target.fresh();
			const added = await run(['sync', 'add', 'redmine', server().url, '--project', 'sift']);
			expect(added.stderr).toBe('');
			expect(added.code).toBe(0);
			expect(added.stdout).toMatch(/created channel sift ⇄ redmine http:\/\/127\.0\.0\.1:\d+#sift; synced: title, description, tracker, status, priority, category, assignee, target_version, done_ratio, estimated_hours, start_date, due_date, severity, platforms, story_points, cost, deadline, regression, customer, notes_for_qa/);
			expect(added.stdout).toMatch(/on Redmine only .*Spec link \(link\), Reviewer \(user\)/);
			const pulled = await run(['sync', 'sift']);
			expect(pulled.stderr).toBe('');
			expect(pulled.code).toBe(0);
		}

		it('pulls with the server\'s mapping, resolves a clash, pushes, and Redmine holds the result', async () => {
			const {seed} = server();
			const cf = seed.custom_fields;
			const id = await newIssue('Round trip', {
				description: 'First *words*', priority_id: seed.priorities.High, assigned_to_id: seed.users.alice, fixed_version_id: seed.versions['1.0'], done_ratio: 30, estimated_hours: 2.5, start_date: '2026-01-05',
				custom_fields: [{id: cf.Severity, value: 'major'}, {id: cf.Platforms, value: ['linux', 'mac']}, {id: cf['Story points'], value: '5'}, {id: cf.Cost, value: '1.25'}, {id: cf.Deadline, value: '2026-02-01'}, {id: cf.Regression, value: '1'}, {id: cf.Customer, value: 'ACME'}],
			});
			await server().api('PUT', `/issues/${id}.json`, {issue: {notes: 'A note from Redmine'}});
			await linked();
			expect(await itemOf(id)).toMatchObject({
				number: id, title: 'Round trip', description: 'First *words*', tracker: 'Bug', status: 'New', priority: 'High', assignee: 'Alice Tester', target_version: '1.0', done_ratio: 30, estimated_hours: 2.5, start_date: '2026-01-05',
				severity: 'major', platforms: ['linux', 'mac'], story_points: 5, cost: 1.25, deadline: '2026-02-01', regression: true, customer: 'ACME', author: 'Redmine Admin', url: `${server().url}/issues/${id}`,
			});
			expect(await commentsOf(id)).toEqual(['A note from Redmine']);

			// Ours: the title (which Redmine changes too), the status and a platform; theirs: the title and the priority.
			expect((await run(['edit', String(id), 'title=Ours', 'status=In Progress', 'platforms=linux,mac,windows', '--channel', 'sift'])).code).toBe(0);
			await server().api('PUT', `/issues/${id}.json`, {issue: {subject: 'Theirs', priority_id: seed.priorities.Urgent}});
			const clash = await run(['sync']);
			expect(clash.code).toBe(3);
			expect(clash.stdout).toMatch(/1 conflict open/);
			const [conflict] = await json<Array<{id: number; kind: string; key: string; base: unknown; ours: unknown; theirs: unknown}>>(['followups', '--channel', 'sift']);
			expect(conflict).toMatchObject({kind: 'sync_conflict', key: 'title', base: 'Round trip', ours: 'Ours', theirs: 'Theirs'});
			// Nothing overwritten on either side until a person chose.
			expect((await issue(id)).subject).toBe('Theirs');
			expect(await itemOf(id)).toMatchObject({title: 'Ours', priority: 'Urgent'});
			expect((await run(['followups', 'resolve', String(conflict!.id), '--ours'])).code).toBe(0);
			const after = await run(['sync', 'sift']);
			expect(after.stderr).toBe('');
			expect(after.code).toBe(0);
			const remote = await issue(id);
			expect(remote).toMatchObject({subject: 'Ours', status: {name: 'In Progress'}, priority: {name: 'Urgent'}});
			expect(remote.custom_fields.find((field: Raw) => field.id === cf.Platforms).value.sort()).toEqual(['linux', 'mac', 'windows']);
			const [status] = await json<Array<{pending: number; conflicts: number}>>(['sync', 'status']);
			expect(status).toMatchObject({pending: 0, conflicts: 0});
			// In step: a pull brings nothing back and sends nothing.
			expect((await run(['sync', 'sift'])).stdout).toMatch(/pulled 0 new, 0 changed.*pushed 0; in step/);
		}, 600_000);

		it('Redmine\'s refusals become follow-ups naming the field and the reason, with nothing half-applied', async () => {
			const {seed} = server();
			const frozen = await newIssue('Workflow');
			const invalid = await newIssue('Dates', {start_date: '2026-03-10'});
			const versioned = await newIssue('Version');
			const assigned = await newIssue('Member');
			const carolIn = async () => (await server().api<{memberships: Raw[]}>('GET', '/projects/sift/memberships.json')).memberships.find(entry => entry.user?.id === seed.users.carol);
			// Carol is a member when the channel is made (the other store's run removed her).
			if (!await carolIn()) {
				const developer = (await server().api<{roles: Raw[]}>('GET', '/roles.json')).roles.find(role => role.name === 'Developer');
				await server().api('POST', '/projects/sift/memberships.json', {membership: {user_id: seed.users.carol, role_ids: [developer!.id]}});
			}

			await linked();
			const carol = await carolIn();
			expect((await run(['edit', String(frozen), 'status=Frozen', '--channel', 'sift'])).code).toBe(0);
			expect((await run(['edit', String(invalid), 'due_date=2026-03-01', 'title=Dates changed', '--channel', 'sift'])).code).toBe(0);
			expect((await run(['edit', String(versioned), 'target_version=0.9', '--channel', 'sift'])).code).toBe(0);
			expect((await run(['edit', String(assigned), 'assignee=Carol Tester', '--channel', 'sift'])).code).toBe(0);
			// Carol leaves the project on Redmine after the edit was made here.
			if (carol) await server().api('DELETE', `/memberships/${carol.id}.json`);
			const pushed = await run(['sync', 'push', 'sift']);
			expect(pushed.code).toBe(3);
			expect(pushed.stdout).toMatch(/5 refused/);
			const followUps = await json<Array<{key: string; kind: string; message: string}>>(['followups', '--channel', 'sift']);
			const messages = Object.fromEntries(followUps.map(entry => [entry.key + (entry.message.includes(`#${invalid}`) ? `#${invalid}` : ''), entry.message]));
			expect(messages.status).toMatch(new RegExp(`redmine refused status: Redmine kept status of #${frozen} at "New" instead of "Frozen" \\(the workflow`));
			expect(messages[`due_date#${invalid}`]).toMatch(/Due date must be greater than start date.*nothing was changed/);
			expect(messages[`title#${invalid}`]).toMatch(/Due date must be greater than start date/);
			expect(messages.target_version).toMatch(/version "0.9" is closed on Redmine/);
			expect(messages.assignee).toMatch(/"Carol Tester" is not a member of the project on Redmine/);
			expect((await issue(frozen)).status.name).toBe('New');
			expect(await issue(invalid)).toMatchObject({subject: 'Dates', due_date: null});
			expect((await issue(versioned)).fixed_version).toBeUndefined();
			expect((await issue(assigned)).assigned_to).toBeUndefined();
		}, 600_000);

		it('a push interrupted after its request went is confirmed from Redmine, not sent twice', async () => {
			const id = await newIssue('Exactly once');
			await linked();
			expect((await run(['edit', String(id), 'title=Once only', '--channel', 'sift'])).code).toBe(0);
			const store = await openAsyncStore(db);
			try {
				const link = (await store.sync.getLink('sift'))!;
				const {adapter} = connectRedmine({url: server().url, env: {REDMINE_API_KEY: server().apiKey}});
				const entries = await store.sync.outbox('sift');
				expect(entries.map(entry => entry.field)).toEqual(['title']);
				// The crash window: journaled, the request made, the confirmation never written.
				await store.sync.markSending(entries.map(entry => entry.id));
				for (const unit of await adapter.push(link, entries)) await unit.send();
				const journals = (await issue(id)).journals.length;
				const outcome = await pushChannel(store, adapter, link);
				expect(outcome).toMatchObject({confirmed: 1, sent: 0});
				expect((await issue(id)).journals).toHaveLength(journals);
				expect((await issue(id)).subject).toBe('Once only');
				expect(await store.sync.outbox('sift')).toEqual([]);
			} finally {
				await store.close();
			}
		}, 600_000);

		it('an idle re-sync is one list request, however many issues changed just before; only a changed issue is read with its journals', async () => {
			idleProject ??= makeIdleProject();
			await idleProject;
			db = await target.fresh();
			expect((await run(['sync', 'add', 'redmine', server().url, '--project', 'idle', '--channel', 'idle'])).code).toBe(0);
			const store = await openAsyncStore(db);
			try {
				const {adapter, client} = connectRedmine({url: server().url, env: {REDMINE_API_KEY: server().apiKey}});
				const link = async () => (await store.sync.getLink('idle'))!;
				const issueReads = () => server().logged('GET', /^\/issues\/\d+\.json/);
				expect((await pullChannel(store, adapter, await link())).created).toBe(IDLE_ISSUES);
				// Every issue changed in one second, far inside the overlap of the newest change seen: the list starts from when this pull began instead.
				let requests = client.requests;
				let reads = issueReads();
				const idle = await pullChannel(store, adapter, await link());
				expect(idle.created + idle.updated).toBe(0);
				expect(client.requests - requests).toBe(1);
				expect(issueReads() - reads).toBe(0);

				const [changed] = (await server().api<{issues: Raw[]}>('GET', '/issues.json?project_id=idle&sort=id&limit=1')).issues;
				await server().api('PUT', `/issues/${changed!.id}.json`, {issue: {subject: `Changed on ${target.name}`, notes: 'A later note'}});
				requests = client.requests;
				reads = issueReads();
				const after = await pullChannel(store, adapter, await link());
				expect(after.updated).toBe(1);
				// The list, and the one changed issue read whole with its journals.
				expect(client.requests - requests).toBe(2);
				expect(issueReads() - reads).toBe(1);
				const [match] = await store.findItemsNamed('idle', String(changed!.id));
				expect((await store.readItem('idle', match!.item_id)).values.title).toBe(`Changed on ${target.name}`);
			} finally {
				await store.close();
			}
		}, 600_000);

		it('`sift sync push` SIGKILLed at 3 seeded points in its crash window: no journal entry twice, no change lost', async () => {
			const ids: number[] = [];
			for (let n = 0; n < 9; n++) ids.push(await newIssue(`Killed push ${n}`));
			const proxy = await startRedmineProxy(server());
			try {
				db = await target.fresh();
				expect((await run(['sync', 'add', 'redmine', proxy.url, '--project', 'sift'])).code).toBe(0);
				expect((await run(['sync', 'sift'])).code).toBe(0);
				const result = await pushKillLoop({tracker: redmineKillTracker(server(), proxy, ids), db, channel: 'sift', env: env(), points: 3, seed: 33});
				expect(result).toMatchObject({points: 3, changes: 9, duplicates: 0, lost: 0});
				expect(result.killed).toBeGreaterThan(0);
			} finally {
				await proxy.stop();
			}
		}, 600_000);

		it('a wrong key and HTML where JSON was expected: one line each, the key nowhere', async () => {
			await linked();
			outputs.length = 0;
			const wrong = await run(['sync', 'sift'], {REDMINE_API_KEY: 'not-the-key-0123456789'});
			expect(wrong.code).toBe(1);
			expect(wrong.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^sift: sync of sift failed: redmine http:\/\/127\.0\.0\.1:\d+: the server refused the API key \(401\): check REDMINE_API_KEY or sync\.redmine_key_file$/)]);
			const html: Server = createServer((_request, response) => {
				response.writeHead(200, {'content-type': 'text/html'});
				response.end('<html><body>Welcome to nginx</body></html>');
			});
			await new Promise<void>(resolve => html.listen(0, '127.0.0.1', resolve));
			try {
				const garbage = await run(['sync', 'add', 'redmine', `http://127.0.0.1:${(html.address() as {port: number}).port}`, '--project', 'sift', '--channel', 'other']);
				expect(garbage.code).toBe(1);
				expect(garbage.stderr).toMatch(/answered 200 with HTML where JSON was expected: is http:\/\/127\.0\.0\.1:\d+ the root of a Redmine with the REST API enabled\?/);
			} finally {
				await new Promise(resolve => html.close(resolve));
			}

			expect((await json<Array<{channel_id: string}>>(['sync', 'list'])).map(link => link.channel_id)).toEqual(['sift']);
			await run(['doctor', '--json']);
			const doctor = outputs.at(-1)!;
			expect(doctor.stdout).toMatch(/"detail": "from REDMINE_API_KEY"/);
			expect(doctor.stdout).toMatch(/redmine http:\/\/127\.0\.0\.1:\d+#sift answers/);
			for (const output of outputs) {
				expect(output.stdout).not.toContain(server().apiKey);
				expect(output.stderr).not.toContain(server().apiKey);
			}

			if (target.name === 'sqlite') expect(readFileSync(db).includes(Buffer.from(server().apiKey))).toBe(false);
		}, 600_000);
	});
});
