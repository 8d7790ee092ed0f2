// GitHub issues as records: the REST API's issue objects (a JSON array, JSON Lines, or the arrays
// `gh api --paginate` writes one after another) and `gh issue list --json …` output (camelCase
// keys). The channel's select and multi-select options come from the data, so the file is read
// twice: once for the options, once for the rows.

import type {Channel, Field} from '../../store/index.js';
import {cleanText} from './clean-text.js';
import {JsonScanner} from './json-scanner.js';
import {RecordFileError, type RecordFile, type RecordRow} from './records.js';

/** One issue in the fields sift keeps, whichever of the two shapes it came in. */
export type GithubIssue = {
	number: number;
	title: string;
	body?: string;
	state?: string;
	state_reason?: string;
	labels: string[];
	/** Each label's colour (`#rrggbb`) and description, as the issue gives them. */
	label_details: Map<string, LabelDetails>;
	assignees: string[];
	milestone?: string;
	/** The milestone's due date-time (`due_on`, `dueOn`). */
	milestone_due_on?: string;
	author?: string;
	created_at?: string;
	updated_at?: string;
	closed_at?: string;
	/** A merged pull request's merge time. */
	merged_at?: string;
	/** A pull request's draft flag (undefined for an issue, or when the file does not say). */
	draft?: boolean;
	/** How many comments: the REST count, or the length of gh's comment list. */
	comments?: number;
	locked?: boolean;
	/** Who closed it (the REST API gives it for a single issue, not in lists). */
	closed_by?: string;
	url?: string;
	/** `owner/repo`, from the issue's URLs, when they name one. */
	repository?: string;
	is_pull_request: boolean;
};

export type LabelDetails = {color?: string; description?: string};

type Raw = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? cleanText(value) : undefined);
const lower = (value: unknown): string | undefined => text(value)?.toLowerCase();
const nameOf = (value: unknown, key: string): string | undefined => (typeof value === 'string' ? text(value) : typeof value === 'object' && value !== null ? text((value as Raw)[key]) : undefined);
const names = (value: unknown, key: string): string[] => [...new Set((Array.isArray(value) ? value : []).map(entry => nameOf(entry, key)).filter((name): name is string => name !== undefined))];

const isObject = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);
const flag = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);

/** A label's colour as a `#rrggbb` option colour (GitHub writes six hex digits, no `#`). */
const colorOf = (value: unknown): string | undefined => (typeof value === 'string' && /^#?[\da-f]{6}$/i.test(value) ? `#${value.replace(/^#/, '').toLowerCase()}` : undefined);

/** Each label's colour and description, by name (REST label objects; names and strings give none). */
export function labelDetails(value: unknown): Map<string, LabelDetails> {
	const details = new Map<string, LabelDetails>();
	for (const entry of Array.isArray(value) ? value : []) {
		const name = nameOf(entry, 'name');
		if (name === undefined || !isObject(entry) || details.has(name)) continue;
		const color = colorOf(entry.color);
		const description = text(entry.description);
		details.set(name, {...(color === undefined ? {} : {color}), ...(description === undefined ? {} : {description})});
	}

	return details;
}

/** `owner/repo` from a REST `repository_url` or any github.com issue or pull request URL. */
export function repositoryOf(issue: Raw): string | undefined {
	for (const url of [issue.repository_url, issue.html_url, issue.url]) {
		if (typeof url !== 'string') continue;
		const match = /^https:\/\/(?:api\.github\.com\/repos|github\.com)\/([^/\s]+)\/([^/\s]+)/.exec(url);
		if (match) return `${match[1]}/${match[2]}`;
	}

	return undefined;
}

/** Whether the issue is a pull request: REST's `pull_request` object (null means an issue), gh's isPullRequest, or a /pull/ URL. */
const isPullRequest = (issue: Raw, url: string | undefined) => isObject(issue.pull_request) || issue.isPullRequest === true || (url?.includes('/pull/') ?? false);

/** A comment count: REST's number, or gh's list of comments. */
const commentCount = (value: unknown): number | undefined => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : Array.isArray(value) ? value.length : undefined);

/** An issue object of either shape, or a message saying what is wrong with it. */
export function issueOf(raw: unknown): GithubIssue | string {
	if (!isObject(raw)) {
		return 'is not an issue object';
	}

	const issue = raw;
	// 1e300 is an integer to JavaScript, but no issue number: only safe whole numbers from 1 up.
	if (typeof issue.number !== 'number' || !Number.isSafeInteger(issue.number) || issue.number < 1) {
		return `has no whole-number "number" from 1 up (got ${JSON.stringify(issue.number) ?? 'none'})`;
	}

	if (typeof issue.title !== 'string') {
		return `(#${issue.number}) has no string "title"`;
	}

	const url = text(issue.html_url) ?? text(issue.url);
	const pullRequest = isPullRequest(issue, url);
	const milestone = isObject(issue.milestone) ? issue.milestone : undefined;
	const repository = repositoryOf(issue);
	return {
		number: issue.number,
		title: cleanText(issue.title),
		body: text(issue.body),
		state: lower(issue.state),
		state_reason: lower(issue.state_reason ?? issue.stateReason),
		labels: names(issue.labels, 'name'),
		label_details: labelDetails(issue.labels),
		assignees: names(issue.assignees, 'login'),
		milestone: nameOf(issue.milestone, 'title'),
		milestone_due_on: text(milestone?.due_on ?? milestone?.dueOn),
		author: nameOf(issue.user ?? issue.author, 'login'),
		created_at: text(issue.created_at ?? issue.createdAt),
		updated_at: text(issue.updated_at ?? issue.updatedAt),
		closed_at: text(issue.closed_at ?? issue.closedAt),
		merged_at: text((isObject(issue.pull_request) ? issue.pull_request.merged_at : undefined) ?? issue.merged_at ?? issue.mergedAt),
		draft: pullRequest ? flag(issue.draft ?? issue.isDraft) : undefined,
		comments: commentCount(issue.comments),
		locked: flag(issue.locked),
		closed_by: nameOf(issue.closed_by ?? issue.closedBy, 'login'),
		url,
		...(repository === undefined ? {} : {repository}),
		is_pull_request: pullRequest,
	};
}

/** Every JSON value at the top of the file, arrays opened: the issues one at a time, each with its place. */
function* issueObjects(path: string): Generator<{raw: unknown; at: string}> {
	const scanner = new JsonScanner(path);
	try {
		scanner.skipByteOrderMark();
		let index = 0;
		while (scanner.peek() !== undefined) {
			if (scanner.accept('[')) {
				if (!scanner.accept(']')) {
					do {
						yield {raw: scanner.value(`issue ${index + 1}`), at: `issue ${index + 1}`};
						index++;
					} while (scanner.accept(','));

					scanner.expect(']');
				}
			} else {
				yield {raw: scanner.value(`issue ${index + 1}`), at: `issue ${index + 1}`};
				index++;
			}
		}
	} finally {
		scanner.close();
	}
}

function* issues(path: string): Generator<{issue: GithubIssue; at: string}> {
	for (const {raw, at} of issueObjects(path)) {
		const issue = issueOf(raw);
		if (typeof issue === 'string') {
			throw new RecordFileError(`${path}: ${at} ${issue}`);
		}

		yield {issue, at: `issue #${issue.number}`};
	}
}

/** A date-time's calendar day (GitHub gives UTC, `2024-05-01T10:00:00Z`). */
const dayOf = (timestamp: string | undefined) => (timestamp && /^\d{4}-\d{2}-\d{2}/.test(timestamp) ? timestamp.slice(0, 10) : undefined);

const field = (key: string, label: string, type: Field['type'], config: Field['config'] = {}, extra: Partial<Field> = {}): Field => ({key, label, type, is_required: false, is_unique: false, config, ...extra});
const options = (values: Iterable<string>, details?: Map<string, LabelDetails>) => [...values].sort().map(value => ({value, label: value, ...details?.get(value)}));

/** What the first pass over a dump saw: the choice fields' values (labels with their details) and the repository. */
export type GithubSeen = {states: Set<string>; reasons: Set<string>; labels: Map<string, LabelDetails>; assignees: Set<string>; milestones: Set<string>};

/** The channel a GitHub dump fits: the select fields whose data is empty are left out (a select needs options). */
export function githubChannel(id: string, name: string, seen: GithubSeen): Channel {
	const choice = (key: string, label: string, type: 'select' | 'multi_select', values: Set<string> | Map<string, LabelDetails>) => (values.size > 0 ? [field(key, label, type, {options: options(values.keys(), values instanceof Map ? values : undefined)})] : []);
	return {id, name, fields: [
		field('number', 'Number', 'number', {integer: true}, {is_required: true, is_unique: true}),
		field('title', 'Title', 'text', {}, {is_required: true}),
		field('body', 'Body', 'text', {long: true}),
		...choice('state', 'State', 'select', seen.states),
		...choice('state_reason', 'State reason', 'select', seen.reasons),
		...choice('labels', 'Labels', 'multi_select', seen.labels),
		...choice('assignees', 'Assignees', 'multi_select', seen.assignees),
		...choice('milestone', 'Milestone', 'select', seen.milestones),
		field('milestone_due_on', 'Milestone due on', 'date'),
		field('author', 'Author', 'text'),
		field('created_on', 'Created on', 'date'),
		field('updated_on', 'Updated on', 'date'),
		field('closed_on', 'Closed on', 'date'),
		field('closed_at', 'Closed at', 'text'),
		field('closed_by', 'Closed by', 'text'),
		field('url', 'URL', 'url'),
		field('is_pull_request', 'Pull request', 'boolean'),
		field('merged_at', 'Merged at', 'text'),
		field('is_draft', 'Draft', 'boolean'),
		field('comments', 'Comments', 'number', {integer: true}),
		field('locked', 'Locked', 'boolean'),
	]};
}

/** An issue's values for the channel githubChannel gives; an absent value is null. */
export function issueValues(issue: GithubIssue): Record<string, unknown> {
	const values: Record<string, unknown> = {
		number: issue.number,
		title: issue.title,
		body: issue.body,
		state: issue.state,
		state_reason: issue.state_reason,
		labels: issue.labels.length > 0 ? issue.labels : undefined,
		assignees: issue.assignees.length > 0 ? issue.assignees : undefined,
		milestone: issue.milestone,
		milestone_due_on: dayOf(issue.milestone_due_on),
		author: issue.author,
		created_on: dayOf(issue.created_at),
		updated_on: dayOf(issue.updated_at),
		closed_on: dayOf(issue.closed_at),
		closed_at: issue.closed_at,
		closed_by: issue.closed_by,
		url: issue.url,
		is_pull_request: issue.is_pull_request,
		merged_at: issue.merged_at,
		is_draft: issue.draft,
		comments: issue.comments,
		locked: issue.locked,
	};
	// An absent value is null: no value on a create, a cleared field on an update (--into).
	for (const key of Object.keys(values)) {
		values[key] ??= null;
	}

	return values;
}

/** Reads a GitHub issues file as records (one pass for the options, then the rows on each call of rows()). */
export function readGithubFile(path: string, channelId: string, channelName: string): Omit<RecordFile, 'rows'> & {rows(): Generator<RecordRow>} {
	const seen: GithubSeen = {states: new Set(), reasons: new Set(), labels: new Map(), assignees: new Set(), milestones: new Set()};
	let count = 0;
	let repository: {name: string; at: string} | undefined;
	for (const {issue, at} of issues(path)) {
		count++;
		if (issue.repository !== undefined) {
			repository ??= {name: issue.repository, at};
			// One channel is one repository's issues: their numbers would collide.
			if (issue.repository !== repository.name) {
				throw new RecordFileError(`${path}: the file mixes two repositories, ${repository.name} (${repository.at}) and ${issue.repository} (${at}); import each repository into its own channel`);
			}
		}

		if (issue.state) seen.states.add(issue.state);
		if (issue.state_reason) seen.reasons.add(issue.state_reason);
		if (issue.milestone) seen.milestones.add(issue.milestone);
		for (const label of issue.labels) {
			const known = seen.labels.get(label);
			const details = issue.label_details.get(label) ?? {};
			// A label's colour or description may be missing on one issue (gh without those fields) and given on another.
			seen.labels.set(label, {...details, ...known});
		}

		for (const login of issue.assignees) seen.assignees.add(login);
	}

	if (count === 0) {
		throw new RecordFileError(`${path}: read as GitHub issues, the file has no issues to import; give --format if it is another format`);
	}

	const channel = githubChannel(channelId, channelName, seen);
	const keys = new Set(channel.fields.map(entry => entry.key));
	return {
		format: 'github',
		channel,
		*rows(): Generator<RecordRow> {
			for (const {issue, at} of issues(path)) {
				const values = issueValues(issue);
				for (const key of Object.keys(values)) {
					if (!keys.has(key)) delete values[key];
				}

				// The issue's own times are the item's, so `updated:<2025-01-01` and `sort:-updated` mean GitHub's times.
				yield {values, ...(issue.created_at === undefined ? {} : {created_at: issue.created_at}), ...(issue.updated_at === undefined ? {} : {updated_at: issue.updated_at}), at};
			}
		},
	};
}
