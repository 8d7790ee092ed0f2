// Pages and match counts on PostgreSQL: the query language compiled by store/query/postgres.ts,
// planned and assembled by store/pages.ts exactly as on SQLite (same cursors, same refusals).

import type pg from 'pg';
import type {LoadedChannel} from '../channels.js';
import {pageOf, parseWhere, planPage, type PageQuery} from '../pages.js';
import {pgCountStatement, pgPageStatement} from '../query/postgres.js';
import type {Page, Values} from '../types.js';

type Row = {latest: number; seq: number | null; id: string; version: number; created_at: string; updated_at: string; data: Values; sort_value: number | string | null};

export async function listPage(pool: pg.Pool, channel: LoadedChannel, request: PageQuery = {}): Promise<Page> {
	const plan = planPage(channel, request);
	const statement = pgPageStatement(channel, plan.query, plan.forward, plan.start.position, plan.limit + 1);
	const {rows} = await pool.query<Row>(statement.sql, statement.params);
	const found = rows.filter(row => row.seq !== null).map(row => ({...row, seq: row.seq!, values: row.data}));
	return pageOf(channel, plan, found, rows[0]?.latest ?? 0);
}

/** How many of the channel's items match the query's terms (its sort is ignored). */
export async function countMatches(pool: pg.Pool, channel: LoadedChannel, where: string, now?: Date): Promise<number> {
	const statement = pgCountStatement(channel, parseWhere(channel, where, now));
	const {rows} = await pool.query<{n: number}>(statement.sql, statement.params);
	return rows[0]!.n;
}
