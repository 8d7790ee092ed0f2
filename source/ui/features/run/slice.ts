// `c`: the instruction for a Codex run on the marked rows (or the row), and the run's state as the
// screen follows it. The runs themselves live in the hooks (hooks/use-fanout.ts).

import type {Field} from '../../../../store/index.js';
import {counted} from '../../../text/format.js';
import {NONE, type ScreenState} from '../../state.js';
import {applyTextKey, textState} from '../../text-input.js';
import {currentRow} from '../rows.js';
import {listBinding, none, say, type OverlaySlice} from '../feature.js';
import {RUN_EFFECTS} from './effects.js';

/**
 * The default instruction: triage the chosen records from what their text asks for. It names no
 * count: a fan-out sends it to every batch, and each batch's prompt names its own items and how
 * many (codex/prompt.ts).
 */
export function defaultInstruction(fields: Field[], count: number): string {
	const settable = fields.filter(field => field.type !== 'formula' && !field.is_unique && (field.type === 'select' || field.type === 'number' || field.type === 'date' || field.type === 'multi_select')).map(field => field.key);
	const what = count === 1 ? 'this record' : 'these records';
	return `Triage ${what}: read ${count === 1 ? 'it' : 'each one'} and set ${settable.join(', ') || 'its fields'} from what its text asks for, using only values the schema allows (option values, not labels). Where a wish does not fit the schema, do not guess: leave that field and say what you could not set and why.`;
}

function askRun(state: ScreenState): ScreenState {
	if (state.run.active) return say(state, 'A run is already active; x cancels it.', 'warn');
	const row = currentRow(state);
	const itemIds = state.marks.size > 0 ? [...state.marks] : (row ? [row.id] : []);
	if (itemIds.length === 0) return say(state, 'No record to run on.', 'warn');
	return {...state, overlay: {kind: 'instruction', text: textState(state.instruction ?? defaultInstruction(state.fields, itemIds.length)), itemIds}};
}

export const INSTRUCTION = {
	scope: () => 'text',
	effects: RUN_EFFECTS,
	scopes: {},
	bindings: [listBinding('run', {type: 'askRun'})],
	keys: {
		type: (state, overlay, {input, key}) => none({...state, overlay: {...overlay, text: applyTextKey(overlay.text, input, key)}}),
		cancel: state => none({...state, overlay: NONE}),
		submit(state, overlay) {
			if (!overlay.text.value.trim()) return none(say(state, 'The instruction is empty; nothing was started.', 'warn'));
			// More items than one run takes go out through a fan-out, and the board shows them.
			const batches = Math.ceil(new Set(overlay.itemIds).size / state.runBatch);
			const next = state.run.active ? state : {...state, boardShown: batches > 1};
			return {state: next, effects: [{kind: 'startRun', instruction: overlay.text.value, itemIds: overlay.itemIds, batches}]};
		},
	},
	events: {
		askRun: state => none(askRun(state)),
		runState(state, event) {
			// A question about cancelling a run that has ended asks about nothing: it goes.
			const asked = state.overlay.kind === 'confirm' && state.overlay.action === 'cancelRun';
			return none({...state, run: {active: event.active, exists: event.exists}, overlay: asked && !event.active ? NONE : state.overlay});
		},
		// Codex cannot run now (no binary, no login): nothing started, no item taken.
		runRefused: (state, event) => none(say({...state, overlay: state.overlay.kind === 'instruction' ? NONE : state.overlay}, event.text, 'error')),
		runStarted(state, event) {
			// Marks stay: starting, finishing or cancelling a run never clears them; only the person does.
			if (event.batches !== undefined && event.batches > 1) {
				return none(say({...state, pane: 'run', overlay: {kind: 'board'}, board: {...state.board, focused: false}}, `Codex started on ${counted(event.count, 'record')} in ${event.batches} runs · X cancels all`));
			}

			return none(say({...state, pane: 'run', overlay: NONE}, `Codex started on ${counted(event.count, 'record')} · x cancels`));
		},
		runFinished: (state, event) => ({state: say(state, event.text, event.tone), effects: [{kind: 'countFollowUps'}]}),
	},
} satisfies OverlaySlice<'instruction', 'askRun' | 'runState' | 'runStarted' | 'runFinished' | 'runRefused'>;
