// The list's effects: its pages read (the first one also before the screen mounts, ui/first-screen.ts),
// rows and the record pane's record (with its pulled comments) read again, the schema read again, the channel's events read now.

import type {AsyncStore} from '../../../../store/api.js';
import type {PageQuery} from '../../../../store/pages.js';
import {itemIdOf, seqOfItemId} from '../../../../store/index.js';
import {pageWhere} from '../../model/views.js';
import type {ScreenEvent, ScreenState} from '../../state.js';
import type {EffectContext, EffectOf, EffectTable} from '../feature.js';
import type {SyncMarks} from '../../sync-marks.js';

/**
 * A page of the list read for `list` or `loadPage`, as the event that answers it (it carries the
 * generation it was asked for); the start reads the first one before the screen mounts (ui/first-screen.ts).
 */
export async function readListing(effect: EffectOf<'list' | 'loadPage'>, state: Pick<ScreenState, 'channelId' | 'window'>, store: AsyncStore): Promise<ScreenEvent> {
	const {generation, query} = effect;
	let where: PageQuery = {beforeId: null};
	if (effect.kind === 'loadPage') where = 'cursor' in effect.request ? {cursor: effect.request.cursor} : {beforeId: effect.request.beforeId};
	else if (effect.from) where = {from: effect.from};
	const asked = pageWhere(query);
	// From one item on (a `:` jump): the page before the next newer id starts at it; a where
	// (even empty) makes the page carry cursors both ways.
	if (effect.kind === 'list' && effect.at !== undefined) where = {beforeId: itemIdOf(seqOfItemId(effect.at, 'item') + 1), where: asked.where ?? ''};
	try {
		const page = await store.listPage(state.channelId, {...asked, ...where, limit: state.window.pageSize});
		return effect.kind === 'list' ? {type: 'listed', generation, query, page, note: effect.note, from: effect.from, at: effect.at} : {type: 'pageLoaded', generation, direction: effect.direction, page};
	} catch (error) {
		return {type: 'loadFailed', generation, message: (error as Error).message};
	}
}

function readPage(effect: EffectOf<'list' | 'loadPage'>, {state, on, later}: EffectContext): void {
	later(async () => readListing(effect, state, on.store));
}

export const LIST_EFFECTS = {
	list: readPage,
	loadPage: readPage,
	readRows(effect, {state, on, later}) {
		for (const id of effect.ids) later(async () => ({type: 'rowRead', id, item: await on.store.readItem(state.channelId, id).catch(() => null)}));
	},
	readDetail(effect, {state, on, later}) {
		later(async () => {
			try {
				// The tracker's comments: a failure to read them is said under the fields, the record still shows.
				const comments = on.store.sync.itemComments(effect.id).catch((error: unknown) => ({error: (error as Error).message}));
				const [item, open] = await Promise.all([on.store.readItem(state.channelId, effect.id), on.store.listFollowUps({itemId: effect.id, status: 'open'})]);
				return {type: 'detailLoaded', for: effect.for, detail: {id: effect.id, item, error: null, flagged: new Set(open.map(followUp => followUp.key)), comments: await comments}};
			} catch (error) {
				return {type: 'detailLoaded', for: effect.for, detail: {id: effect.id, item: null, error: (error as Error).message, flagged: new Set()}};
			}
		});
	},
	reloadSchema: (effect, {state, on, later}) => later(async () => ({type: 'schemaLoaded', fields: (await on.store.getChannel(state.channelId)).fields, quiet: effect.quiet})),
	pollEvents: (_effect, {on}) => on.pollEvents(),
	readSyncState(_effect, {state, on, later}) {
		later(async () => ({type: 'syncState', sync: await readSyncMarks(on.store, state.channelId)}));
	},
} satisfies EffectTable<'list' | 'loadPage' | 'readRows' | 'readDetail' | 'reloadSchema' | 'pollEvents' | 'readSyncState'>;

/** The most unsent changes and conflicts whose rows are marked (the header counts them all). */
const MARKED_LIMIT = 2000;

/** A channel's sync state for the header and the rows' marks, or null when it is not linked to a tracker. */
export async function readSyncMarks(store: AsyncStore, channelId: string): Promise<SyncMarks | null> {
	const link = await store.sync.getLink(channelId);
	if (!link) return null;
	const [status, outbox, open] = await Promise.all([
		store.sync.status(channelId),
		store.sync.outbox(channelId, MARKED_LIMIT),
		store.listFollowUps({channelId, status: 'open', limit: MARKED_LIMIT}),
	]);
	return {
		remote: link.remote,
		lastPullAt: link.last_pull_at,
		pending: status.pending,
		conflicts: status.conflicts,
		unpushed: new Set(outbox.map(entry => entry.item_id)),
		conflicted: new Set(open.filter(followUp => followUp.kind === 'sync_conflict').map(followUp => followUp.item_id)),
	};
}
