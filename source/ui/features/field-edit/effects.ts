// The field edit's effects: the record read afresh for `e`, one edit and its undo, a bulk edit on
// marks and its undo, `E` (the long text in $EDITOR); each outcome sent back as an event.

import {randomUUID} from 'node:crypto';
import {editField, runBulk, undoBulk, undoEdit} from '../../edit-outcome.js';
import {editedText, editInEditor} from '../../external-editor.js';
import {planBulkEdit} from '../../model/bulk.js';
import type {EffectTable} from '../feature.js';

export const FIELD_EDIT_EFFECTS = {
	readForEdit: (effect, {state, on, later}) => later(async () => ({type: 'editOpened', item: await on.store.readItem(state.channelId, effect.itemId), at: Date.now()})),
	edit({request}, {state, on, later}) {
		later(async () => ({type: 'edited', request, outcome: await editField(on.store, state.channelId, request.itemId, request.key, request.value, request.version)}));
	},
	undo(effect, {state, on, later}) {
		// Always answered with `undone`: the screen writes the next undo of a burst when this one is back.
		later(async () => ({type: 'undone', entry: effect.entry, outcome: await undoEdit(on.store, state.channelId, effect.entry).catch((error: unknown) => ({kind: 'error' as const, message: (error as Error).message}))}));
	},
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
} satisfies EffectTable<'readForEdit' | 'edit' | 'undo' | 'bulkEdit' | 'undoBulk' | 'editInEditor'>;
