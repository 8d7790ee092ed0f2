// `sift sync`: links channels to GitHub repositories or Redmine projects and keeps them in step (docs/sync.md).
// add / list / remove manage links; pull, push, status and the bare form (pull then push) work on
// one linked channel or all; --watch repeats until interrupted. Exit 0 in step, 1 failed (the
// channel named), 3 done with conflicts open. Progress goes to stderr, and only to a terminal.

import type {AsyncStore} from '../../store/index.js';
import type {SyncLink} from '../../store/sync/types.js';
import {durationMs} from '../config/config-file.js';
import {SMALL_PAGE_CACHE_KIB} from '../../store/index.js';
import {heapBudget} from '../sync/heap-budget.js';
import {describeProgress, syncChannel, untriedEdit, watchChannels, type SyncOutcome, type SyncProgress} from '../sync/engine-loop.js';
import {repoParts} from '../sync/github/adapter.js';
import {channelForRepository, connectGithub} from '../sync/github/connect.js';
import {githubLinkFields, readGithubMap} from '../sync/github/mapping.js';
import {redmineRemote} from '../sync/redmine/adapter.js';
import {projectShape, type RedmineConnection} from '../sync/redmine/connect.js';
import {readRedmineMap, redmineMapping} from '../sync/redmine/mapping.js';
import {connectionPool, connectTracker, remoteName, secretFile, type TrackerConnection} from '../sync/trackers.js';
import {sanitize} from '../text/sanitize.js';
import {output, openExistingStore, openOrCreateStore, withStore} from './common.js';
import {UsageError, type Command, type CommandContext} from './context.js';

const ACTIONS = new Set(['add', 'list', 'remove', 'pull', 'push', 'status']);

function progressWriter(context: CommandContext): ((progress: SyncProgress) => void) | undefined {
	if (!(context.stderr as {isTTY?: boolean}).isTTY) return undefined;
	return progress => context.stderr.write(`\r\u001b[2Ksift sync: ${describeProgress(progress)}`);
}

const connectOptions = (context: CommandContext, signal?: AbortSignal) => ({env: context.env, config: context.flags.config, notice: (message: string) => context.stderr.write(`sift: ${sanitize(message)}\n`), signal});

function describeOutcome(link: SyncLink, outcome: SyncOutcome): string {
	const parts: string[] = [];
	if (outcome.pull) {
		const pull = outcome.pull;
		parts.push(`pulled ${pull.created} new, ${pull.updated} changed, ${pull.unchanged} unchanged${pull.comments > 0 ? `, ${pull.comments} comments` : ''}${pull.gone > 0 ? `, ${pull.gone} gone` : ''}`);
	}

	if (outcome.push) {
		const push = outcome.push;
		parts.push(`pushed ${push.sent}${push.confirmed > 0 ? ` (+${push.confirmed} confirmed after an interruption)` : ''}${push.failed + push.refused > 0 ? `, ${push.failed + push.refused} refused (see \`sift followups\`)` : ''}`);
	}

	parts.push(outcome.conflicts === 0 ? 'in step' : `${outcome.conflicts} conflict${outcome.conflicts === 1 ? '' : 's'} open (resolve with \`sift followups resolve ID --ours|--theirs|--value VALUE\`)`);
	return sanitize(`${link.channel_id} ⇄ ${link.tracker} ${remoteName(link)}: ${parts.join('; ')}`);
}

/** The links a command works on: the one named, or every one. */
async function linksOf(store: AsyncStore, channel: string | undefined): Promise<SyncLink[]> {
	if (channel === undefined) {
		const links = await store.sync.links();
		if (links.length === 0) throw Object.assign(new Error('no channel is linked to a tracker; link one with `sift sync add github OWNER/REPO` or `sift sync add redmine URL --project IDENTIFIER`'), {expected: true});
		return links;
	}

	const link = await store.sync.getLink(channel);
	if (!link) throw Object.assign(new Error(`channel ${JSON.stringify(channel)} is not linked to a tracker; see \`sift sync list\``), {expected: true});
	return [link];
}

async function runLinks(context: CommandContext, store: AsyncStore, links: SyncLink[], what: {pull: boolean; push: boolean}, connect: (link: SyncLink) => Promise<TrackerConnection>): Promise<{code: number; results: Array<{channel: string; remote: string; ok: boolean; error?: string; outcome?: SyncOutcome}>}> {
	const results = [];
	let failed = false;
	let conflicts = false;
	for (const link of links) {
		try {
			const outcome = await syncChannel(store, (await connect(link)).adapter, link, what, {progress: progressWriter(context), notice: message => context.stderr.write(`sift: ${sanitize(message)}\n`), afterPage: heapBudget()});
			if (progressWriter(context)) context.stderr.write('\r\u001b[2K');
			// A refusal the tracker gave is a follow-up for a person, as a conflict is: not in step.
			conflicts ||= outcome.conflicts > 0 || (outcome.push !== undefined && outcome.push.failed + outcome.push.refused > 0);
			results.push({channel: link.channel_id, remote: remoteName((await store.sync.getLink(link.channel_id)) ?? link), ok: true, outcome});
			if (!context.flags.json) context.stdout.write(`${describeOutcome(link, outcome)}\n`);
		} catch (error) {
			failed = true;
			const message = (error as Error).message ?? String(error);
			results.push({channel: link.channel_id, remote: remoteName(link), ok: false, error: message});
			context.stderr.write(`sift: sync of ${sanitize(link.channel_id)} failed: ${sanitize(message)}\n`);
		}
	}

	return {code: failed ? 1 : conflicts ? 3 : 0, results};
}

const ADD_USAGE = 'expected: sift sync add github OWNER/REPO [--channel ID] [--map MAP.yaml], or sift sync add redmine URL --project IDENTIFIER [--channel ID] [--map MAP.yaml]';

/** A channel id from a repository or project name. */
const channelIdOf = (name: string, fallback: string) => name.toLowerCase().replaceAll(/[^a-z0-9_-]+/g, '-').replace(/^[^a-z]+/, '') || fallback;

async function add(context: CommandContext, rest: string[]): Promise<number> {
	const [tracker, remote, ...extra] = rest;
	if ((tracker !== 'github' && tracker !== 'redmine') || remote === undefined || extra.length > 0) throw new UsageError(ADD_USAGE);
	if (tracker === 'redmine') return addRedmine(context, remote);
	if (context.flags.project !== undefined) throw new UsageError('--project goes with `sift sync add redmine`');
	const {repo} = repoParts(remote);
	const map = context.flags.map === undefined ? {} : readGithubMap(context.flags.map);
	const channelId = context.flags.channel ?? channelIdOf(repo, 'github');
	const connection = await connectGithub({...connectOptions(context), tokenFile: await secretFile(connectOptions(context), 'github_token_file')});
	const store = await openOrCreateStore(context);
	try {
		if (await store.sync.getLink(channelId)) throw Object.assign(new Error(`channel ${channelId} is already linked (see \`sift sync list\`); remove the link first`), {expected: true});
		const existing = (await store.listChannelNames()).some(channel => channel.id === channelId);
		let created = false;
		if (existing) {
			// Linking a channel imported from the repository: its items must come from there.
			const sample = await store.readItems(channelId, {limit: 20});
			const foreign = sample.items.map(item => item.values.url).find(url => typeof url === 'string' && !url.toLowerCase().startsWith(`https://github.com/${remote.toLowerCase()}/`));
			if (foreign !== undefined) throw Object.assign(new Error(`channel ${channelId} holds items from elsewhere (${String(foreign)}), not from ${remote}; pick another --channel`), {expected: true});
		} else {
			const channel = await channelForRepository(connection.client, remote, channelId);
			await store.importChannel({channel, items: []});
			created = true;
		}

		const channel = await store.getChannel(channelId);
		const fields = githubLinkFields(channel, map);
		const key = channel.fields.find(field => field.key === fields.keyField);
		if (!key || key.type !== 'number' || !key.is_unique) throw Object.assign(new Error(`channel ${channelId} needs a unique number field ${fields.keyField} for the issue numbers`), {expected: true});
		const link = await store.sync.link({channel_id: channelId, tracker: 'github', remote, key_field: fields.keyField, fields: fields.fields, state: {since: null, etag: null, read_only: fields.readOnly}});
		output(context, {link, created, local_only: fields.missing}, () => sanitize([
			`${created ? 'created channel' : 'linked channel'} ${channelId} ⇄ github ${remote}; synced: ${link.fields.map(field => field.key).join(', ')}`,
			...(fields.missing.length > 0 ? [`not synced (the channel has no such field): ${fields.missing.join(', ')}`] : []),
			`next: sift sync ${channelId}`,
		].join('\n')));
		return 0;
	} finally {
		await store.close();
	}
}

/** The tracker's fields sift cannot represent (kept in a Redmine link's state): they stay on the tracker alone. */
function remoteOnly(link: SyncLink): string {
	const list = Array.isArray(link.state.local_only) ? (link.state.local_only as unknown[]).map(String) : [];
	return list.length > 0 ? `; on ${link.tracker} only: ${list.join(', ')}` : '';
}

/** `sift sync add redmine URL --project IDENTIFIER`: a new channel shaped by the project (read from the server), or an existing one linked. */
async function addRedmine(context: CommandContext, url: string): Promise<number> {
	const project = context.flags.project;
	if (project === undefined) throw new UsageError('expected: sift sync add redmine URL --project IDENTIFIER [--channel ID] [--map MAP.yaml]');
	const remote = `${url.replace(/\/+$/, '')}#${project}`;
	redmineRemote(remote);
	const map = context.flags.map === undefined ? {} : readRedmineMap(context.flags.map);
	const channelId = context.flags.channel ?? channelIdOf(project, 'redmine');
	const connection = (await connectTracker('redmine', remote, connectOptions(context))) as TrackerConnection & {redmine: RedmineConnection};
	const shape = await projectShape(connection.redmine, project);
	const store = await openOrCreateStore(context);
	try {
		if (await store.sync.getLink(channelId)) throw Object.assign(new Error(`channel ${channelId} is already linked (see \`sift sync list\`); remove the link first`), {expected: true});
		const mapping = redmineMapping(channelId, project, shape, map);
		const existing = (await store.listChannelNames()).some(channel => channel.id === channelId);
		if (!existing) await store.importChannel({channel: mapping.channel, items: []});
		const channel = await store.getChannel(channelId);
		const has = new Set(channel.fields.map(field => field.key));
		const fields = mapping.fields.filter(field => has.has(field.key));
		const missing = mapping.fields.filter(field => !has.has(field.key)).map(field => field.key);
		const key = channel.fields.find(field => field.key === 'number');
		if (!key || key.type !== 'number' || !key.is_unique) throw Object.assign(new Error(`channel ${channelId} needs a unique number field "number" for the issue ids`), {expected: true});
		const {url: root} = redmineRemote(remote);
		const state = {since: null, listed_at: null, seen: {}, read_only: Object.fromEntries(Object.entries(mapping.readOnly).filter(([, field]) => has.has(field))), custom_fields: Object.fromEntries(Object.entries(mapping.customFields).filter(([field]) => has.has(field))), local_only: mapping.localOnly, url: root, project};
		const link = await store.sync.link({channel_id: channelId, tracker: 'redmine', remote, key_field: 'number', fields, state});
		output(context, {link, created: !existing, local_only: [...missing, ...mapping.localOnly], notes: shape.notes}, () => sanitize([
			`${existing ? 'linked channel' : 'created channel'} ${channelId} ⇄ redmine ${remote}; synced: ${link.fields.map(field => field.key).join(', ')}`,
			...(missing.length > 0 ? [`not synced (the channel has no such field): ${missing.join(', ')}`] : []),
			...(mapping.localOnly.length > 0 ? [`on Redmine only (sift cannot represent them, or the map keeps them out): ${mapping.localOnly.join(', ')}`] : []),
			...shape.notes,
			`next: sift sync ${channelId}`,
		].join('\n')));
		return 0;
	} finally {
		await store.close();
	}
}

const command: Command = async context => {
	const [first, ...rest] = context.input;
	const action = first !== undefined && ACTIONS.has(first) ? first : undefined;
	const operands = action === undefined ? context.input : rest;
	if (action === 'add') return add(context, rest);
	if (operands.length > 1) throw new UsageError(`expected at most one channel, got ${operands.length}`);
	const channel = operands[0] ?? context.flags.channel;
	if (context.flags.watch && action !== undefined) throw new UsageError('--watch goes with `sift sync [CHANNEL]` alone');
	if (action === 'list') {
		return withStore(context, async store => {
			const links = await store.sync.links();
			const shown = links.map(link => ({...link, remote: remoteName(link)}));
			output(context, shown, () => (shown.length === 0 ? 'No channel is linked.' : shown.map(link => sanitize(`${link.channel_id} ⇄ ${link.tracker} ${link.remote} (${link.fields.map(field => field.key).join(', ')}); pulled ${link.last_pull_at ?? 'never'}, pushed ${link.last_push_at ?? 'never'}`)).join('\n')));
			return 0;
		});
	}

	if (action === 'remove') {
		if (channel === undefined) throw new UsageError('expected: sift sync remove CHANNEL');
		return withStore(context, async store => {
			await linksOf(store, channel);
			await store.sync.unlink(channel);
			output(context, {removed: channel}, () => `removed the link of ${sanitize(channel)}; its items stay`);
			return 0;
		});
	}

	if (action === 'status') {
		return withStore(context, async store => {
			const statuses = await Promise.all((await linksOf(store, channel)).map(async link => store.sync.status(link.channel_id)));
			output(context, statuses, () => statuses.map(status => sanitize(`${status.link.channel_id} ⇄ ${status.link.tracker} ${remoteName(status.link)}: ${status.pending} to push, ${status.held} held, ${status.conflicts} conflicts; pulled ${status.link.last_pull_at ?? 'never'}, pushed ${status.link.last_push_at ?? 'never'}${status.local_only.length > 0 ? `; local only: ${status.local_only.join(', ')}` : ''}${remoteOnly(status.link)}`)).join('\n'));
			return statuses.some(status => status.conflicts > 0) ? 3 : 0;
		});
	}

	const what = {pull: action !== 'push', push: action !== 'pull'};
	if (!context.flags.watch) {
		// A pull writes each page once and reads little back: SQLite's small page cache will do (its default here is 16 MB).
		const store = await openExistingStore(context, undefined, {pageCacheKiB: SMALL_PAGE_CACHE_KIB});
		try {
			const links = await linksOf(store, channel);
			const {code, results} = await runLinks(context, store, links, what, connectionPool(connectOptions(context)));
			if (context.flags.json) context.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
			return code;
		} finally {
			await store.close();
		}
	}

	const controller = new AbortController();
	const stop = () => controller.abort();
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
	const store = await openExistingStore(context, undefined, {pageCacheKiB: SMALL_PAGE_CACHE_KIB});
	try {
		const connect = connectionPool(connectOptions(context, controller.signal));
		const links = await linksOf(store, channel);
		// A watch over one tracker follows its rate limit; Redmine reports none.
		const first = await connect(links[0]!);
		let code = 0;
		await watchChannels(async () => {
			const result = await runLinks(context, store, await linksOf(store, channel), what, connect);
			if (context.flags.json) context.stdout.write(`${JSON.stringify(result.results)}\n`);
			code = result.code;
			if (code === 1) throw Object.assign(new Error('a sync failed'), {fatal: result.results.some(entry => /\((401|403|404|410)\b/.test(entry.error ?? ''))});
		}, {
			intervalMs: intervalOf(context.flags.interval), signal: controller.signal, rate: () => first.rate(), onError: () => {},
			localEdit: what.push ? untriedEdit(store, async () => (await linksOf(store, channel)).map(link => link.channel_id)) : undefined,
		});
		return code;
	} finally {
		process.off('SIGINT', stop);
		process.off('SIGTERM', stop);
		await store.close();
	}
};

/** --interval: 30s, 5m, 500ms (default 60 s). */
function intervalOf(given: string | undefined): number {
	if (given === undefined) return 60_000;
	const ms = durationMs(given);
	if (Number.isNaN(ms)) throw new UsageError(`--interval must be a duration such as 30s, 5m or 1h, got ${JSON.stringify(given)}`);
	return ms;
}

export default command;
