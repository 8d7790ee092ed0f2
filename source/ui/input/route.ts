import type {Key} from '#ink';
import {actionFor, keyName, type Scope} from '../keys.js';
import {NONE, type Overlay} from '../state.js';
import {applyTextKey} from '../text-input.js';
import {onConfirmKey} from './confirm.js';
import {QUIT_QUESTION, type KeyContext} from './context.js';
import {onHistoryKey} from './history.js';
import {onListKey} from './list.js';
import {onPickerKey} from './picker.js';
import {onQueueKey} from './queue.js';
import {onTextKey} from './text.js';

/** Where keys go while this overlay is open. */
export function scopeOf(overlay: Overlay): Scope {
	switch (overlay.kind) {
		case 'none': return 'list';
		case 'help': return 'help';
		case 'search':
		case 'instruction': return 'text';
		case 'filter': return 'picker';
		case 'edit': return overlay.stage === 'text' ? 'text' : 'picker';
		case 'queue': return overlay.typing ? 'text' : (overlay.confirmDismiss ? 'confirm' : 'queue');
		case 'history': return 'history';
		case 'confirm': return 'confirm';
	}
}

/** One key: Ctrl+C anywhere, else the handler of the scope the overlay puts it in. */
export function routeKey(context: KeyContext, input: string, key: Key): void {
	const {overlay, setOverlay} = context;
	if (keyName(input, key) === 'ctrl+c') {
		if (context.run.active && overlay.kind !== 'confirm') setOverlay({kind: 'confirm', question: QUIT_QUESTION, action: 'quit'});
		else context.quit();
		return;
	}

	const scope = scopeOf(overlay);
	const action = actionFor(scope, input, key);
	switch (scope) {
		case 'list': { onListKey(context, action); break; }
		case 'picker': { onPickerKey(context, action); break; }
		case 'text': { onTextKey(context, action, text => applyTextKey(text, input, key)); break; }
		case 'queue': { onQueueKey(context, action); break; }
		case 'confirm': { onConfirmKey(context, action); break; }
		case 'history': { onHistoryKey(context, action); break; }
		case 'help': { if (action === 'cancel') setOverlay(NONE); break; }
		default: { break; }
	}
}
