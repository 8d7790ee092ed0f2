// How a GitHub issue maps to a sift channel's fields for sync: which fields sync two ways (title,
// body, state, state reason, labels, assignees, milestone), which are read-only (number, author,
// dates, URL, pull request), the channel's duplicate relation (push only: closes the issue as a
// duplicate), an optional map file renaming them or keeping some local, and the
// translation of REST issues and comments into RemoteRecords. The issue → values mapping itself is
// the importer's (source/import/github.ts), so `sift import --format github` and sync agree.

import type {Channel} from '../../../store/index.js';
import type {RemoteComment, RemoteRecord, SyncedField} from '../../../store/sync/types.js';
import {cleanText} from '../../import/clean-text.js';
import {issueOf, issueValues} from '../../import/github.js';
import {readFieldMap, type FieldMap} from '../map-file.js';

/** GitHub's two-way fields: the name in issueValues → set or scalar. */
export const GITHUB_SYNCED: ReadonlyArray<{remote: string; kind: 'scalar' | 'set'}> = [
	{remote: 'title', kind: 'scalar'},
	{remote: 'body', kind: 'scalar'},
	{remote: 'state', kind: 'scalar'},
	{remote: 'state_reason', kind: 'scalar'},
	{remote: 'labels', kind: 'set'},
	{remote: 'assignees', kind: 'set'},
	{remote: 'milestone', kind: 'scalar'},
];

/** GitHub's read-only fields: pulled into the item, never pushed. `number` is the key. */
export const GITHUB_READ_ONLY = ['number', 'author', 'created_on', 'updated_on', 'closed_on', 'url', 'is_pull_request'] as const;

/**
 * The duplicate relation's remote name: push only. Setting it closes the issue as a duplicate with
 * a "Duplicate of #N" comment; GitHub has no field to pull it back from, so a pull never brings it.
 */
export const GITHUB_DUPLICATE = 'duplicate_of';

/** The longest body GitHub keeps (characters). */
export const GITHUB_BODY_LIMIT = 65_536;

/** The state_reason values GitHub knows. */
export const GITHUB_STATE_REASONS = ['completed', 'not_planned', 'reopened', 'duplicate'];

/** remote name → sift field key, or null to keep the field local (not synced, not pulled). */
export type GithubFieldMap = FieldMap;

export {MapFileError} from '../map-file.js';

/** Reads a map file: `fields: {labels: tags, body: null}` (remote name → sift key, null: keep local). */
export const readGithubMap = (path: string): GithubFieldMap => readFieldMap(path, {tracker: 'GitHub', known: new Set([...GITHUB_SYNCED.map(entry => entry.remote), GITHUB_DUPLICATE, ...GITHUB_READ_ONLY]), neverLocal: ['number']});

/** The sift key for a GitHub field under `map` (null: local). */
const keyFor = (map: GithubFieldMap, remote: string) => (Object.hasOwn(map, remote) ? map[remote]! : remote);

/** The link's fields and read-only fields for `channel`: only those the channel has. */
export function githubLinkFields(channel: Channel, map: GithubFieldMap = {}): {keyField: string; fields: SyncedField[]; readOnly: Record<string, string>; missing: string[]} {
	const has = new Set(channel.fields.map(field => field.key));
	const fields: SyncedField[] = [];
	const missing: string[] = [];
	for (const {remote, kind} of GITHUB_SYNCED) {
		const key = keyFor(map, remote);
		if (key === null) continue;
		if (has.has(key)) fields.push({key, remote, kind});
		else missing.push(key);
	}

	// Only a relation of the channel to itself is a duplicate relation; anything else by that name stays local.
	const duplicateKey = keyFor(map, GITHUB_DUPLICATE);
	const duplicate = channel.fields.find(field => field.key === duplicateKey);
	if (duplicate?.type === 'relation' && duplicate.config.channel_id === channel.id) fields.push({key: duplicate.key, remote: GITHUB_DUPLICATE, kind: 'scalar'});

	const readOnly: Record<string, string> = {};
	for (const remote of GITHUB_READ_ONLY) {
		const key = keyFor(map, remote);
		if (key !== null && has.has(key)) readOnly[remote] = key;
	}

	return {keyField: keyFor(map, 'number') ?? 'number', fields, readOnly, missing};
}

type Raw = Record<string, unknown>;

/** A REST issue as a RemoteRecord of the link's fields; undefined for an object that is no issue. */
export function issueRecord(raw: unknown, fields: readonly SyncedField[], readOnly: Record<string, string>, keyField: string): RemoteRecord | undefined {
	const issue = issueOf(raw);
	if (typeof issue === 'string') return undefined;
	const all = issueValues(issue);
	const values: Record<string, unknown> = {[keyField]: issue.number};
	for (const field of fields) {
		if (field.remote !== GITHUB_DUPLICATE) values[field.key] = all[field.remote] ?? (field.kind === 'set' ? [] : null);
	}

	for (const [remote, key] of Object.entries(readOnly)) values[key] = all[remote] ?? null;
	const created = (raw as Raw).created_at as string;
	return {remote_id: String(issue.number), values, created_at: created, updated_at: ((raw as Raw).updated_at as string | undefined) ?? created};
}

/** A REST issue comment as sift keeps it (read-only). */
export function commentOf(raw: Raw): RemoteComment {
	const user = raw.user as Raw | null | undefined;
	return {
		remote_id: String(raw.id),
		author: typeof user?.login === 'string' ? user.login : null,
		body: typeof raw.body === 'string' ? cleanText(raw.body) : '',
		created_at: raw.created_at as string,
		updated_at: (raw.updated_at as string | undefined) ?? (raw.created_at as string),
	};
}

/** The issue number a comment belongs to, from its issue_url. */
export function commentIssue(raw: Raw): number | undefined {
	const match = /\/issues\/(\d+)$/.exec(String(raw.issue_url ?? ''));
	return match ? Number(match[1]) : undefined;
}
