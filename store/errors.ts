// `StoreError` and every refusal body the store returns.

import type {QueryRefusal} from './query/types.js';
import {cutCodePoints} from './text.js';
import type {FieldProblem, Changes} from './types.js';

export type StoreErrorBody =
	| {error: 'validation_failed'; fields: FieldProblem[]}
	| {error: 'version_conflict'; message: string; current_version: number; changed_since: Changes}
	| {error: 'idempotency_key_reused'; message: string}
	| {error: 'not_granted'; message: string}
	| {error: 'not_found'; message: string}
	| {error: 'invalid_argument'; message: string}
	| {error: 'invalid_schema'; message: string}
	| {error: 'invalid_import'; message: string}
	| {error: 'not_a_store'; message: string}
	| {error: 'read_only'; message: string}
	/** The database server cannot be reached right now (down, restarting, connection lost): try again. */
	| {error: 'unavailable'; message: string}
	/** A statement ran past the statement timeout and was cancelled. */
	| {error: 'timeout'; message: string}
	/** The database role may not read sift's tables at all. */
	| {error: 'permission_denied'; message: string}
	/** The token or grant allows reading only. */
	| {error: 'forbidden'; message: string}
	/** SQLite: another process held the write lock past the wait (SIFT_LOCK_WAIT); nothing was written. */
	| {error: 'busy'; message: string}
	/** A schema change that would leave items invalid: how many, and the first few by name. */
	| {error: 'schema_change_refused'; message: string; key: string; count: number; items: string[]}
	| QueryRefusal;

export type StoreErrorCode = StoreErrorBody['error'];

/** Every refusal of the store: `body` is the JSON that callers (CLI, MCP, TUI) show as is. */
export class StoreError extends Error {
	override name = 'StoreError';
	readonly body: StoreErrorBody;

	constructor(body: StoreErrorBody) {
		super(StoreError.describe(body));
		this.body = body;
	}

	get code(): StoreErrorCode {
		return this.body.error;
	}

	private static describe(body: StoreErrorBody): string {
		if (body.error === 'validation_failed') {
			return body.fields.map(field => field.message).join('; ');
		}

		if (body.error === 'bad_query') {
			return `bad query term ${JSON.stringify(body.term)}: ${body.message}`;
		}

		return body.message;
	}
}

export const notFound = (message: string) => new StoreError({error: 'not_found', message});
export const invalidArgument = (message: string) => new StoreError({error: 'invalid_argument', message});

/** A short, single-line rendering of an offending value for messages (huge values are cut). */
export function quote(value: unknown): string {
	// JSON would show a number too large for it (Infinity, from 1e309) as null: show what was written.
	if (typeof value === 'number' && !Number.isFinite(value)) {
		return String(value);
	}

	let text: string;
	try {
		text = JSON.stringify(value) ?? String(value);
	} catch {
		// Too deep to serialise (or a cycle): String() would recurse just as deep.
		text = Array.isArray(value) ? '[...]' : (typeof value === 'object' && value !== null ? '{...}' : String(value));
	}

	return cutCodePoints(text, 80, '...');
}
