// What each effect the screen machine asks for does: one handler per effect kind, typed over the
// kinds (an effect without a handler does not compile). A handler calls the store (never awaited
// by the key that asked: input is never blocked) or the runs, and sends the result back as an event.

import {randomUUID} from 'node:crypto';
import type {AsyncStore} from '../../../store/api.js';
import type {PageQuery} from '../../../store/pages.js';
import {itemIdOf, seqOfItemId} from '../../../store/index.js';
import {saveView} from '../../config/config.js';
import {editField, runBulk, undoAccept, undoBulk, undoEdit} from '../edit-outcome.js';
import {acceptText, declineText, diffText, revertPreviewText, revertText} from '../../text/review.js';
import {sortRevert} from '../../../store/review-plan.js';
import {editedText, editInEditor} from '../external-editor.js';
import {planBulkEdit} from '../model/bulk.js';
import {parseCommand} from '../model/command-line.js';
import {pageWhere} from '../model/views.js';
import type {Effect, ScreenEvent, ScreenState} from '../state.js';

export type Dispatch = (event: ScreenEvent) => void;

/** What effects need beyond the store: the runs, quitting, and reading events now. */
export type EffectHandlers = {
	store: AsyncStore;
	stateDir: string;
	/** Starts the runs on the items, through a fan-out in batches (one batch: one run); why not when none started. */
	startRun: (instruction: string, itemIds: string[]) => Promise<{ok: true; batches: number} | {ok: false; text: string}>;
	/** Cancels the one run, or the board's run at `position`. */
	cancelRun: (position: number | null) => void;
	/** The runs board: cancel the run at a position, cancel all, watch mode on/off. */
	board?: {cancel: (position: number) => void; cancelAll: () => void; toggleWatch: () => void};
	quit: () => void;
	pollEvents: () => void;
	/** The environment $EDITOR is read from (process.env unless given). */
	env?: NodeJS.ProcessEnv;
	/** Where `:view save` writes (the config file). */
	configFile: string;
	/** `:channel NAME`: opens the screen of the channel with this id (absent: switching is not offered). */
	switchChannel?: (channelId: string) => void;
};

/** What a handler is given: the state the effect came with, the handlers, and where results go. */
export type EffectContext = {
	state: ScreenState;
	on: EffectHandlers;
	dispatch: Dispatch;
	/** Runs async work and dispatches the event it ends with; a throw becomes `effectFailed`. */
	later: (work: () => Promise<ScreenEvent | undefined>) => void;
};

export type EffectOf<K extends Effect['kind']> = Extract<Effect, {kind: K}>;

const QUEUE_LIMIT = 500;

/** The `/` line's live count: after this pause in typing, shown if it comes within the bound; none on a SQLite channel larger than this. */
const LIVE_COUNT_PAUSE_MS = 200;
const LIVE_COUNT_BOUND_MS = 500;
const LIVE_COUNT_MAX_SQLITE = 200_000;
let searchCount: NodeJS.Timeout | undefined;

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

export const EFFECTS = {
	list: readPage,
	loadPage: readPage,
	readForEdit: (effect, {state, on, later}) => later(async () => ({type: 'editOpened', item: await on.store.readItem(state.channelId, effect.itemId), at: Date.now()})),
	edit({request}, {state, on, later}) {
		later(async () => ({type: 'edited', request, outcome: await editField(on.store, state.channelId, request.itemId, request.key, request.value, request.version)}));
	},
	undo(effect, {state, on, later}) {
		// Always answered with `undone`: the screen writes the next undo of a burst when this one is back.
		later(async () => ({type: 'undone', entry: effect.entry, outcome: await undoEdit(on.store, state.channelId, effect.entry).catch((error: unknown) => ({kind: 'error' as const, message: (error as Error).message}))}));
	},
	changeChannel(effect, {state, on, later}) {
		later(async () => {
			try {
				const result = await on.store.changeChannel(state.channelId, effect.change, {kind: 'human'});
				return {type: 'channelChanged', ok: true, message: `Schema changed: ${effect.change.key}${result.migrated > 0 ? ` (${result.migrated} items moved)` : ''}.`};
			} catch (error) {
				return {type: 'channelChanged', ok: false, message: (error as Error).message};
			}
		});
	},
	reloadSchema: (effect, {state, on, later}) => later(async () => ({type: 'schemaLoaded', fields: (await on.store.getChannel(state.channelId)).fields, quiet: effect.quiet})),
	readRows(effect, {state, on, later}) {
		for (const id of effect.ids) later(async () => ({type: 'rowRead', id, item: await on.store.readItem(state.channelId, id).catch(() => null)}));
	},
	readDetail(effect, {state, on, later}) {
		later(async () => {
			try {
				const [item, open] = await Promise.all([on.store.readItem(state.channelId, effect.id), on.store.listFollowUps({itemId: effect.id, status: 'open'})]);
				return {type: 'detailLoaded', for: effect.for, detail: {id: effect.id, item, error: null, flagged: new Set(open.map(followUp => followUp.key))}};
			} catch (error) {
				return {type: 'detailLoaded', for: effect.for, detail: {id: effect.id, item: null, error: (error as Error).message, flagged: new Set()}};
			}
		});
	},
	countFollowUps: (_effect, {state, on, later}) => later(async () => ({type: 'followUpCount', count: await on.store.countOpenFollowUps(state.channelId).catch(() => state.followUpCount)})),
	loadQueue: (effect, {state, on, later}) => later(async () => ({type: 'queueLoaded', followUps: await on.store.listFollowUps({channelId: state.channelId, status: 'open', limit: QUEUE_LIMIT}), note: effect.note})),
	readQueueEntry(effect, {state, on, later}) {
		later(async () => ({type: 'queueEntry', entry: {followUp: effect.followUp, item: await on.store.readItem(state.channelId, effect.followUp.item_id).catch(() => null)}, at: Date.now()}));
	},
	dismissFollowUp(effect, {state, on, later}) {
		later(async () => {
			try {
				await on.store.dismissFollowUp(effect.id);
			} catch (error) {
				return {type: 'followUpDismissed', ok: false, message: (error as Error).message};
			}

			return {type: 'followUpDismissed', ok: true, left: await on.store.listFollowUps({channelId: state.channelId, status: 'open', limit: QUEUE_LIMIT})};
		});
	},
	loadHistory(_effect, {on, later}) {
		later(async () => {
			const {loadRunHistory} = await import('../history.js');
			return {type: 'historyLoaded', runs: await loadRunHistory(on.stateDir, on.store)};
		});
	},
	loadSteps(effect, {later}) {
		later(async () => {
			const {runSteps} = await import('../history.js');
			return {type: 'stepsLoaded', run: effect.run, steps: runSteps(effect.run)};
		});
	},
	startRun(effect, {on, later}) {
		later(async () => {
			const started = await on.startRun(effect.instruction, effect.itemIds);
			if (!started.ok) return {type: 'runRefused', text: started.text};
			return {type: 'runStarted', count: effect.itemIds.length, ...(started.batches > 1 ? {batches: started.batches} : {})};
		});
	},
	cancelRun: (effect, {on}) => on.cancelRun(effect.position),
	cancelBatch: (effect, {on}) => on.board?.cancel(effect.position),
	cancelAllRuns: (_effect, {on}) => (on.board ? on.board.cancelAll() : on.cancelRun(null)),
	toggleWatch: (_effect, {on}) => on.board?.toggleWatch(),
	quit: (_effect, {on}) => on.quit(),
	pollEvents: (_effect, {on}) => on.pollEvents(),
	bulkEdit(effect, {state, on, later}) {
		later(async () => {
			const plan = planBulkEdit({channelId: state.channelId, field: effect.field, value: effect.value, rows: effect.rows, batch: randomUUID()});
			if ('error' in plan) return {type: 'say', text: `Not saved: ${plan.error}`, tone: 'warn'};
			return {type: 'bulkEdited', outcome: await runBulk(on.store, plan)};
		});
	},
	undoBulk(effect, {on, later}) {
		later(async () => ({type: 'bulkUndone', outcome: await undoBulk(on.store, effect.outcome), undid: effect.outcome}));
	},
	editInEditor(effect, {state, on, later}) {
		later(async () => {
			const item = await on.store.readItem(state.channelId, effect.itemId);
			const before = typeof item.values[effect.key] === 'string' ? item.values[effect.key] as string : '';
			const run = editInEditor(before, effect.name, on.env ?? process.env);
			if (run.code !== 0) return {type: 'say', text: `${effect.name}: ${run.editor} exited with ${run.code ?? 'an error'}; nothing saved.`, tone: 'warn'};
			const after = editedText(before, run.text);
			if (after === before) return {type: 'say', text: `${effect.name}: text unchanged; nothing saved.`, tone: 'info'};
			const request = {itemId: item.id, name: effect.name, key: effect.key, value: after, before: item.values[effect.key] ?? null, version: item.version, origin: 'picker' as const};
			return {type: 'edited', request, outcome: await editField(on.store, state.channelId, item.id, effect.key, after, item.version)};
		});
	},
	countViews(effect, {state, on, later}) {
		later(async () => {
			const counts: Array<number | null> = [];
			for (const view of effect.views) {
				// One count at a time, a turn of the event loop before each: keys pressed meanwhile go first.
				await new Promise(resolve => setImmediate(resolve));
				counts.push(await on.store.countMatches(state.channelId, view.query).catch(() => null));
			}

			return {type: 'viewCounts', views: effect.views, counts};
		});
	},
	parseCommand(effect, {state, dispatch}) {
		dispatch({type: 'commandParsed', result: parseCommand(effect.line, {fields: state.fields, views: state.views.map(view => view.name), now: new Date()})});
	},
	saveView(effect, {state, on, later}) {
		// A view belongs to the channel it was saved on (channels.ID.views in the file).
		later(async () => {
			const saved = await saveView(effect.view.name, effect.view.query, on.configFile, state.channelId);
			return saved.ok ? {type: 'viewSaved', view: effect.view, ok: true, message: saved.path} : {type: 'viewSaved', view: effect.view, ok: false, message: saved.message};
		});
	},
	countSearch(effect, {state, on, dispatch}) {
		// Counted after a pause in typing, and shown only when it comes within a bound. On SQLite a
		// count runs on this thread (seconds at a million records): a large channel gets none.
		clearTimeout(searchCount);
		if (on.store.backend === 'sqlite' && state.total > LIVE_COUNT_MAX_SQLITE) return;
		searchCount = setTimeout(() => {
			const bound = new Promise<null>(resolve => {
				setTimeout(resolve, LIVE_COUNT_BOUND_MS, null).unref();
			});
			const count = on.store.countMatches(state.channelId, effect.where).catch(() => null);
			void Promise.race([count, bound]).then(matches => {
				dispatch({type: 'searchCounted', text: effect.text, count: matches});
			});
		}, LIVE_COUNT_PAUSE_MS);
		searchCount.unref();
	},
	findItem(effect, {state, on, later}) {
		later(async () => {
			try {
				const matches = await on.store.findItemsNamed(state.channelId, effect.name);
				return {type: 'jumpFound', name: effect.name, ids: [...new Set(matches.map(match => match.item_id))]};
			} catch (error) {
				return {type: 'jumpFound', name: effect.name, ids: [], message: (error as Error).message};
			}
		});
	},
	switchChannel(effect, {state, on, later}) {
		later(async () => {
			const channels = await on.store.listChannelNames();
			const wanted = effect.name.toLowerCase();
			const found = channels.find(channel => channel.id === effect.name) ?? channels.find(channel => channel.id.toLowerCase() === wanted || channel.name.toLowerCase() === wanted);
			if (!found) return {type: 'say', text: `No channel is named ${effect.name}; channels: ${channels.map(channel => channel.id).join(', ')}.`, tone: 'error'};
			if (found.id === state.channelId) return {type: 'say', text: `Already on the channel ${found.name}.`, tone: 'info'};
			if (!on.switchChannel) return {type: 'say', text: 'This screen cannot switch channel.', tone: 'error'};
			on.switchChannel(found.id);
			return undefined;
		});
	},
	// Review before it lands (overlays/review.ts, overlays/history.ts): the store's review API, its outcomes in source/text/review.ts's words.
	loadReview(effect, {state, on, later}) {
		later(async () => ({type: 'reviewLoaded', proposals: await on.store.proposals.list({channelId: state.channelId, status: 'open', limit: QUEUE_LIMIT, ...(effect.where.trim() === '' ? {} : {where: effect.where})}), note: effect.note}));
	},
	readReviewItem: (effect, {state, on, later}) => later(async () => ({type: 'reviewItem', proposalId: effect.proposalId, item: await on.store.readItem(state.channelId, effect.itemId).catch(() => null)})),
	countProposals: (_effect, {state, on, later}) => later(async () => ({type: 'proposalCount', count: await on.store.proposals.countOpen(state.channelId).catch(() => state.proposalCount)})),
	acceptProposals(effect, {state, on, later}) {
		later(async () => {
			const [result, channel] = await Promise.all([on.store.proposals.accept({ids: effect.ids, ...(effect.fields ? {fields: effect.fields} : {}), force: effect.force}), on.store.getChannel(state.channelId)]);
			return {type: 'reviewAccepted', request: {ids: effect.ids, ...(effect.fields ? {fields: effect.fields} : {}), force: effect.force}, result, lines: acceptText(result, channel).split('\n')};
		});
	},
	declineProposals(effect, {on, later}) {
		later(async () => {
			const result = await on.store.proposals.decline(effect.ids);
			return {type: 'reviewDeclined', result, lines: declineText(result).split('\n')};
		});
	},
	undoAccept(effect, {state, on, later}) {
		later(async () => {
			const {written, kept} = await undoAccept(on.store, state.channelId, effect.entry);
			return {type: 'acceptUndone', ok: kept.length === 0, lines: [`Accept undone: ${written} item(s) set back`, ...kept.map(line => `kept (changed since): ${line}`)]};
		});
	},
	runDiff(effect, {state, on, later}) {
		later(async () => {
			const [diff, channel] = await Promise.all([on.store.runs.diff(effect.runId), on.store.getChannel(state.channelId)]);
			const text = effect.preview ? revertPreviewText(effect.runId, sortRevert(diff), channel).replace(/\n[^\n]*$/, '') : diffText(diff, channel);
			return {type: 'runDiffLoaded', runId: effect.runId, lines: text.split('\n'), revert: effect.preview};
		});
	},
	runRevert(effect, {state, on, later}) {
		later(async () => {
			const [result, channel] = await Promise.all([on.store.runs.revert(effect.runId), on.store.getChannel(state.channelId)]);
			return {type: 'runReverted', runId: effect.runId, lines: revertText(result, channel).split('\n'), ok: result.conflicts.length === 0 && result.refused.length === 0};
		});
	},
} satisfies {[K in Effect['kind']]: (effect: EffectOf<K>, context: EffectContext) => void};

/** Performs one effect through its handler, with the state it came with. */
export function performEffect(effect: Effect, state: ScreenState, on: EffectHandlers, dispatch: Dispatch): void {
	const later: EffectContext['later'] = work => {
		void work().then(event => {
			if (event) dispatch(event);
		}, (error: unknown) => {
			dispatch({type: 'effectFailed', message: (error as Error).message});
		});
	};

	(EFFECTS[effect.kind] as (effect: Effect, context: EffectContext) => void)(effect, {state, on, dispatch, later});
}
