// The read of a record's pulled tracker comments (GitHub issue comments, Redmine journals): the
// newest `limit` of them, shown oldest first, with how many there are in all. Read-only: only a
// pull writes them (store/sync/plan.ts), and no agent tool reaches them.

import {checkLimit} from '../pages.js';
import type {ItemComments, RemoteComment} from './types.js';

/** How many comments a read gives unless asked: a record pane's worth. */
export const COMMENTS_LIMIT = 50;
/** The most one read gives. */
export const COMMENTS_MOST = 500;

/** The query's limit, checked (a clear refusal for anything but a whole number in range). */
export const commentsLimit = (query: {limit?: number} = {}): number => checkLimit(query.limit ?? COMMENTS_LIMIT, COMMENTS_MOST);

/** A row of commentsSql: a comment and the record's count of them. */
export type CommentRow = RemoteComment & {total: number | string};

/**
 * Both backends' read, with their placeholders for the item id and the limit: the newest first,
 * each row carrying the count of all the record's comments (a window over the whole match, taken
 * before the limit), so one statement answers both.
 */
export const commentsSql = (item: string, limit: string) => `SELECT remote_id, author, body, created_at, updated_at, count(*) OVER () AS total
	FROM item_comments WHERE item_id = ${item} ORDER BY created_at DESC, remote_id DESC LIMIT ${limit}`;

/** The rows of commentsSql as the read's answer: oldest first. */
export function commentsPage(newestFirst: CommentRow[]): ItemComments {
	const comments = newestFirst.map(({remote_id, author, body, created_at, updated_at}) => ({remote_id, author, body, created_at, updated_at})).reverse();
	return {comments, total: Number(newestFirst[0]?.total ?? 0)};
}
