/**
 * Page cursors: opaque to callers (base64url JSON), holding the order they belong to, which
 * side of the position the next page lies on, and the position itself (sort value + seq).
 */

import {invalidArgument} from '../errors.js';

/** Where a page starts: after the item with this sort value (null: an unset value) and seq. */
export type Position = {value: number | string | null; seq: number};

export type Cursor = {
	/** The order's name (`-id`, `due`, `-severity`): a cursor only pages the order it came from. */
	order: string;
	/** `after`: the page that follows the position in the order; `before`: the page that precedes it. */
	side: 'after' | 'before';
	position: Position;
};

type Wire = {o: string; d: 'a' | 'b'; v: number | string | null; s: number};

export function encodeCursor(cursor: Cursor): string {
	const wire: Wire = {o: cursor.order, d: cursor.side === 'after' ? 'a' : 'b', v: cursor.position.value, s: cursor.position.seq};
	return Buffer.from(JSON.stringify(wire)).toString('base64url');
}

/** The cursor in `text`, checked to belong to `order`; anything else is refused. */
export function decodeCursor(text: unknown, order: string): Cursor {
	const wire = typeof text === 'string' && text.length <= 2048 ? readWire(text) : undefined;
	if (!wire) {
		throw invalidArgument(`cursor must be a cursor from a previous page (next_cursor or prev_cursor), got ${JSON.stringify(text)?.slice(0, 60)}`);
	}

	if (wire.o !== order) {
		throw invalidArgument(`cursor belongs to the order sort:${wire.o}, not sort:${order}; start again without a cursor`);
	}

	return {order, side: wire.d === 'a' ? 'after' : 'before', position: {value: wire.v, seq: wire.s}};
}

function readWire(text: string): Wire | undefined {
	let wire: unknown;
	try {
		wire = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
	} catch {
		return undefined;
	}

	if (typeof wire !== 'object' || wire === null || Array.isArray(wire)) {
		return undefined;
	}

	const {o, d, v, s} = wire as Record<string, unknown>;
	const validValue = v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
	if (typeof o !== 'string' || (d !== 'a' && d !== 'b') || !validValue || !Number.isSafeInteger(s) || (s as number) < 0 || Object.keys(wire).length !== 4) {
		return undefined;
	}

	return {o, d, v: v as Wire['v'], s: s as number};
}
