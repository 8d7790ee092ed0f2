// Benchmark: GitHub sync against the fake GitHub (its OpenAPI checks off, for speed), on SQLite:
// a first pull of N issues and 3N comments (time, peak RSS of this process, which holds the fake
// too), an idle re-sync (requests GitHub would count, time), and 1,000 issues edited on both
// sides with 10 % clashing (conflicts found, silent overwrites and lost changes counted: both 0).

import {join} from 'node:path';
import {openAsyncStore, type AsyncStore} from '../../store/index.js';
import {pullChannel, syncChannel} from '../../source/sync/engine-loop.js';
import {GithubAdapter} from '../../source/sync/github/adapter.js';
import {GithubClient} from '../../source/sync/github/client.js';
import {channelForRepository} from '../../source/sync/github/connect.js';
import {githubLinkFields} from '../../source/sync/github/mapping.js';
import {systemClock} from '../../source/codex/watch-loop.js';
import {FIXTURE_REPO, startFakeGithub} from '../support/fake-github.js';
import {tempDir} from '../support/temp.js';
import {formatNumber, printTable} from './support.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const rssMb = () => `${formatNumber(Math.round(process.resourceUsage().maxRSS / 1024))} MB`;

export async function benchSyncGithub(quick: boolean): Promise<void> {
	const issues = quick ? 2000 : 10_000;
	// Every third issue gets 9 comments: 3 comments an issue on average.
	const fake = await startFakeGithub({issues, comments: 9, check: false});
	const client = new GithubClient({token: fake.token, baseUrl: fake.url, clock: systemClock, writeSpacingMs: 0, retryBaseMs: 10});
	const adapter = new GithubAdapter(client);
	const store: AsyncStore = await openAsyncStore(join(tempDir('sift-bench-sync-'), 'store.db'), {create: true});
	try {
		await store.importChannel({channel: await channelForRepository(client, FIXTURE_REPO, 'rust'), items: []});
		const mapped = githubLinkFields(await store.getChannel('rust'));
		await store.sync.link({channel_id: 'rust', tracker: 'github', remote: FIXTURE_REPO, key_field: mapped.keyField, fields: mapped.fields, state: {since: null, etag: null, read_only: mapped.readOnly}});
		const link = async () => (await store.sync.getLink('rust'))!;
		const rows: Array<Record<string, string>> = [];

		let started = performance.now();
		const first = await pullChannel(store, adapter, await link());
		rows.push({case: `first pull: ${formatNumber(issues)} issues, ${formatNumber(first.comments)} comments`, requests: String(fake.countedRequests().length), time: seconds(performance.now() - started), 'peak RSS': rssMb(), result: `${formatNumber(first.created)} created`});

		await pullChannel(store, adapter, await link());
		const before = fake.requests.length;
		const countedBefore = fake.countedRequests().length;
		started = performance.now();
		const idle = await pullChannel(store, adapter, await link());
		rows.push({case: 'idle re-sync', requests: `${fake.requests.length - before} (${fake.countedRequests().length - countedBefore} counted)`, time: seconds(performance.now() - started), 'peak RSS': rssMb(), result: `${idle.created + idle.updated} changed`});

		// 1,000 issues edited on both sides: ours the title, theirs the labels, and for 100 of them the title too.
		const numbers = [...fake.repo().issues.keys()].slice(0, 1000);
		const clashes = new Set(numbers.filter((_, index) => index % 10 === 0));
		fake.label('bench-label');
		for (const number of numbers) {
			const [match] = await store.findItemsNamed('rust', String(number));
			await store.editItem({channelId: 'rust', itemId: match!.item_id, values: {title: `Ours ${number}`}, actor: {kind: 'human'}});
			fake.edit(number, issue => {
				(issue.labels as unknown[]).push(fake.label('bench-label'));
				if (clashes.has(number)) issue.title = `Theirs ${number}`;
			});
		}

		started = performance.now();
		const outcome = await syncChannel(store, adapter, await link(), {pull: true, push: true});
		const elapsed = performance.now() - started;
		let overwritten = 0;
		let lost = 0;
		for (const number of numbers) {
			const [match] = await store.findItemsNamed('rust', String(number));
			const item = await store.readItem('rust', match!.item_id);
			const remote = fake.issue(number);
			if (clashes.has(number)) {
				if (item.values.title !== `Ours ${number}` || remote.title !== `Theirs ${number}`) overwritten++;
			} else if (remote.title !== `Ours ${number}`) {
				lost++;
			}

			if (!(item.values.labels as string[] | null)?.includes('bench-label')) lost++;
		}

		rows.push({case: `1,000 both-side edits, ${clashes.size} clashing`, requests: `${outcome.push?.sent ?? 0} sent`, time: seconds(elapsed), 'peak RSS': rssMb(), result: `${outcome.conflicts} conflicts, ${overwritten} silent overwrites, ${lost} lost`});
		printTable(`GitHub sync against the fake GitHub (SQLite${quick ? ', --quick' : ''})`, rows, [
			'requests counted: what GitHub counts against the rate limit (a 304 is free); peak RSS includes the fake GitHub, which runs in this process',
			'not measured here: a push killed at random points (the CLI test test/sync/sync-cli.test.ts kills one in its crash window)',
		]);
	} finally {
		await store.close();
		await fake.stop();
	}
}
