/**
 * Views and the list's query as query language text (pure). A view is a named query; the list
 * shows the active view's terms, then what `/` and `f` add, in one order. The store is asked with
 * one `where` text and one `sort`, so a `sort:` term is kept apart from the terms it came with.
 */

import {isRefusal, parseQuery, tokenize, type Field} from '../../../store/index.js';
import type {View} from '../../config/schema.js';
import type {ListQuery} from '../state.js';

/** Query text split into its other terms and the field of its `sort:` term (`due`, `-due`). */
export function splitSort(text: string): {terms: string; sort?: string} {
	const tokens = tokenize(text);
	// Unreadable text stays whole: the store refuses it, naming the term.
	if (!Array.isArray(tokens)) return {terms: text.trim()};
	const sorts = tokens.filter(token => token.key === 'sort' && !token.negated);
	const terms = tokens.filter(token => !sorts.includes(token)).map(token => token.raw).join(' ');
	// Two sort terms are left for the store to refuse ("a query takes one sort term").
	if (sorts.length !== 1) return {terms: text.trim()};
	return {terms, sort: sorts[0]!.value.toLowerCase()};
}

/** The list query a view stands for: its terms and its sort. */
export function viewQuery(view: View): ListQuery {
	const {terms, sort} = splitSort(view.query);
	return {view: view.name, where: terms || undefined, sort};
}

/** The active view (the one `query.view` names), if any. */
export const activeView = (views: View[], query: ListQuery) => views.find(view => view.name === query.view);

/** The query the list falls back to on Esc: the active view's, else everything. */
export function baseQuery(views: View[], query: ListQuery): ListQuery {
	const view = activeView(views, query);
	return view ? viewQuery(view) : {};
}

/** The view the screen opens on: All (everything) when the channel has it, else the first. */
export function startView(views: View[]): View | undefined {
	return views.find(view => view.query.trim() === '') ?? views[0];
}

const quoted = (value: string) => (/^[^\s",]+$/.test(value) ? value : `"${value.replaceAll('"', '')}"`);

/** The terms of the list query, without its sort: the view's, the filter's, then the search's. */
export function whereText(query: ListQuery): string {
	const filter = Object.entries(query.filter ?? {}).map(([key, value]) => `${key}:${quoted(String(value))}`);
	return [query.where ?? '', ...filter, query.search ?? ''].filter(part => part !== '').join(' ');
}

/** The list query as one query text, as `:view save` stores it. */
export function queryText(query: ListQuery): string {
	return [whereText(query), query.sort === undefined ? '' : `sort:${query.sort}`].filter(part => part !== '').join(' ');
}

/** What a page request carries for the query: its where text (without `f`'s filter) and its sort. */
export function pageWhere(query: ListQuery): {where?: string; sort?: string; filter?: Record<string, unknown>} {
	const where = [query.where ?? '', query.search ?? ''].filter(part => part !== '').join(' ');
	return {where: where || undefined, sort: query.sort, filter: query.filter};
}

/** The text `/` opens with: the search, and the sort when it is not the view's own. */
export function searchText(views: View[], query: ListQuery): string {
	const own = baseQuery(views, query).sort;
	return [query.search ?? '', query.sort !== undefined && query.sort !== own ? `sort:${query.sort}` : ''].filter(part => part !== '').join(' ');
}

/**
 * The store's refusal of a query for these fields, or null when it reads. The clock does not
 * change whether a term reads, so a fixed one keeps this pure.
 */
export function queryProblem(fields: Field[], text: string): string | null {
	const parsed = parseQuery(text, {fields}, {now: new Date(0)});
	return isRefusal(parsed) ? parsed.message : null;
}

/**
 * The fields the list's columns are chosen from: the view's `columns`, in its order, when it
 * names some; else every field.
 */
export function columnFields(fields: Field[], view: View | undefined): Field[] {
	if (!view?.columns) return fields;
	const chosen = view.columns.map(key => fields.find(field => field.key === key)).filter((field): field is Field => field !== undefined);
	return chosen.length > 0 ? chosen : fields;
}

/**
 * The queues a person works through, by the term that asks for their records. A view that is the
 * term alone is that queue's tab: it counts the queue's open entries, as the header does (open
 * follow-ups, open proposals), since those are what a person resolves one by one; a record can
 * hold several, so its records would count fewer.
 */
export const QUEUE_TERMS = {followUps: 'has:followup', proposals: 'has:proposal'} as const;
export type Queue = keyof typeof QUEUE_TERMS;

/** The queue a view stands for, when its query is a queue's term alone. */
export function queueOfView(view: View): Queue | undefined {
	const query = view.query.trim();
	return (Object.keys(QUEUE_TERMS) as Queue[]).find(queue => QUEUE_TERMS[queue] === query);
}

/** Whether a view's query asks a queue's term (alone or with others): its match count moves with the queue. */
export const asksQueue = (view: View, queue: Queue) => new RegExp(`(^|\\s)${QUEUE_TERMS[queue]}(\\s|$)`).test(view.query);

/**
 * The tabs' counts: each view's match count, but a queue's own tab shows the header's count of
 * that queue (one source for both), so it follows the queue's events at once.
 */
export function tabCounts(views: readonly View[], matches: ReadonlyMap<string, number>, queues: Record<Queue, number>): ReadonlyMap<string, number> {
	const counts = new Map(matches);
	for (const view of views) {
		const queue = queueOfView(view);
		if (queue) counts.set(view.name, queues[queue]);
	}

	return counts;
}

/** The order in words for the header: `sort:due`, or `newest first`. */
export const sortLabel = (sort: string | undefined) => (sort === undefined ? 'newest first' : `sort:${sort}`);
