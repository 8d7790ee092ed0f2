// The real duplicate sets of test/fixtures/duplicates (GitBugs: Hadoop's Jira and SeaMonkey's
// Bugzilla reports with their known duplicate links), read as a sift channel: title, the tracker's
// unique issue id, and the description as long text, items in the order they were filed; and a
// small channel with a duplicate relation for the tests that write their own reports.

import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {gunzipSync} from 'node:zlib';
import {parse} from 'csv-parse/sync';
import type {Channel, Values} from '../../store/index.js';

const FIXTURES = join(process.cwd(), 'test/fixtures/duplicates');

/**
 * A small channel whose duplicates are a relation to itself that sets the status `duplicate`
 * (docs/records.md#duplicates): what the duplicate tests fill with their own reports.
 */
export const ISSUES_WITH_DUPLICATES = {
	id: 'issues', name: 'Issues', fields: [
		{key: 'ticket', label: 'Ticket', type: 'text', is_unique: true},
		{key: 'title', label: 'Title', type: 'text'},
		{key: 'description', label: 'Description', type: 'text', config: {long: true}},
		{key: 'status', label: 'Status', type: 'select', config: {options: [{value: 'new', label: 'New'}, {value: 'duplicate', label: 'Duplicate'}]}},
		{key: 'duplicate_of', label: 'Duplicate of', type: 'relation', config: {channel_id: 'issues', duplicate_status: 'duplicate'}},
	],
};

export const DUPLICATE_SETS = ['hadoop', 'seamonkey'] as const;
export type DuplicateSetName = (typeof DUPLICATE_SETS)[number];

export type DuplicateSet = {
	name: DuplicateSetName;
	channel: Channel;
	/** Oldest first, each with its created_at (the tracker's). */
	items: Array<{values: Values; created_at: string; updated_at: string}>;
	/** The pairs file as published (`Issue id,Duplicate id`, issue ids). */
	pairsFile: string;
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Jira's `30/Sep/21 17:20` or Bugzilla's `2020-01-02 17:14:21+00:00`, as an ISO time. */
function createdAt(text: string): string {
	const jira = /^(\d{2})\/([A-Z][a-z]{2})\/(\d{2}) (\d{2}):(\d{2})$/.exec(text);
	if (jira) {
		const [, day, month, year, hour, minute] = jira;
		return new Date(Date.UTC(2000 + Number(year), MONTHS.indexOf(month!), Number(day), Number(hour), Number(minute))).toISOString();
	}

	const time = new Date(text.replace(' ', 'T'));
	if (Number.isNaN(time.getTime())) throw new Error(`unreadable Created time ${JSON.stringify(text)}`);
	return time.toISOString();
}

export const duplicateChannel = (id: string): Channel => ({
	id,
	name: id,
	fields: [
		{key: 'title', label: 'Title', type: 'text', is_required: false, is_unique: false, config: {}},
		{key: 'issue', label: 'Issue', type: 'text', is_required: true, is_unique: true, config: {}},
		{key: 'description', label: 'Description', type: 'text', is_required: false, is_unique: false, config: {long: true}},
	],
});

export function duplicateSet(name: DuplicateSetName, channelId: string = name): DuplicateSet {
	const bugs = gunzipSync(readFileSync(join(FIXTURES, `${name}-bugs.csv.gz`))).toString('utf8');
	const rows = parse(bugs, {columns: true, relax_quotes: true}) as Array<Record<string, string>>;
	const items = rows
		.map(row => ({values: {title: row.Summary ?? '', issue: row['Issue id']!, description: row.Description ?? ''}, created_at: createdAt(row.Created!)}))
		.sort((a, b) => a.created_at.localeCompare(b.created_at) || Number(a.values.issue) - Number(b.values.issue))
		.map(item => ({...item, updated_at: item.created_at}));
	return {name, channel: duplicateChannel(channelId), items, pairsFile: readFileSync(join(FIXTURES, `${name}-duplicates.csv`), 'utf8')};
}
