// Benchmark: Redmine sync against a live Redmine 5 (Debian's package, test/support/redmine.ts), on
// SQLite: a first pull of N issues each with a journal note (time, peak RSS of this process: the
// server is a separate process), an idle re-sync (requests and time; Redmine has no ETags, so the
// floor is one list request per poll), 300 issues edited on both sides with 30 same-field clashes
// (conflicts, silent overwrites and lost edits counted from the server's own API), and `sift sync
// push` SIGKILLed at 50 random points (PUTs per issue counted from the server's own log: duplicates
// and lost changes both 0). SIFT_TEST_REDMINE=off skips it, and says so.

import {spawn} from 'node:child_process';
import {join} from 'node:path';
import {openAsyncStore, type AsyncStore} from '../../store/index.js';
import {pullChannel, syncChannel} from '../../source/sync/engine-loop.js';
import {connectRedmine} from '../../source/sync/redmine/connect.js';
import {SIFT_ENTRY, siftAsync} from '../support/cli.js';
import {REDMINE_OFF, REDMINE_OFF_NOTE, startRedmine} from '../support/redmine.js';
import {tempDir} from '../support/temp.js';
import {formatNumber, printTable} from './support.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const rssMb = () => `${formatNumber(Math.round(process.resourceUsage().maxRSS / 1024))} MB`;

type Raw = Record<string, any>;

export async function benchSyncRedmine(quick: boolean): Promise<void> {
	if (REDMINE_OFF) {
		console.log(`\nRedmine sync bench ${REDMINE_OFF_NOTE}`);
		return;
	}

	const issues = quick ? 500 : 2000;
	const server = await startRedmine();
	const dir = tempDir('sift-bench-redmine-');
	const db = join(dir, 'store.db');
	const env = {...process.env, REDMINE_API_KEY: server.apiKey, XDG_CONFIG_HOME: dir};
	let store: AsyncStore | undefined;
	try {
		// The issues and their notes written in bulk inside the instance: over REST, or one Issue.create! at a time, they take many minutes.
		await server.rails(`
			project = Project.find_by!(identifier: 'sift')
			admin = User.find_by!(login: 'admin')
			tracker = project.trackers.first
			status = IssueStatus.find(tracker.default_status_id)
			priority = IssuePriority.default || IssuePriority.first
			now = Time.now.utc.change(usec: 0)
			Issue.insert_all(Array.new(${issues}) { |n| {project_id: project.id, tracker_id: tracker.id, status_id: status.id, priority_id: priority.id, author_id: admin.id, subject: "Bench issue #{n}", description: "Body #{n}", lock_version: 0, done_ratio: 0, is_private: false, lft: 1, rgt: 2, created_on: now, updated_on: now} })
			Issue.where(root_id: nil).update_all('root_id = id')
			ids = Issue.where(project_id: project.id).where("subject LIKE 'Bench issue %'").pluck(:id, :subject)
			Journal.insert_all(ids.map { |id, subject| {journalized_id: id, journalized_type: 'Issue', user_id: admin.id, notes: "A note on #{subject.split.last}", private_notes: false, created_on: now} })
			puts ids.length
		`);
		const added = await siftAsync(['sync', 'add', 'redmine', server.url, '--project', 'sift', '--db', db], env);
		if (added.code !== 0) throw new Error(`sift sync add failed: ${added.stderr}`);
		const {adapter, client} = connectRedmine({url: server.url, env});
		store = await openAsyncStore(db);
		const link = async () => (await store!.sync.getLink('sift'))!;
		const rows: Array<Record<string, string>> = [];

		let requests = client.requests;
		let started = performance.now();
		const first = await pullChannel(store, adapter, await link());
		rows.push({case: `first pull: ${formatNumber(issues)} issues, ${formatNumber(first.comments)} notes`, requests: formatNumber(client.requests - requests), time: seconds(performance.now() - started), 'peak RSS': rssMb(), result: `${formatNumber(first.created)} created`});

		// The second pull settles the last second; the third is idle.
		await pullChannel(store, adapter, await link());
		requests = client.requests;
		started = performance.now();
		const idle = await pullChannel(store, adapter, await link());
		rows.push({case: 'idle re-sync (floor: 1 list request)', requests: String(client.requests - requests), time: seconds(performance.now() - started), 'peak RSS': rssMb(), result: `${idle.created + idle.updated} changed`});

		// 300 issues edited on both sides: ours the title; theirs the priority, and for 30 of them the title too.
		const ids = (await server.api<{issues: Raw[]}>('GET', '/issues.json?project_id=sift&status_id=*&sort=id&limit=100')).issues.map(issue => issue.id as number);
		const more = [];
		for (let offset = 100; offset < 300; offset += 100) more.push(...(await server.api<{issues: Raw[]}>('GET', `/issues.json?project_id=sift&status_id=*&sort=id&limit=100&offset=${offset}`)).issues.map(issue => issue.id as number));
		const edited = [...ids, ...more].slice(0, 300);
		const clashes = new Set(edited.filter((_, index) => index % 10 === 0));
		for (const id of edited) {
			const [match] = await store.findItemsNamed('sift', String(id));
			await store.editItem({channelId: 'sift', itemId: match!.item_id, values: {title: `Ours ${id}`}, actor: {kind: 'human'}});
		}

		await server.rails(`
			admin = User.find_by!(login: 'admin')
			User.current = admin
			high = IssuePriority.find_by!(name: 'High')
			clashes = [${[...clashes].join(',')}]
			Issue.transaction do
				[${edited.join(',')}].each do |id|
					issue = Issue.find(id)
					issue.init_journal(admin)
					issue.priority = high
					issue.subject = "Theirs #{id}" if clashes.include?(id)
					issue.save!
				end
			end
		`);
		requests = client.requests;
		started = performance.now();
		const outcome = await syncChannel(store, adapter, await link(), {pull: true, push: true});
		const elapsed = performance.now() - started;
		let overwritten = 0;
		let lost = 0;
		for (const id of edited) {
			const remote = (await server.api<{issue: Raw}>('GET', `/issues/${id}.json`)).issue;
			const [match] = await store.findItemsNamed('sift', String(id));
			const item = (await store.readItem('sift', match!.item_id)).values;
			if (clashes.has(id)) {
				if (item.title !== `Ours ${id}` || remote.subject !== `Theirs ${id}`) overwritten++;
			} else if (remote.subject !== `Ours ${id}`) {
				lost++;
			}

			if (item.priority !== 'High' || remote.priority.name !== 'High') lost++;
		}

		rows.push({case: `300 both-side edits, ${clashes.size} clashing`, requests: `${formatNumber(client.requests - requests)} (${outcome.push?.sent ?? 0} sent)`, time: seconds(elapsed), 'peak RSS': rssMb(), result: `${outcome.conflicts} conflicts, ${overwritten} silent overwrites, ${lost} lost (read from the server)`});
		await store.close();
		store = undefined;

		// `sift sync push` killed at 50 random points: one title edited per round, the push killed somewhere between its start and the time a whole push takes.
		const [timing, ...rest] = edited.filter(id => !clashes.has(id));
		const targets = rest.slice(0, 50);
		const putsBefore = new Map(targets.map(id => [id, server.logged('PUT', new RegExp(`^/issues/${id}\\.json`))]));
		await siftAsync(['edit', String(timing), 'title=Timing', '--channel', 'sift', '--db', db], env);
		const timed = performance.now();
		await siftAsync(['sync', 'push', 'sift', '--db', db], env);
		const wholePush = performance.now() - timed;
		let killedAfterPut = 0;
		for (const [round, id] of targets.entries()) {
			const edit = await siftAsync(['edit', String(id), `title=Killed ${round}`, '--channel', 'sift', '--db', db], env);
			if (edit.code !== 0) throw new Error(`sift edit failed: ${edit.stderr}`);
			const before = server.logged('PUT', /^\/issues\//);
			const child = spawn(process.execPath, [SIFT_ENTRY, 'sync', 'push', 'sift', '--db', db], {env, stdio: 'ignore'});
			const exited = new Promise(resolve => child.once('exit', resolve));
			const delay = Math.random() * wholePush * 1.2;
			const timer = setTimeout(() => child.kill('SIGKILL'), delay);
			await exited;
			clearTimeout(timer);
			if (server.logged('PUT', /^\/issues\//) > before) killedAfterPut++;
		}

		const final = await siftAsync(['sync', 'push', 'sift', '--db', db, '--json'], env);
		let duplicates = 0;
		let missing = 0;
		for (const [round, id] of targets.entries()) {
			const puts = server.logged('PUT', new RegExp(`^/issues/${id}\\.json`)) - putsBefore.get(id)!;
			if (puts > 1) duplicates += puts - 1;
			const remote = (await server.api<{issue: Raw}>('GET', `/issues/${id}.json?include=journals`)).issue;
			if (remote.subject !== `Killed ${round}`) missing++;
			const journaled = (remote.journals as Raw[]).filter(journal => (journal.details as Raw[]).some(detail => detail.name === 'subject' && detail.new_value === `Killed ${round}`)).length;
			if (journaled > 1) duplicates += journaled - 1;
		}

		rows.push({case: 'push SIGKILLed at 50 random points', requests: `${killedAfterPut} kills after a PUT began`, time: seconds(wholePush), 'peak RSS': '', result: `${duplicates} duplicate writes or journal entries, ${missing} lost (final push exit ${final.code})`});
		printTable(`Redmine sync against a live Redmine 5.0 (Debian's package, WEBrick behind Rack::Lock, SQLite store${quick ? ', --quick' : ''})`, rows, [
			'peak RSS: this process (sift\'s engine and adapter, the store); the Redmine server runs apart',
			'Redmine has no ETags or conditional requests: an idle poll costs one list request (updated_on>= 10 s before the last change seen or the last pull\'s start, whichever is later; the issues seen at their updated_on skipped)',
			'time of the kill row: one whole push run (the kills land uniformly in 0–1.2× that); duplicates counted from the server\'s log (PUTs per issue) and its journals',
		]);
	} finally {
		await store?.close();
		await server.stop();
	}
}
