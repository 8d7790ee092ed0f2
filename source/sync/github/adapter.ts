// The GitHub adapter: translates between GitHub's REST API and the sync engine's shapes, nothing
// more. Pull: issues updated since the cursor (oldest first, 100 a page, by the Link header), a
// conditional first request (a 304 means nothing changed and costs nothing), a safety overlap on
// `since`, comments read-only (on a first pull the repository's whole listing, streamed a page at a
// time after the issues; after it, each touched issue's list). Push: labels and assignees as additions and removals, the scalar fields of an item
// in one PATCH, a body over GitHub's limit refused before sending, and a check of what the issue
// holds for an entry a crash left 'sending'. The duplicate relation closes the issue as a duplicate
// with one "Duplicate of #N" comment; a retry after a crash first looks for what already went.

import {sameCanonical} from '../../../store/sync/merge.js';
import type {OutboxEntry, RemoteComment, RemoteComments, RemoteRecord, SyncedField, SyncLink} from '../../../store/sync/types.js';
import {byRemoteIssue, type PullRun, type PushContext, type PushResult, type PushUnit, type TrackerAdapter} from '../engine-loop.js';
import {GithubError, type GithubClient, type GithubResponse} from './client.js';
import {commentIssue, commentOf, GITHUB_BODY_LIMIT, GITHUB_DUPLICATE, issueRecord} from './mapping.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- GitHub's REST objects are read field by field, each checked where it is used
type Raw = Record<string, any>;

/** The link's cursor as this adapter keeps it in SyncLink.state. */
export type GithubState = {
	/** The `since` of the last pull's first request (null before the first pull). */
	since: string | null;
	/** The ETag of that request's answer, kept only when it was the whole answer (one page). */
	etag: string | null;
	/** Read-only GitHub fields → the sift keys they fill. */
	read_only: Record<string, string>;
	/** The name the repository answers to since a rename (GitHub's 301), when it is not the link's. */
	remote?: string;
};

/** How far back each pull reaches before the newest change it saw (clock skew, same-second edits). */
export const SINCE_OVERLAP_MS = 2 * 60_000;

/** The comment that says an issue duplicates #number (GitHub's own wording, which it links). */
export const duplicateComment = (number: string): string => `Duplicate of #${number}`;

const asSet = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

export function githubState(state: Record<string, unknown>): GithubState {
	return {
		since: typeof state.since === 'string' ? state.since : null,
		etag: typeof state.etag === 'string' ? state.etag : null,
		read_only: (typeof state.read_only === 'object' && state.read_only !== null ? state.read_only : {}) as Record<string, string>,
		...(typeof state.remote === 'string' ? {remote: state.remote} : {}),
	};
}

/** The repository a link reaches now: the name it was renamed to, else the one it was made with. */
export const currentRemote = (link: SyncLink): string => githubState(link.state).remote ?? link.remote;

/** The link with its current repository name in `remote`, for the requests. */
const current = (link: SyncLink): SyncLink => ({...link, remote: currentRemote(link)});

/** OWNER/REPO checked, and split. */
export function repoParts(remote: string): {owner: string; repo: string} {
	const match = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})$/.exec(remote);
	if (!match || match[2] === '.' || match[2] === '..') throw new GithubError(`"${remote}" is not a GitHub repository name; expected OWNER/REPO`, undefined, true);
	return {owner: match[1]!, repo: match[2]!};
}

const nextLink = (response: GithubResponse): string | undefined => /<([^>]+)>;\s*rel="next"/.exec(String(response.headers.link ?? ''))?.[1];

/** Items a list request asks for a page. */
const PER_PAGE = 100;

/** How many items a paged list holds at most, from its first answer's `last` link (a progress's total). */
function listedAtMost(response: GithubResponse<unknown[]>): number {
	const last = /<([^>]+)>;\s*rel="last"/.exec(String(response.headers.link ?? ''))?.[1];
	const pages = last ? Number(new URL(last).searchParams.get('page')) : 1;
	return Number.isSafeInteger(pages) && pages > 1 ? pages * PER_PAGE : response.data.length;
}

export class GithubAdapter implements TrackerAdapter {
	readonly tracker = 'github' as const;

	constructor(private readonly client: GithubClient, private readonly overlapMs = SINCE_OVERLAP_MS) {}

	rateLimit() {
		return this.client.rate;
	}

	/** Every page of a list, following the Link header (`first`: told the first answer). */
	private async *pages<T>(remote: string, route: string, parameters: Record<string, unknown>, first?: (response: GithubResponse<T[]>) => void): AsyncGenerator<T[]> {
		let response = await this.client.request<T[]>(remote, route, parameters);
		if (response) first?.(response);
		while (response) {
			yield response.data;
			const next = nextLink(response);
			response = next ? await this.client.request<T[]>(remote, `GET ${next}`) : undefined;
		}
	}

	private async all<T>(remote: string, route: string, parameters: Record<string, unknown>): Promise<T[]> {
		const out: T[] = [];
		for await (const page of this.pages<T>(remote, route, parameters)) out.push(...page);
		return out;
	}

	pull(given: SyncLink, since: string | null): PullRun {
		const link = current(given);
		const state = githubState(link.state);
		let next: GithubState = state;
		let renamed: string | undefined;
		let expected: number | undefined;
		let remote = link.remote;
		const client = this.client;
		const changedComments = this.changedComments.bind(this);
		const overlapMs = this.overlapMs;
		const firstPull = since === null;
		async function* pages(): AsyncGenerator<RemoteRecord[]> {
			const {owner, repo} = repoParts(remote);
			const conditional = since !== null && state.etag !== null && state.since === since;
			const first = await client.request<Raw[]>(remote, 'GET /repos/{owner}/{repo}/issues', {
				owner, repo, state: 'all', sort: 'updated', direction: 'asc', per_page: PER_PAGE,
				...(since === null ? {} : {since}),
				...(conditional ? {headers: {'if-none-match': state.etag}} : {}),
			});
			// 304: nothing changed since the last pull; the cursor stays.
			if (!first) return;
			const moved = /\/repos\/([^/]+)\/([^/]+)\/issues/.exec(new URL(first.url).pathname);
			if (moved && `${decodeURIComponent(moved[1]!)}/${decodeURIComponent(moved[2]!)}`.toLowerCase() !== remote.toLowerCase()) {
				renamed = `${decodeURIComponent(moved[1]!)}/${decodeURIComponent(moved[2]!)}`;
				remote = renamed;
			}

			expected = listedAtMost(first);
			const target = repoParts(remote);
			// A first pull gives every issue an empty list here and streams the repository's comments after (comments()).
			const changed = firstPull ? new Map<number, RemoteComment[]>() : await changedComments(remote, target, since);
			const seen = new Set<number>();
			let newest = since === null ? 0 : Date.parse(since) + overlapMs;
			const onePage = nextLink(first) === undefined;
			let response: GithubResponse<Raw[]> | undefined = first;
			while (response) {
				const records: RemoteRecord[] = [];
				for (const raw of response.data) {
					const record = issueRecord(raw, link.fields, state.read_only, link.key_field);
					if (!record) continue;
					seen.add(raw.number as number);
					newest = Math.max(newest, Date.parse(record.updated_at));
					const list = changed.get(raw.number as number);
					if (list) record.comments = list;
					else if (firstPull) record.comments = [];
					records.push(record);
				}

				if (records.length > 0) yield records;
				const following = nextLink(response);
				response = following ? await client.request<Raw[]>(remote, `GET ${following}`) : undefined;
			}

			// An issue whose comments changed but which the issue list did not bring: read it whole.
			const missing: RemoteRecord[] = [];
			for (const [number, list] of changed) {
				if (seen.has(number)) continue;
				const issue = await client.request<Raw>(remote, 'GET /repos/{owner}/{repo}/issues/{issue_number}', {...target, issue_number: number});
				const record = issue && issueRecord(issue.data, link.fields, state.read_only, link.key_field);
				if (record) missing.push({...record, comments: list});
			}

			if (missing.length > 0) yield missing;
			const nextSince = newest > 0 ? new Date(newest - overlapMs).toISOString().replace('.000Z', 'Z') : since;
			// The ETag stands for the whole answer only when it was one page, and only for the same `since`.
			const etag = onePage && nextSince === since && typeof first.headers.etag === 'string' ? first.headers.etag : null;
			next = {...state, since: nextSince, etag, ...(renamed ? {remote: renamed} : {})};
		}

		let commentsExpected: number | undefined;
		const pages$ = this.pages.bind(this);
		/**
		 * A first pull's comments: the repository's whole listing (one listing, not a request per
		 * issue), a page at a time, grouped by issue, so no more than a page is ever held.
		 */
		async function* comments(): AsyncGenerator<RemoteComments[]> {
			if (!firstPull) return;
			const listing = pages$<Raw>(remote, 'GET /repos/{owner}/{repo}/issues/comments', {...repoParts(remote), sort: 'created', direction: 'asc', per_page: PER_PAGE}, response => (commentsExpected = listedAtMost(response)));
			for await (const page of listing) {
				const byIssue = new Map<number, RemoteComment[]>();
				for (const raw of page) {
					const number = commentIssue(raw);
					if (number !== undefined) (byIssue.get(number) ?? byIssue.set(number, []).get(number)!).push(commentOf(raw));
				}

				yield [...byIssue].map(([number, list]) => ({remote_id: String(number), comments: list}));
			}
		}

		return {pages: pages(), comments: comments(), state: () => ({...next}), renamedTo: () => renamed, expected: () => expected, commentsExpected: () => commentsExpected};
	}

	/** After a first pull: the issues with comments changed since the cursor, each issue's list read whole. */
	private async changedComments(remote: string, target: {owner: string; repo: string}, since: string | null): Promise<Map<number, RemoteComment[]>> {
		const byIssue = new Map<number, RemoteComment[]>();
		const touched = new Set<number>();
		for await (const page of this.pages<Raw>(remote, 'GET /repos/{owner}/{repo}/issues/comments', {...target, sort: 'created', direction: 'asc', per_page: PER_PAGE, ...(since === null ? {} : {since})})) {
			for (const raw of page) {
				const number = commentIssue(raw);
				if (number !== undefined) touched.add(number);
			}
		}

		for (const number of touched) {
			const list = await this.all<Raw>(remote, 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {...target, issue_number: number, per_page: PER_PAGE});
			byIssue.set(number, list.map(commentOf));
		}

		return byIssue;
	}

	private field(link: SyncLink, entry: OutboxEntry): SyncedField {
		const field = link.fields.find(candidate => candidate.key === entry.field);
		if (!field) throw new GithubError(`github ${link.remote}: ${entry.field} is not a synced field of channel ${link.channel_id}`, undefined, false);
		return field;
	}

	private async readIssue(link: SyncLink, number: number): Promise<Raw | undefined> {
		try {
			return (await this.client.request<Raw>(link.remote, 'GET /repos/{owner}/{repo}/issues/{issue_number}', {...repoParts(link.remote), issue_number: number}))?.data;
		} catch (error) {
			if (error instanceof GithubError && (error.status === 404 || error.status === 410)) return undefined;
			throw error;
		}
	}

	async remoteHas(given: SyncLink, entry: OutboxEntry, context?: PushContext): Promise<{holds: true; remoteValue: unknown} | {holds: false}> {
		const link = current(given);
		if (entry.remote_id === null) return {holds: false};
		const field = this.field(link, entry);
		if (field.remote === GITHUB_DUPLICATE) {
			if (typeof entry.value !== 'string') return {holds: true, remoteValue: entry.value ?? null};
			const target = await context?.remoteIdOf(entry.value);
			if (!target) return {holds: false};
			const done = await this.duplicateDone(link, Number(entry.remote_id), duplicateComment(target));
			return done.commented && done.closed ? {holds: true, remoteValue: entry.value} : {holds: false};
		}

		const issue = await this.readIssue(link, Number(entry.remote_id));
		if (!issue) return {holds: false};
		const record = issueRecord(issue, [field], {}, link.key_field);
		const there = record?.values[field.key];
		if (field.kind === 'scalar') return sameCanonical(there, entry.value) ? {holds: true, remoteValue: there} : {holds: false};
		const {add, remove} = setChange(entry);
		const have = new Set(asSet(there));
		return add.every(value => have.has(value)) && remove.every(value => !have.has(value)) ? {holds: true, remoteValue: entry.value} : {holds: false};
	}

	async push(given: SyncLink, entries: OutboxEntry[], context?: PushContext): Promise<PushUnit[]> {
		const link = current(given);
		const {refused: units, byIssue} = byRemoteIssue(entries, 'GitHub');

		let milestones: Promise<Raw[]> | undefined;
		const milestoneList = async () => (milestones ??= this.all<Raw>(link.remote, 'GET /repos/{owner}/{repo}/milestones', {...repoParts(link.remote), state: 'all', per_page: 100}));
		for (const [remoteId, group] of byIssue) {
			const number = Number(remoteId);
			const scalars: OutboxEntry[] = [];
			for (const entry of group) {
				const field = this.field(link, entry);
				if (field.remote === GITHUB_DUPLICATE) {
					// Before the item's PATCH of scalars: the close is made with reason duplicate, not a plain close first.
					units.push({entries: [entry], send: async () => [await this.sendDuplicate(link, number, entry, context)]});
				} else if (field.kind === 'set') {
					units.push({entries: [entry], send: async () => [await this.sendSet(link, number, field, entry)]});
				} else if (field.remote === 'body' && typeof entry.value === 'string' && entry.value.length > GITHUB_BODY_LIMIT) {
					units.push({entries: [entry], refused: `the body of #${number} is ${entry.value.length.toLocaleString('en-US')} characters; GitHub keeps at most ${GITHUB_BODY_LIMIT.toLocaleString('en-US')}`, send: async () => []});
				} else {
					scalars.push(entry);
				}
			}

			if (scalars.length > 0) units.push({entries: scalars, send: async () => this.sendScalars(link, number, scalars, milestoneList)});
		}

		return units;
	}

	/** Turns a request's failure for one issue into per-entry results, or rethrows what stops the push. */
	private async failure(link: SyncLink, number: number, entries: OutboxEntry[], error: unknown): Promise<PushResult[]> {
		if (!(error instanceof GithubError)) throw error;
		if (error.status === 404 || error.status === 410) {
			// The issue, or the whole repository? Ask the repository: if it fails too, the push stops.
			await this.client.request(link.remote, 'GET /repos/{owner}/{repo}/issues', {...repoParts(link.remote), per_page: 1});
			return entries.map(entry => ({id: entry.id, ok: false, error: `#${number} is not on GitHub any more (${error.status})`, followUp: true}));
		}

		if (error.status === 422) return entries.map(entry => ({id: entry.id, ok: false, error: error.message, followUp: true}));
		throw error;
	}

	private async sendScalars(link: SyncLink, number: number, entries: OutboxEntry[], milestoneList: () => Promise<Raw[]>): Promise<PushResult[]> {
		const body: Record<string, unknown> = {};
		const results: PushResult[] = [];
		const sending: OutboxEntry[] = [];
		for (const entry of entries) {
			const field = this.field(link, entry);
			if (field.remote === 'milestone') {
				if (entry.value === null || entry.value === undefined) {
					body.milestone = null;
				} else {
					const milestone = (await milestoneList()).find(candidate => candidate.title === entry.value);
					if (!milestone) {
						results.push({id: entry.id, ok: false, error: `${link.remote} has no milestone titled ${JSON.stringify(entry.value)}`, followUp: true});
						continue;
					}

					body.milestone = milestone.number;
				}
			} else {
				body[field.remote] = entry.value ?? null;
			}

			sending.push(entry);
		}

		if (sending.length === 0) return results;
		let issue: Raw;
		try {
			issue = (await this.client.request<Raw>(link.remote, 'PATCH /repos/{owner}/{repo}/issues/{issue_number}', {...repoParts(link.remote), issue_number: number, ...body}))!.data;
		} catch (error) {
			return [...results, ...await this.failure(link, number, sending, error)];
		}

		const record = issueRecord(issue, link.fields, {}, link.key_field);
		for (const entry of sending) {
			const there = record?.values[entry.field];
			results.push(sameCanonical(there, entry.value)
				? {id: entry.id, ok: true, remoteValue: there}
				: {id: entry.id, ok: false, error: `GitHub kept ${entry.field} of #${number} at ${JSON.stringify(there)} instead of ${JSON.stringify(entry.value)} (no push access, or a state reason without a state change)`, followUp: true});
		}

		return results;
	}

	/** What an issue holds of a close as duplicate: the comment with exactly this text, and the closed state. */
	private async duplicateDone(link: SyncLink, number: number, text: string): Promise<{commented: boolean; closed: boolean}> {
		const issue = await this.readIssue(link, number);
		if (!issue) return {commented: false, closed: false};
		const comments = await this.all<Raw>(link.remote, 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {...repoParts(link.remote), issue_number: number, per_page: PER_PAGE});
		return {commented: comments.some(comment => typeof comment.body === 'string' && comment.body.trim() === text), closed: issue.state === 'closed' && issue.state_reason === 'duplicate'};
	}

	/**
	 * The duplicate relation set: one "Duplicate of #N" comment, then the issue closed as a duplicate.
	 * Cleared, it leaves GitHub as it is (reopening is a person's call). An entry a crash left
	 * 'sending' first reads what the issue holds, so neither the comment nor the close goes twice.
	 */
	private async sendDuplicate(link: SyncLink, number: number, entry: OutboxEntry, context: PushContext | undefined): Promise<PushResult> {
		if (typeof entry.value !== 'string') return {id: entry.id, ok: true, remoteValue: entry.value ?? null};
		const target = await context?.remoteIdOf(entry.value);
		if (!target) return {id: entry.id, ok: false, error: `the record ${entry.field} of #${number} names has no GitHub issue to point to`, followUp: true};
		const text = duplicateComment(target);
		const issueTarget = {...repoParts(link.remote), issue_number: number};
		try {
			const done = entry.state === 'sending' ? await this.duplicateDone(link, number, text) : {commented: false, closed: false};
			if (!done.commented) await this.client.request(link.remote, 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {...issueTarget, body: text});
			if (!done.closed) {
				const issue = (await this.client.request<Raw>(link.remote, 'PATCH /repos/{owner}/{repo}/issues/{issue_number}', {...issueTarget, state: 'closed', state_reason: 'duplicate'}))!.data;
				if (issue.state !== 'closed') return {id: entry.id, ok: false, error: `GitHub kept #${number} open instead of closing it as a duplicate of #${target} (no push access?)`, followUp: true};
			}
		} catch (error) {
			return (await this.failure(link, number, [entry], error))[0]!;
		}

		return {id: entry.id, ok: true, remoteValue: entry.value};
	}

	private async sendSet(link: SyncLink, number: number, field: SyncedField, entry: OutboxEntry): Promise<PushResult> {
		const {add, remove} = setChange(entry);
		const target = {...repoParts(link.remote), issue_number: number};
		if (add.length === 0 && remove.length === 0) return {id: entry.id, ok: true, remoteValue: entry.value};
		// What the issue holds after the last request: the label list, or the issue (assignees).
		let have: Set<string> | undefined;
		try {
			if (field.remote === 'labels') {
				const names = (labels: Raw[] | undefined) => new Set((labels ?? []).map(label => String(label.name)));
				if (add.length > 0) have = names((await this.client.request<Raw[]>(link.remote, 'POST /repos/{owner}/{repo}/issues/{issue_number}/labels', {...target, labels: add}))?.data);
				for (const name of remove) {
					try {
						have = names((await this.client.request<Raw[]>(link.remote, 'DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}', {...target, name}))?.data);
					} catch (error) {
						// Already off the issue (a retry of a removal that went through): what was wanted.
						if (!(error instanceof GithubError && error.status === 404)) throw error;
						have?.delete(name);
					}
				}
			} else {
				let issue: Raw | undefined;
				if (add.length > 0) issue = (await this.client.request<Raw>(link.remote, 'POST /repos/{owner}/{repo}/issues/{issue_number}/assignees', {...target, assignees: add}))!.data;
				if (remove.length > 0) issue = (await this.client.request<Raw>(link.remote, 'DELETE /repos/{owner}/{repo}/issues/{issue_number}/assignees', {...target, assignees: remove}))!.data;
				have = new Set(asSet(issue && issueRecord(issue, [field], {}, link.key_field)?.values[field.key]));
			}
		} catch (error) {
			return (await this.failure(link, number, [entry], error))[0]!;
		}

		have ??= new Set(add);
		const ignored = add.filter(value => !have.has(value));
		if (ignored.length > 0) {
			return {id: entry.id, ok: false, error: `GitHub did not add ${ignored.join(', ')} to ${field.key} of #${number}${field.remote === 'assignees' ? ' (no access to the repository?)' : ''}`, followUp: true};
		}

		return {id: entry.id, ok: true, remoteValue: entry.value};
	}
}

/** What a set entry adds and removes against its base. */
function setChange(entry: OutboxEntry): {add: string[]; remove: string[]} {
	const value = asSet(entry.value);
	const base = asSet(entry.base);
	return {add: value.filter(item => !base.includes(item)), remove: base.filter(item => !value.includes(item))};
}
