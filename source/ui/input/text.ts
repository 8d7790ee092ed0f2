import {sanitize} from '../../text/sanitize.js';
import {parseTyped} from '../format.js';
import type {Action} from '../keys.js';
import {NONE} from '../state.js';
import type {TextState} from '../text-input.js';
import type {KeyContext} from './context.js';

/** Applies the typed key to a text input. */
export type TypeKey = (text: TextState) => TextState;

/** Keys in a text input: search, the run instruction, an edit's typed value, a follow-up's typed value. */
export function onTextKey(context: KeyContext, action: Action | undefined, type: TypeKey): void {
	const {overlay, setOverlay} = context;
	switch (overlay.kind) {
		case 'search': {
			if (action === 'cancel') setOverlay(NONE);
			else if (action === 'submit') submitSearch(context, overlay.text.value.slice(0, 200));
			else setOverlay({...overlay, text: type(overlay.text)});
			break;
		}

		case 'instruction': {
			if (action === 'cancel') setOverlay(NONE);
			else if (action === 'submit') context.startRun(overlay.text.value, overlay.itemIds);
			else setOverlay({...overlay, text: type(overlay.text)});
			break;
		}

		case 'edit': {
			if (action === 'cancel') setOverlay({...overlay, stage: 'field', problem: null, conflict: null});
			else if (action === 'submit') context.edit.submitEdit(overlay, parseTyped(overlay.field!, overlay.text.value));
			else setOverlay({...overlay, text: type(overlay.text)});
			break;
		}

		case 'queue': {
			if (!overlay.typing) break;
			const {queueField, resolveQueue} = context.queue;
			if (action === 'cancel') setOverlay({...overlay, typing: null});
			else if (action === 'submit') resolveQueue(queueField ? parseTyped(queueField, overlay.typing.value) : overlay.typing.value);
			else setOverlay({...overlay, typing: type(overlay.typing)});
			break;
		}

		default: { break; }
	}
}

function submitSearch({page, setOverlay, say, relist}: KeyContext, search: string): void {
	setOverlay(NONE);
	say(search ? `Searching for "${sanitize(search)}"…` : 'Search cleared.');
	setTimeout(() => {
		relist({...page.query, search: search || undefined}, search ? `Search: "${sanitize(search)}" · Esc clears` : 'Search cleared.');
	}, 30);
}
