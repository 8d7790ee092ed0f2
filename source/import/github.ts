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
	assignees: string[];
	milestone?: string;
	author?: string;
	created_at?: string;
	updated_at?: string;
	closed_at?: string;
	url?: string;
	is_pull_request: boolean;
};

type Raw = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? cleanText(value) : undefined);
const lower = (value: unknown): string | undefined => text(value)?.toLowerCase();
const nameOf = (value: unknown, key: string): string | undefined => (typeof value === 'string' ? text(value) : typeof value === 'object' && value !== null ? text((value as Raw)[key]) : undefined);
const names = (value: unknown, key: string): string[] => [...new Set((Array.isArray(value) ? value : []).map(entry => nameOf(entry, key)).filter((name): name is string => name !== undefined))];

/** An issue object of either shape, or a message saying what is wrong with it. */
export function issueOf(raw: unknown): GithubIssue | string {
	if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
		return 'is not an issue object';
	}

	const issue = raw as Raw;
	if (typeof issue.number !== 'number' || !Number.isInteger(issue.number)) {
		return 'has no whole-number "number"';
	}

	if (typeof issue.title !== 'string') {
		return `(#${issue.number}) has no string "title"`;
	}

	const url = text(issue.html_url) ?? text(issue.url);
	return {
		number: issue.number,
		title: cleanText(issue.title),
		body: text(issue.body),
		state: lower(issue.state),
		state_reason: lower(issue.state_reason ?? issue.stateReason),
		labels: names(issue.labels, 'name'),
		assignees: names(issue.assignees, 'login'),
		milestone: nameOf(issue.milestone, 'title'),
		author: nameOf(issue.user ?? issue.author, 'login'),
		created_at: text(issue.created_at ?? issue.createdAt),
		updated_at: text(issue.updated_at ?? issue.updatedAt),
		closed_at: text(issue.closed_at ?? issue.closedAt),
		url,
		// REST marks a pull request with a non-null `pull_request` object (a null one is an issue);
		// gh's JSON has isPullRequest or a /pull/ URL.
		is_pull_request: (issue.pull_request !== undefined && issue.pull_request !== null) || issue.isPullRequest === true || (url?.includes('/pull/') ?? false),
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
const options = (values: Iterable<string>) => [...values].sort().map(value => ({value, label: value}));

/** The channel a GitHub dump fits: the select fields whose data is empty are left out (a select needs options). */
export function githubChannel(id: string, name: string, seen: {states: Set<string>; reasons: Set<string>; labels: Set<string>; assignees: Set<string>; milestones: Set<string>}): Channel {
	const choice = (key: string, label: string, type: 'select' | 'multi_select', values: Set<string>) => (values.size > 0 ? [field(key, label, type, {options: options(values)})] : []);
	return {id, name, fields: [
		field('number', 'Number', 'number', {integer: true}, {is_required: true, is_unique: true}),
		field('title', 'Title', 'text', {}, {is_required: true}),
		field('body', 'Body', 'text', {long: true}),
		...choice('state', 'State', 'select', seen.states),
		...choice('state_reason', 'State reason', 'select', seen.reasons),
		...choice('labels', 'Labels', 'multi_select', seen.labels),
		...choice('assignees', 'Assignees', 'multi_select', seen.assignees),
		...choice('milestone', 'Milestone', 'select', seen.milestones),
		field('author', 'Author', 'text'),
		field('created_on', 'Created on', 'date'),
		field('updated_on', 'Updated on', 'date'),
		field('closed_on', 'Closed on', 'date'),
		field('url', 'URL', 'url'),
		field('is_pull_request', 'Pull request', 'boolean'),
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
		author: issue.author,
		created_on: dayOf(issue.created_at),
		updated_on: dayOf(issue.updated_at),
		closed_on: dayOf(issue.closed_at),
		url: issue.url,
		is_pull_request: issue.is_pull_request,
	};
	// An absent value is null: no value on a create, a cleared field on an update (--into).
	for (const key of Object.keys(values)) {
		values[key] ??= null;
	}

	return values;
}

/** Reads a GitHub issues file as records (one pass for the options, then the rows on each call of rows()). */
export function readGithubFile(path: string, channelId: string, channelName: string): Omit<RecordFile, 'rows'> & {rows(): Generator<RecordRow>} {
	const seen = {states: new Set<string>(), reasons: new Set<string>(), labels: new Set<string>(), assignees: new Set<string>(), milestones: new Set<string>()};
	let count = 0;
	for (const {issue} of issues(path)) {
		count++;
		if (issue.state) seen.states.add(issue.state);
		if (issue.state_reason) seen.reasons.add(issue.state_reason);
		if (issue.milestone) seen.milestones.add(issue.milestone);
		for (const label of issue.labels) seen.labels.add(label);
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

				yield {values, created_at: issue.created_at, at};
			}
		},
	};
}
