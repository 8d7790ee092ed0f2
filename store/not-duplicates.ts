// "Not a duplicate" (docs/records.md#duplicates): a person's word that two records of a channel
// are not duplicates of each other. Kept as a pair in one order (the smaller id first), so the mark
// holds both ways; find_similar_items leaves marked pairs out. Each mark is an event of the item it
// was made on (`not_duplicate.marked`), so every reader of the channel's events sees it.

import {invalidArgument, quote} from './errors.js';
import type {NewEvent} from './events.js';
import {seqOfItemId} from './items.js';
import type {Actor} from './types.js';

/** What a mark answers: the pair as asked, and its event. */
export type NotDuplicateResult = {ok: true; item_id: string; other_id: string; sequence: number};

/** The pair as stored: the smaller id first. */
export const orderedPair = (itemId: string, otherId: string): [string, string] => (itemId < otherId ? [itemId, otherId] : [otherId, itemId]);

/** Checks a mark's ids before anything is read: two item ids, not the same. */
export function checkNotDuplicate(itemId: unknown, otherId: unknown): {itemId: string; otherId: string} {
	seqOfItemId(itemId, 'item_id');
	seqOfItemId(otherId, 'other_id');
	if (itemId === otherId) throw invalidArgument(`other_id must be another item than item_id, got ${quote(otherId)} for both`);
	return {itemId: itemId as string, otherId: otherId as string};
}

/** The mark's event, on the item it was made on, at that item's version. */
export const notDuplicateEvent = (itemId: string, version: number, otherId: string, actor: Actor, at: string): NewEvent => ({
	type: 'not_duplicate.marked', item_id: itemId, version, actor, changes: {not_duplicate_of: {from: null, to: otherId}}, at,
});

/** The other ids of the pairs that hold `itemId`. */
export const othersOf = (itemId: string, pairs: ReadonlyArray<{item_a: string; item_b: string}>): string[] => pairs.map(pair => (pair.item_a === itemId ? pair.item_b : pair.item_a));
