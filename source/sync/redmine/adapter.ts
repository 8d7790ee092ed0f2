// The Redmine adapter: translates between Redmine's REST API and the sync engine's shapes, nothing
// more (the engine, bases, outbox and conflicts are store/sync and source/sync/engine-loop.ts).
// Pull: the project's issues of every status updated since the cursor, oldest first, 100 a page.
// Redmine keeps seconds only and has no ETags, so each pull lists from a little before the newest
// change seen, pages by keyset (updated_on, then an offset inside one second) so an edit made while
// paging cannot shift an issue out of view, and skips an issue it already applied at the same
// updated_on. The list starts an overlap before the newest change or before the last pull began,
// whichever is later, so an idle re-sync is one list request, the floor. Each changed issue is read
// whole with its journals (notes become read-only comments). Push: one PUT per issue with only the
// changed fields, names turned into the server's ids, a member gone or a version no longer open
// refused before sending, then a re-read: a value the server did not keep (a status the workflow
// forbids answers 204 and changes nothing) becomes a follow-up naming it, as does a 422's message.

import {sameCanonical} from '../../../store/sync/merge.js';
import type {OutboxEntry, RemoteComment, RemoteRecord, SyncedField, SyncLink} from '../../../store/sync/types.js';
import {byRemoteIssue, type PullRun, type PushResult, type PushUnit, type TrackerAdapter} from '../engine-loop.js';
import {RedmineError, type RedmineClient} from './client.js';
import {customWire, issueRecord, journalComment, redmineState, type Named, type Raw, type RedmineState} from './mapping.js';

/** How far back each pull lists before the newest change seen (a write that committed late). */
export const REDMINE_OVERLAP_MS = 10_000;
const PAGE = 100;

/** 'https://host/redmine#project' → the server's root and the project's identifier. */
export function redmineRemote(remote: string): {url: string; project: string} {
	const hash = remote.lastIndexOf('#');
	const url = hash > 0 ? remote.slice(0, hash) : '';
	const project = hash > 0 ? remote.slice(hash + 1) : '';
	let parsed: URL | undefined;
	try {
		parsed = new URL(url);
	} catch {
		parsed = undefined;
	}

	if (!parsed || !/^https?:$/.test(parsed.protocol) || !/^[a-z][a-z0-9_-]{0,99}$/.test(project)) {
		throw new RedmineError(`"${remote}" is not a Redmine link; expected the server's URL (http or https) and a project identifier`, undefined, true);
	}

	return {url: url.replace(/\/+$/, ''), project};
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * Where a pull's list starts: the overlap before the newest change seen, or before the moment the
 * last pull began listing when that is later. A change older than that moment minus the overlap
 * had committed by then and was listed, so once the tracker is quiet for an overlap the list holds
 * only what is new, and an idle poll is the one list request, however many issues changed just
 * before it.
 */
export function listFrom(since: string, listedAt: string | null, overlapMs: number): number {
	return Math.max(Date.parse(since), listedAt === null ? 0 : Date.parse(listedAt) || 0) - overlapMs;
}

/** The names a push turns into ids, read once per push. */
type Lookups = {trackers: Named[]; statuses: Named[]; priorities: Named[]; categories: Named[]; members: Named[]; versions: Named[]};

const ID_FIELDS: Record<string, {param: string; list: keyof Lookups; required: boolean}> = {
	tracker: {param: 'tracker_id', list: 'trackers', required: true},
	status: {param: 'status_id', list: 'statuses', required: true},
	priority: {param: 'priority_id', list: 'priorities', required: true},
	category: {param: 'category_id', list: 'categories', required: false},
	assigned_to: {param: 'assigned_to_id', list: 'members', required: false},
	fixed_version: {param: 'fixed_version_id', list: 'versions', required: false},
};

export class RedmineAdapter implements TrackerAdapter {
	readonly tracker = 'redmine' as const;

	constructor(private readonly client: RedmineClient, private readonly overlapMs = REDMINE_OVERLAP_MS) {}

	/** All of a list endpoint's entries (`key` names the array), 100 a page. */
	async all(path: string, key: string): Promise<Raw[]> {
		const out: Raw[] = [];
		for (let offset = 0; ; offset += PAGE) {
			const {data} = await this.client.request<Raw>('GET', `${path}${path.includes('?') ? '&' : '?'}limit=${PAGE}&offset=${offset}`);
			const page = Array.isArray(data?.[key]) ? data[key] as Raw[] : [];
			out.push(...page);
			if (page.length < PAGE || (typeof data.total_count === 'number' && out.length >= data.total_count)) return out;
		}
	}

	/** The project's trackers, statuses, priorities, categories, members and versions, as names and ids. */
	async lookups(project: string): Promise<Lookups> {
		const named = (list: Raw[]) => list.map(entry => ({id: Number(entry.id), name: String(entry.name)}));
		const projectData = (await this.client.request<Raw>('GET', `/projects/${encodeURIComponent(project)}.json?include=trackers`)).data;
		const statuses = ((await this.client.request<Raw>('GET', '/issue_statuses.json')).data.issue_statuses as Raw[]).map(status => ({id: Number(status.id), name: String(status.name), closed: status.is_closed === true}));
		const priorities = named((await this.client.request<Raw>('GET', '/enumerations/issue_priorities.json')).data.issue_priorities as Raw[]);
		const categories = named((await this.client.request<Raw>('GET', `/projects/${encodeURIComponent(project)}/issue_categories.json`)).data.issue_categories as Raw[]);
		const memberships = await this.all(`/projects/${encodeURIComponent(project)}/memberships.json`, 'memberships');
		const members = new Map<number, Named>();
		for (const membership of memberships) {
			const principal = (membership.user ?? membership.group) as Raw | undefined;
			if (principal && typeof principal.id === 'number') members.set(principal.id, {id: principal.id, name: String(principal.name)});
		}

		const versions = ((await this.client.request<Raw>('GET', `/projects/${encodeURIComponent(project)}/versions.json`)).data.versions as Raw[]).map(version => ({id: Number(version.id), name: String(version.name), status: String(version.status)}));
		return {trackers: named((projectData.project?.trackers ?? []) as Raw[]), statuses, priorities, categories, members: [...members.values()].sort((a, b) => a.name.localeCompare(b.name)), versions};
	}

	pull(link: SyncLink, since: string | null): PullRun {
		const state = redmineState(link.state);
		const {project} = redmineRemote(link.remote);
		let next: RedmineState = state;
		const client = this.client;
		const overlapMs = this.overlapMs;
		const readIssue = this.readIssue.bind(this);
		async function* pages(): AsyncGenerator<RemoteRecord[]> {
			const from = since === null ? undefined : iso(listFrom(since, state.listed_at, overlapMs));
			const seen: Record<string, string> = {};
			let newest = since === null ? 0 : Date.parse(since);
			let cursor = from;
			let offset = 0;
			let serverNow: number | undefined;
			for (;;) {
				const filter = cursor === undefined ? '' : `&updated_on=${encodeURIComponent(`>=${cursor}`)}`;
				const sent = performance.now();
				const response = await client.request<Raw>('GET', `/issues.json?project_id=${encodeURIComponent(project)}&subproject_id=!*&status_id=*&sort=updated_on,id&limit=${PAGE}&offset=${offset}${filter}`);
				// The server's clock when it ran the query: its answer's Date, less the time the round trip took.
				serverNow ??= response.date === undefined ? undefined : response.date - (performance.now() - sent);
				const listed = Array.isArray(response.data?.issues) ? response.data.issues as Raw[] : [];
				const records: RemoteRecord[] = [];
				for (const entry of listed) {
					const id = String(entry.id);
					const updated = String(entry.updated_on);
					newest = Math.max(newest, Date.parse(updated) || 0);
					// Applied already at this very updated_on (the overlap, or the page before): skipped.
					if (state.seen[id] === updated || seen[id] === updated) continue;
					// Settled: its second is over on the server's clock, so no later edit can share it.
					if (serverNow === undefined || Date.parse(updated) < Math.floor(serverNow / 1000) * 1000) seen[id] = updated;
					const whole = await readIssue(link, Number(entry.id), true);
					const record = whole && issueRecord(whole, link.fields, state, link.key_field);
					if (!record) continue;
					record.comments = ((whole!.journals ?? []) as Raw[]).map(journalComment).filter((comment): comment is RemoteComment => comment !== undefined);
					records.push(record);
				}

				if (records.length > 0) yield records;
				if (listed.length < PAGE) break;
				// Keyset: from the last entry's second on, past the entries of that second already listed.
				const last = String(listed.at(-1)!.updated_on);
				const atLast = listed.filter(entry => String(entry.updated_on) === last).length;
				if (last === cursor) offset += listed.length;
				else {
					cursor = last;
					offset = atLast;
				}
			}

			const nextSince = newest > 0 ? iso(newest) : since;
			const listedAt = serverNow === undefined ? state.listed_at : iso(Math.floor(serverNow / 1000) * 1000);
			// Kept: what a later pull's overlap can list again.
			const window = nextSince === null ? 0 : listFrom(nextSince, listedAt, overlapMs);
			const keep = Object.fromEntries(Object.entries({...state.seen, ...seen}).filter(([, updated]) => Date.parse(updated) >= window));
			next = {...state, since: nextSince, listed_at: listedAt, seen: keep};
		}

		return {pages: pages(), state: () => ({...next})};
	}

	/** An issue read whole (with its journals when asked); undefined when it is not there (404). */
	private async readIssue(link: SyncLink, id: number, journals = false): Promise<Raw | undefined> {
		try {
			return (await this.client.request<Raw>('GET', `/issues/${id}.json${journals ? '?include=journals' : ''}`)).data?.issue as Raw | undefined;
		} catch (error) {
			if (error instanceof RedmineError && error.status === 404) return undefined;
			throw error;
		}
	}

	private field(link: SyncLink, entry: OutboxEntry): SyncedField {
		const found = link.fields.find(candidate => candidate.key === entry.field);
		if (!found) throw new RedmineError(`redmine ${link.remote}: ${entry.field} is not a synced field of channel ${link.channel_id}`, undefined, false);
		return found;
	}

	/** The issue's value of the entry's field now, as sift holds it. */
	private valueIn(link: SyncLink, issue: Raw, field: SyncedField): unknown {
		return issueRecord(issue, [field], redmineState(link.state), link.key_field)?.values[field.key] ?? null;
	}

	async remoteHas(link: SyncLink, entry: OutboxEntry): Promise<{holds: true; remoteValue: unknown} | {holds: false}> {
		if (entry.remote_id === null) return {holds: false};
		const issue = await this.readIssue(link, Number(entry.remote_id));
		if (!issue) return {holds: false};
		const field = this.field(link, entry);
		const there = this.valueIn(link, issue, field);
		return sameCanonical(there, entry.value, field.kind) ? {holds: true, remoteValue: there} : {holds: false};
	}

	async push(link: SyncLink, entries: OutboxEntry[]): Promise<PushUnit[]> {
		const {project} = redmineRemote(link.remote);
		const {refused: units, byIssue} = byRemoteIssue(entries, 'Redmine');

		let lookups: Lookups | undefined;
		if (byIssue.size > 0 && [...byIssue.values()].flat().some(entry => this.field(link, entry).remote in ID_FIELDS)) lookups = await this.lookups(project);
		for (const [remoteId, group] of byIssue) {
			const body: Record<string, unknown> = {};
			const custom: Array<{id: number; value: unknown}> = [];
			const sending: OutboxEntry[] = [];
			for (const entry of group) {
				const refusal = this.wire(link, entry, lookups, body, custom);
				if (refusal === undefined) sending.push(entry);
				else units.push({entries: [entry], refused: `#${remoteId}: ${refusal}`, send: async () => []});
			}

			if (custom.length > 0) body.custom_fields = custom;
			if (sending.length > 0) units.push({entries: sending, send: async () => this.sendIssue(link, Number(remoteId), sending, body)});
		}

		return units;
	}

	/** Puts an entry's value into the PUT's body; a refusal (said before anything is sent) when the server could not take it. */
	private wire(link: SyncLink, entry: OutboxEntry, lookups: Lookups | undefined, body: Record<string, unknown>, custom: Array<{id: number; value: unknown}>): string | undefined {
		const field = this.field(link, entry);
		const value = entry.value ?? null;
		if (field.remote.startsWith('cf:')) {
			const mapped = Object.values(redmineState(link.state).custom_fields).find(candidate => `cf:${candidate.id}` === field.remote);
			if (!mapped) return `${entry.field} is no custom field the link knows`;
			custom.push({id: mapped.id, value: customWire(mapped, value)});
			return undefined;
		}

		const named = ID_FIELDS[field.remote];
		if (named) {
			if (value === null) {
				if (named.required) return `Redmine requires a ${entry.field}; it cannot be cleared`;
				body[named.param] = '';
				return undefined;
			}

			const match = lookups![named.list].find(candidate => candidate.name === value);
			if (!match) {
				if (named.list === 'members') return `${JSON.stringify(value)} is not a member of the project on Redmine (any more): assign someone who is`;
				return `Redmine has no ${entry.field} named ${JSON.stringify(value)} for this project`;
			}

			if (named.list === 'versions' && match.status !== 'open') return `version ${JSON.stringify(value)} is ${match.status} on Redmine: issues cannot be assigned to it`;
			body[named.param] = match.id;
			return undefined;
		}

		body[field.remote] = value === null ? '' : value;
		return undefined;
	}

	/** One PUT with the issue's changed fields, then a re-read: each entry is confirmed by what the server holds. */
	private async sendIssue(link: SyncLink, id: number, entries: OutboxEntry[], body: Record<string, unknown>): Promise<PushResult[]> {
		try {
			await this.client.request('PUT', `/issues/${id}.json`, {issue: body});
		} catch (error) {
			if (!(error instanceof RedmineError)) throw error;
			if (error.status === 422) {
				// Redmine validates the whole change and saves none of it.
				const others = entries.length > 1 ? ` (sent with ${entries.map(entry => entry.field).join(', ')}; nothing was changed)` : '';
				return entries.map(entry => ({id: entry.id, ok: false, error: `#${id}: ${error.errors.length > 0 ? error.errors.join('; ') : error.message}${others}`, followUp: true}));
			}

			if (error.status === 404) {
				// The issue, or the whole project? Ask the project: if it fails too, the push stops.
				await this.client.request('GET', `/projects/${encodeURIComponent(redmineRemote(link.remote).project)}.json`);
				return entries.map(entry => ({id: entry.id, ok: false, error: `#${id} is not on Redmine any more, or not visible to the key's user (404)`, followUp: true}));
			}

			throw error;
		}

		const issue = await this.readIssue(link, id);
		return entries.map(entry => {
			const field = this.field(link, entry);
			const there = issue ? this.valueIn(link, issue, field) : null;
			if (issue && sameCanonical(there, entry.value, field.kind)) return {id: entry.id, ok: true, remoteValue: there};
			const why = field.remote === 'status' ? ' (the workflow does not allow this change for the key\'s user)' : ' (no right to change it, or not enabled for this tracker)';
			return {id: entry.id, ok: false, error: `Redmine kept ${entry.field} of #${id} at ${JSON.stringify(there)} instead of ${JSON.stringify(entry.value)}${why}`, followUp: true};
		});
	}
}
