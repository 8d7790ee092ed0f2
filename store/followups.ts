// Follow-ups as both backends list and dismiss them. Which refusals open one is the edit plan's
// (store/edit-plan.ts); the bookkeeping is SQL per backend: store/sqlite/followups.ts and
// store/postgres/followups.ts.

import {notFound, StoreError} from './errors.js';
import type {FollowUpKind, FollowUpStatus} from './types.js';

/** `kind`: refusals or sync conflicts alone (the TUI's F lists refusals; C lists conflicts). */
export type FollowUpQuery = {channelId?: string; status?: FollowUpStatus; itemId?: string; runId?: string; kind?: FollowUpKind; limit?: number};

/** The columns a follow-up query filters on, with their values: only the ones asked for. */
export function followUpFilters(query: FollowUpQuery): Array<[column: string, value: string]> {
	const filters: Array<[string, string | undefined]> = [['channel_id', query.channelId], ['status', query.status], ['item_id', query.itemId], ['run_id', query.runId], ['kind', query.kind]];
	return filters.filter((filter): filter is [string, string] => filter[1] !== undefined);
}

/** The follow-up a dismissal read, if it is open: not_found or invalid_argument otherwise. */
export function checkDismissable<Row extends {status: FollowUpStatus}>(row: Row | undefined, id: number): Row {
	if (!row) {
		throw notFound(`follow-up ${id} does not exist`);
	}

	if (row.status !== 'open') {
		throw new StoreError({error: 'invalid_argument', message: `follow-up ${id} is already ${row.status}`});
	}

	return row;
}
