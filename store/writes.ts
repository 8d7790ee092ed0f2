// What a write asks of either backend, and its limits. The rules of a write are
// store/write-rules.ts; the transactions are store/sqlite/writes.ts and store/postgres/writes.ts.

import type {Grants} from './grants.js';
import type {Actor, EventCause} from './types.js';
import type {validateValues} from './validate.js';

export type EditRequest = {
	channelId: string;
	itemId: string;
	values: unknown;
	actor: Actor;
	expectedVersion?: number;
	idempotencyKey?: string;
	/**
	 * The channels the writer may touch (an agent's server grants). A relation may only point into
	 * one of them. Without grants (a person at the CLI or TUI) every channel is granted.
	 */
	grants?: Grants;
	/**
	 * `propose`: a valid edit becomes a proposal instead of a write (docs/review.md). An agent's
	 * edit is also proposed whenever its run is recorded in propose mode, whatever this says: no
	 * caller can turn a proposing run's edits into writes.
	 */
	mode?: EditMode;
	/** Why the agent proposes this (at most MAX_REASON_LENGTH characters); kept with a proposal. */
	reason?: string;
	/** How sure the agent is of this edit, 0 to 1 (docs/review.md#confidence); kept with a proposal. */
	confidence?: number;
	/** What the write's event names besides its actor: the proposal accepted, the run reverted. */
	cause?: EventCause;
};

export type EditMode = 'apply' | 'propose';

/** The longest reason an agent may give for an edit. */
export const MAX_REASON_LENGTH = 500;

export type Validator = typeof validateValues;

/**
 * Largest `values` payload a single write may carry, serialized: room for a long text at its
 * 1 MiB limit (store/fields/text.ts) even when JSON escaping grows it, and the other fields.
 */
export const MAX_WRITE_BYTES = 8 * 1024 * 1024;
