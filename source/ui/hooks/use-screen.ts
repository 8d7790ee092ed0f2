import {useCallback, useEffect, useRef, useState} from 'react';
import type {AsyncStore} from '../../../store/api.js';
import type {PageQuery} from '../../../store/pages.js';
import {randomUUID} from 'node:crypto';
import {itemIdOf, seqOfItemId} from '../../../store/index.js';
import {saveView} from '../../config/config.js';
import {editField, runBulk, undoBulk, undoEdit} from '../edit-outcome.js';
import {editedText, editInEditor} from '../external-editor.js';
import {planBulkEdit} from '../model/bulk.js';
import {parseCommand} from '../model/command-line.js';
import {pageWhere} from '../model/views.js';
import {sanitize} from '../../text/sanitize.js';
import {reduce} from '../reducer.js';
import type {Effect, ScreenEvent, ScreenState, Transition} from '../state.js';

export type Dispatch = (event: ScreenEvent) => void;

/** What effects need beyond the store: the run, quitting, and reading events now. */
export type EffectHandlers = {
	store: AsyncStore;
	stateDir: string;
	/** False when a run is already going; a number when the items went out in that many batches (fan-out). */
	startRun: (instruction: string, itemIds: string[]) => boolean | number;
	cancelRun: () => void;
	/** The runs board: cancel the run at a position, cancel all, watch mode on/off. */
	board?: {cancel: (position: number) => void; cancelAll: () => void; toggleWatch: () => void};
	quit: () => void;
	pollEvents: () => void;
	/** The environment $EDITOR is read from (process.env unless given). */
	env?: NodeJS.ProcessEnv;
	/** Where `:view save` writes (the config file). */
	configFile: string;
};

const QUEUE_LIMIT = 500;

const failed = (error: unknown): ScreenEvent => ({type: 'effectFailed', message: (error as Error).message});

/**
 * Performs one effect: the store read or write (never awaited by the key that asked: input is
 * never blocked), then its result as an event. Every message is escaped by the reducer.
 */
export function performEffect(effect: Effect, state: ScreenState, on: EffectHandlers, dispatch: Dispatch): void {
	const {store} = on;
	const {channelId} = state;
	const later = (work: () => Promise<ScreenEvent | undefined>) => {
		void work().then(event => {
			if (event) dispatch(event);
		}, (error: unknown) => {
			dispatch(failed(error));
		});
	};

	switch (effect.kind) {
		case 'list':
		case 'loadPage': {
			const {generation, query} = effect;
			let where: PageQuery = {beforeId: null};
			if (effect.kind === 'loadPage') where = 'cursor' in effect.request ? {cursor: effect.request.cursor} : {beforeId: effect.request.beforeId};
			else if (effect.from) where = {from: effect.from};
			const asked = pageWhere(query);
			// From one item on (a `:` jump): the page before the next newer id starts at it; a where
			// (even empty) makes the page carry cursors both ways.
			if (effect.kind === 'list' && effect.at !== undefined) where = {beforeId: itemIdOf(seqOfItemId(effect.at, 'item') + 1), where: asked.where ?? ''};
			later(async () => {
				try {
					const page = await store.listPage(channelId, {...asked, ...where, limit: state.window.pageSize});
					return effect.kind === 'list' ? {type: 'listed', generation, query, page, note: effect.note, from: effect.from, at: effect.at} : {type: 'pageLoaded', generation, direction: effect.direction, page};
				} catch (error) {
					return {type: 'loadFailed', generation, message: (error as Error).message};
				}
			});
			break;
		}

		case 'readForEdit': { later(async () => ({type: 'editOpened', item: await store.readItem(channelId, effect.itemId)})); break; }
		case 'edit': {
			const {request} = effect;
			later(async () => ({type: 'edited', request, outcome: await editField(store, channelId, request.itemId, request.key, request.value, request.version)}));
			break;
		}

		case 'undo': { later(async () => ({type: 'undone', entry: effect.entry, outcome: await undoEdit(store, channelId, effect.entry)})); break; }
		case 'changeChannel': {
			later(async () => {
				try {
					const result = await store.changeChannel(channelId, effect.change, {kind: 'human'});
					return {type: 'channelChanged', ok: true, message: `Schema changed: ${effect.change.key}${result.migrated > 0 ? ` (${result.migrated} items moved)` : ''}.`};
				} catch (error) {
					return {type: 'channelChanged', ok: false, message: (error as Error).message};
				}
			});
			break;
		}

		case 'reloadSchema': { later(async () => ({type: 'schemaLoaded', fields: (await store.getChannel(channelId)).fields, quiet: effect.quiet})); break; }
		case 'readRows': {
			for (const id of effect.ids) later(async () => ({type: 'rowRead', id, item: await store.readItem(channelId, id).catch(() => null)}));
			break;
		}

		case 'readDetail': {
			later(async () => {
				try {
					const [item, open] = await Promise.all([store.readItem(channelId, effect.id), store.listFollowUps({itemId: effect.id, status: 'open'})]);
					return {type: 'detailLoaded', for: effect.for, detail: {id: effect.id, item, error: null, flagged: new Set(open.map(followUp => followUp.key))}};
				} catch (error) {
					return {type: 'detailLoaded', for: effect.for, detail: {id: effect.id, item: null, error: (error as Error).message, flagged: new Set()}};
				}
			});
			break;
		}

		case 'countFollowUps': { later(async () => ({type: 'followUpCount', count: await store.countOpenFollowUps(channelId).catch(() => state.followUpCount)})); break; }
		case 'loadQueue': { later(async () => ({type: 'queueLoaded', followUps: await store.listFollowUps({channelId, status: 'open', limit: QUEUE_LIMIT}), note: effect.note})); break; }
		case 'readQueueEntry': {
			later(async () => ({type: 'queueEntry', entry: {followUp: effect.followUp, item: await store.readItem(channelId, effect.followUp.item_id).catch(() => null)}}));
			break;
		}

		case 'dismissFollowUp': {
			later(async () => {
				try {
					await store.dismissFollowUp(effect.id);
				} catch (error) {
					return {type: 'followUpDismissed', ok: false, message: (error as Error).message};
				}

				return {type: 'followUpDismissed', ok: true, left: await store.listFollowUps({channelId, status: 'open', limit: QUEUE_LIMIT})};
			});
			break;
		}

		case 'loadHistory': {
			later(async () => {
				const {loadRunHistory} = await import('../history.js');
				return {type: 'historyLoaded', runs: await loadRunHistory(on.stateDir, store)};
			});
			break;
		}

		case 'loadSteps': {
			later(async () => {
				const {runSteps} = await import('../history.js');
				return {type: 'stepsLoaded', run: effect.run, steps: runSteps(effect.run)};
			});
			break;
		}

		case 'startRun': {
			const started = on.startRun(effect.instruction, effect.itemIds);
			if (started !== false) dispatch({type: 'runStarted', count: effect.itemIds.length, ...(typeof started === 'number' ? {batches: started} : {})});
			break;
		}

		case 'cancelBatch': { on.board?.cancel(effect.position); break; }
		case 'cancelAllRuns': { on.board ? on.board.cancelAll() : on.cancelRun(); break; }
		case 'toggleWatch': { on.board?.toggleWatch(); break; }

		case 'cancelRun': { on.cancelRun(); break; }
		case 'quit': { on.quit(); break; }
		case 'pollEvents': { on.pollEvents(); break; }
		// Bulk edits and $EDITOR (issue 12).
		case 'bulkEdit': {
			later(async () => {
				const plan = planBulkEdit({channelId, field: effect.field, value: effect.value, rows: effect.rows, batch: randomUUID()});
				if ('error' in plan) return {type: 'say', text: `Not saved: ${sanitize(plan.error)}`, tone: 'warn'};
				return {type: 'bulkEdited', outcome: await runBulk(store, plan)};
			});
			break;
		}

		// Views, sort and the `:` line.
		case 'countViews': {
			later(async () => {
				const counts: Array<number | null> = [];
				for (const view of effect.views) {
					// One count at a time, a turn of the event loop before each: keys pressed meanwhile go first.
					await new Promise(resolve => setImmediate(resolve)); // eslint-disable-line no-await-in-loop
					counts.push(await store.countMatches(channelId, view.query).catch(() => null)); // eslint-disable-line no-await-in-loop
				}

				return {type: 'viewCounts', views: effect.views, counts};
			});
			break;
		}

		case 'undoBulk': {
			later(async () => {
				const outcome = await undoBulk(store, effect.outcome);
				return outcome ? {type: 'bulkUndone', outcome} : {type: 'say', text: 'Nothing to undo: that bulk edit wrote nothing.', tone: 'warn'};
			});
			break;
		}

		case 'editInEditor': {
			later(async () => {
				const item = await store.readItem(channelId, effect.itemId);
				const before = typeof item.values[effect.key] === 'string' ? item.values[effect.key] as string : '';
				const run = editInEditor(before, effect.name, on.env ?? process.env);
				if (run.code !== 0) return {type: 'say', text: `${effect.name}: ${sanitize(run.editor)} exited with ${run.code ?? 'an error'}; nothing saved.`, tone: 'warn'};
				const after = editedText(before, run.text);
				if (after === before) return {type: 'say', text: `${effect.name}: text unchanged; nothing saved.`, tone: 'info'};
				const request = {itemId: item.id, name: effect.name, key: effect.key, value: after, before: item.values[effect.key] ?? null, version: item.version, origin: 'picker' as const};
				return {type: 'edited', request, outcome: await editField(store, channelId, item.id, effect.key, after, item.version)};
			});
			break;
		}

		case 'parseCommand': {
			dispatch({type: 'commandParsed', result: parseCommand(effect.line, {fields: state.fields, views: state.views.map(view => view.name), now: new Date()})});
			break;
		}

		case 'saveView': {
			const saved = saveView(effect.view.name, effect.view.query, on.configFile);
			dispatch(saved.ok ? {type: 'viewSaved', view: effect.view, ok: true, message: saved.path} : {type: 'viewSaved', view: effect.view, ok: false, message: saved.message});
			break;
		}

		case 'findItem': {
			later(async () => {
				try {
					const matches = await store.findItemsNamed(channelId, effect.name);
					return {type: 'jumpFound', name: effect.name, ids: [...new Set(matches.map(match => match.item_id))]};
				} catch (error) {
					return {type: 'jumpFound', name: effect.name, ids: [], message: (error as Error).message};
				}
			});
			break;
		}
	}
}

/**
 * The screen's state machine wired to React: the state lives in a ref (so keys handled in one
 * tick each see the previous one's result) and is rendered from a copy; effects run as they come.
 */
export function useScreen(start: () => Transition, handlers: EffectHandlers) {
	const [initial] = useState(start);
	const ref = useRef<ScreenState>(initial.state);
	const [state, setState] = useState<ScreenState>(initial.state);
	const handlersRef = useRef(handlers);
	handlersRef.current = handlers;

	const dispatch: Dispatch = useCallback(event => {
		const {state: next, effects} = reduce(ref.current, event);
		if (next !== ref.current) {
			ref.current = next;
			setState(next);
		}

		for (const effect of effects) performEffect(effect, next, handlersRef.current, dispatch);
	}, []);

	useEffect(() => {
		for (const effect of initial.effects) performEffect(effect, initial.state, handlersRef.current, dispatch);
	}, [initial, dispatch]);

	return {state, dispatch, current: () => ref.current};
}
